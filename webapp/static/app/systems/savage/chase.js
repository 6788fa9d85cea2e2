// The chase board: the row of chase cards (suit, value, the Complication a Clubs action card
// would trigger there), tokens of the participants and groups, distances, who has fled; the
// GM's controls and a player's own moves. Loaded lazily (see index.js).
import { html, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { rememberNames, t } from "../../i18n.js";
import { confirmAction } from "../../telegram.js";
import { Btn, ErrorLine, PlayingCard, SUITS, useCommand } from "./cards.js";

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
const resultName = (r) => ({ critical_failure: t("crit. failure"), bump: t("Bump"), shift_two: t("shift up to 2 cards") }[r] || r);
const choiceName = (c) => ({ lose_turn: t("loses the rest of the turn"), fatigue: t("gains Fatigue"),
  out_of_control: t("out of control"), narrated: t("the GM narrates") }[c] || c);
const endName = (r) => ({ out_of_action: t("one side is out of action"), escaped: t("the fugitives got away"),
  side_stopped: t("one side stopped"), goal_reached: t("the goal is reached"), round_limit: t("the rounds ran out") }[r] || r);

// A side is told by its shape as well as its colour (the legend names both).
const SHAPES = ["●", "▲", "■", "◆"];

function Token({ p, members, sideIndex, selected, onSelect }) {
  const cls = ["token", `side-${sideIndex % 4}`, p.turn && "turn", p.mine && "mine", selected && "selected"].filter(Boolean).join(" ");
  return html`<button type="button" class=${cls} data-token=${p.id} aria-pressed=${selected} title=${p.name} onClick=${() => onSelect(p.id)}>
    <span class="shape" aria-hidden="true">${SHAPES[sideIndex % 4]}</span><span class="token-name">${p.name}</span>${members.length ? html` <small>+${members.length}</small>` : null}</button>`;
}

// The Complication of each suit once, under the row (not under every card).
function ComplicationLegend({ row }) {
  const seen = new Map();
  for (const card of row) {
    const key = card.joker ? "★" : SUITS[card.suit];
    if (!seen.has(key)) seen.set(key, card.complication);
  }
  return html`<p class="hint complications" data-testid="complication-legend">${t("Complications:")} ${[...seen].map(([suit, c]) =>
    html`<span class="compl-item">${suit} ${signed(c.modifier)} ${resultName(c.result)}</span> `)}</p>`;
}

function Card({ card, index, units, chase, sel, onSelect, onPlace }) {
  const sides = chase.sides;
  return html`<li class="chase-card" data-index=${index}>
    <button type="button" class="chase-face" disabled=${!onPlace} onClick=${onPlace}
      aria-label=${t("Card {number}", { number: index + 1 })}>
      <span class="num">${index + 1}</span>
      <${PlayingCard} card=${card} />
    </button>
    <div class="tokens">${units.map((p) => html`<${Token} key=${p.id} p=${p} sideIndex=${sides.indexOf(p.side)}
      members=${chase.participants.filter((m) => m.leader === p.id && m.status === "active")}
      selected=${sel === p.id} onSelect=${onSelect} />`)}</div>
  </li>`;
}

function Pending({ chase, gm, cmd }) {
  if (!chase.pending.length) return null;
  const name = (id) => (chase.participants.find((p) => p.id === id) || { name: id }).name;
  return html`<div class="card pending">${chase.pending.map((x) => html`<div key=${x.id}>
    <p>${x.kind === "critical" ? t("{name}: critical failure — the GM chooses the outcome.", { name: name(x.target) })
      : t("{name} can be moved up to {count} cards.", { name: name(x.target), count: x.max_cards })}</p>
    ${gm ? html`<div class="acts">${x.kind === "critical"
      ? x.choices.map((c) => html`<${Btn} name="critical" label=${choiceName(c)} busy=${cmd.busy} onClick=${() => cmd.send("critical", { pending: x.id, choice: c })} />`)
      : [-1, 1].map((d) => html`<${Btn} name="resolve" label=${d < 0 ? `← ${x.max_cards}` : `${x.max_cards} →`} busy=${cmd.busy}
          onClick=${() => cmd.send("resolve", { pending: x.id, direction: d, cards: x.max_cards })} />`)}</div>` : null}
  </div>`)}</div>`;
}

function Moves({ chase, p, cmd, gm }) {
  const [target, setTarget] = useState("");
  const foes = chase.participants.filter((q) => q.side !== p.side && q.status === "active" && !q.leader);
  const aim = target || (foes[0] && foes[0].id) || "";
  const pid = p.id;
  return html`<div class="acts">
    <${Btn} name="forward" kind="primary-act" label=${t("Forward")} busy=${cmd.busy} onClick=${() => cmd.send("move", { participant: pid, direction: "forward" })} />
    <${Btn} name="backward" label=${t("Backward")} busy=${cmd.busy} onClick=${() => cmd.send("move", { participant: pid, direction: "back" })} />
    ${chase.options.linear ? html`<${Btn} name="drop" label=${t("Drop back 1")} busy=${cmd.busy} onClick=${() => cmd.send("back", { participant: pid, cards: 1 })} />` : null}
    <${Btn} name="flee" label=${t("Flee")} busy=${cmd.busy} onClick=${() => cmd.send("flee", { participant: pid })} />
    ${gm ? html`<${Btn} name="out" kind="danger" label=${t("Out of the chase")} busy=${cmd.busy} onClick=${() => cmd.send("out", { participant: pid })} />` : null}
  </div>
  ${foes.length ? html`<div class="row bump">
    <label class="field wide"><span>${t("Bump whom")}</span>
      <select name="bump-target" value=${aim} onChange=${(e) => setTarget(e.currentTarget.value)}>
        ${foes.map((q) => html`<option value=${q.id}>${q.name}</option>`)}</select></label>
    <${Btn} name="bump-forward" label=${t("Bump forward")} busy=${cmd.busy} onClick=${() => cmd.send("bump", { attacker: pid, target: aim, direction: "forward" })} />
    <${Btn} name="bump-back" label=${t("Bump back")} busy=${cmd.busy} onClick=${() => cmd.send("bump", { attacker: pid, target: aim, direction: "back" })} />
  </div>` : null}`;
}

function AddForm({ chase, encounter, cmd }) {
  const known = encounter ? encounter.combatants.flatMap((c) => (c.members.length === 1 ? [c] : [c, ...c.members])) : [];
  const free = known.filter((k) => !chase.participants.some((p) => p.id === k.id));
  const [who, setWho] = useState("");
  const [side, setSide] = useState(chase.sides[0] || t("fugitives"));
  const [pos, setPos] = useState("1");
  if (!free.length) return null;
  const id = free.some((k) => k.id === who) ? who : free[0].id; // the last one added is gone
  return html`<h3>${t("Add to the chase")}</h3><div class="row add">
    <label class="field"><span>${t("Who")}</span><select name="chase-who" value=${id} onChange=${(e) => setWho(e.currentTarget.value)}>
      ${free.map((k) => html`<option value=${k.id}>${k.name}</option>`)}</select></label>
    <label class="field"><span>${t("Side")}</span><input name="chase-side" type="text" maxlength="32" list="chase-sides" value=${side}
      onInput=${(e) => setSide(e.currentTarget.value)} /><datalist id="chase-sides">${chase.sides.map((s) => html`<option value=${s} />`)}</datalist></label>
    <label class="field narrow"><span>${t("Card")}</span><input name="chase-card" type="number" min="1" max=${chase.row.length} value=${pos}
      onInput=${(e) => setPos(e.currentTarget.value)} /></label>
    <${Btn} name="chase-add" label=${t("Add")} busy=${cmd.busy}
      onClick=${() => cmd.send("add", { participant: id, side: side.trim(), position: Number(pos) - 1 })} />
  </div>`;
}

export function ChaseBoard({ game, chase, encounter, onScene }) {
  const [sel, setSel] = useState(null);
  const cmd = useCommand(game, "chase", chase, onScene);
  const fight = useCommand(game, "encounter", encounter, () => {}); // the push brings it back
  const gm = game.role === "gm";
  const actingFighter = encounter && encounter.combatants.find((c) => c.acting);
  // turns are the fight's: end one here too, without going back to the initiative tab
  const endTurn = (label) => html`<${Btn} name="fight-next" kind="primary-act" label=${label} busy=${fight.busy} onClick=${() => fight.send("next")} />`;
  if (!chase) {
    return html`<section class="board" data-board="chase">
      <p class="card hint">${t("No chase is running.")}</p>
      ${gm && game.active ? html`<${Btn} name="chase-start" kind="primary-act" label=${t("Start a chase")} busy=${cmd.busy} onClick=${() => cmd.send("start")} />` : null}
      <${ErrorLine} text=${cmd.error} />
    </section>`;
  }
  const byId = Object.fromEntries(chase.participants.map((p) => [p.id, p]));
  rememberNames(chase.participants.map((p) => [p.id, p.name])); // refusals name them
  const units = chase.participants.filter((p) => p.status === "active" && !p.leader);
  const selected = sel && byId[sel];
  const mine = chase.participants.filter((p) => p.mine && p.status === "active" && !p.leader);
  const own = selected && selected.mine ? selected : (!gm ? mine[0] : null);
  const running = !chase.ended && game.active;
  const place = (i) => (gm && selected && running ? () => cmd.send("place", { participant: selected.id, position: i }).then((ok) => ok && setSel(null)) : null);
  const gone = chase.participants.filter((p) => p.status !== "active");
  return html`<section class="board" data-board="chase">
    <div class="board-head">
      <h2>${chase.ended ? t("The chase is over") : chase.round ? t("Chase · round {round}", { round: chase.round }) : t("Chase — the round has not started")}</h2>
      ${chase.options.round_limit ? html`<span class="meta">${t("limit {limit}", { limit: chase.options.round_limit })}</span>` : null}
    </div>
    ${chase.ended ? html`<p class="card">${endName(chase.ended.reason)}</p>` : null}
    <p class="hint legend">${chase.sides.map((s, i) => html`<span class=${`side-dot side-${i % 4}`}>${SHAPES[i % 4]} ${s}</span> `)}
      ${gm && selected && running ? html`<strong>${t("Tap a card to put {name} there.", { name: selected.name })}</strong>` : null}</p>
    <ol class="chase-row" aria-label=${t("Chase cards")}>${chase.row.map((card, i) => html`<${Card} key=${i} card=${card} index=${i} chase=${chase}
      units=${units.filter((p) => p.position === i)} sel=${sel} onSelect=${(id) => setSel(id === sel ? null : id)} onPlace=${place(i)} />`)}</ol>
    <${ComplicationLegend} row=${chase.row} />
    ${chase.distances.length ? html`<p class="distances">${t("Distances in cards:")} ${chase.distances.map((d) =>
      html`<span class="dist">${byId[d.a].name} ↔ ${byId[d.b].name}: <b>${d.cards}</b></span> `)}</p>` : null}
    ${gone.length ? html`<p class="hint">${gone.map((p) => html`<span class="gone">${p.name} — ${p.status === "escaped" ? t("escaped") : t("out of action")}</span> `)}</p>` : null}
    <${Pending} chase=${chase} gm=${gm} cmd=${cmd} />
    <${ErrorLine} text=${cmd.error} />
    ${gm && running ? html`<div class="card controls" data-testid="gm-chase-controls">
      <div class="acts">
        ${encounter && encounter.round ? endTurn(t("Next")) : null}
        <${Btn} name="chase-round" label=${t("New round")} busy=${cmd.busy} onClick=${() => cmd.send("round")} />
        <${Btn} name="chase-turn" label=${t("Start the chase turn of the acting fighter")} busy=${cmd.busy} onClick=${() => cmd.send("turn")} />
        <${Btn} name="chase-undo" label=${t("Undo")} busy=${cmd.busy} onClick=${() => cmd.send("undo")} />
      </div>
      ${selected ? html`<h3>${selected.name}</h3><${Moves} chase=${chase} p=${selected} cmd=${cmd} gm=${true} />`
        : html`<p class="hint">${t("Tap a token to move it.")}</p>`}
      <${AddForm} chase=${chase} encounter=${encounter} cmd=${cmd} />
    </div>` : null}
    ${gm && game.active ? html`<${Btn} name="chase-end" kind="danger" label=${t("End the chase")} busy=${cmd.busy}
      onClick=${async () => { if (await confirmAction(t("End the chase for everyone? This cannot be undone."))) cmd.send("end"); }} />` : null}
    ${!gm && own && running ? html`<div class="card controls" data-testid="player-chase-controls">
      <h3>${own.name}</h3><${Moves} chase=${chase} p=${own} cmd=${cmd} gm=${false} />
      ${actingFighter && actingFighter.mine ? html`<div class="acts">${endTurn(t("End the turn"))}</div>` : null}</div>` : null}
    <${ErrorLine} text=${fight.error} />
  </section>`;
}
