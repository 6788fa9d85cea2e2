// The initiative board: the deal as playing cards in turn order (acting highlighted, Joker and
// Hold marked, state badges, groups of Extras with their members); the GM's controls and a
// player's own actions. Loaded lazily (see index.js).
import { html, useEffect, useRef, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { t } from "../../i18n.js";
import { confirmAction, mainButton, telegramButtons } from "../../telegram.js";
import { Badges, Btn, CONDITIONS, ErrorLine, PlayingCard, conditionName, useCommand } from "./cards.js";
import { ActionPanel, EncounterLog, StatusEditor } from "./actions.js";

function locate(enc, id) {
  for (const c of enc.combatants) {
    if (c.id === id) return { c, m: c.members.length === 1 ? c.members[0] : null };
    const m = c.members.find((x) => x.id === id);
    if (m) return { c, m };
  }
  return null;
}

function Member({ m, selected, onSelect }) {
  return html`<li class=${(m.out ? "out " : "") + (selected ? "selected" : "")}>
    <button type="button" class="member" aria-pressed=${selected} onClick=${() => onSelect(m.id)}>
      <span class="member-name">${m.name}</span><${Badges} m=${m} /></button></li>`;
}

function Row({ c, sel, onSelect, editor }) {
  const item = useRef(null);
  // the GM's editor opens under the tapped fighter, brought into view (it may reach below)
  useEffect(() => { if (editor && item.current) item.current.scrollIntoView({ block: "nearest" }); }, [!!editor]);
  const cls = ["fighter", c.acting && "acting", c.hold && "hold", (c.acted || !c.in_fight) && "done",
    sel === c.id && "selected", c.mine && "mine"].filter(Boolean).join(" ");
  const single = c.members.length === 1 ? c.members[0] : null;
  return html`<li class=${cls} data-combatant=${c.id} ref=${item}>
    <button type="button" class="fighter-main" aria-pressed=${sel === c.id} onClick=${() => onSelect(c.id)}>
      <${PlayingCard} card=${c.card} />
      <span class="fighter-body">
        <span class=${"fighter-name" + (single && single.out ? " struck" : "")}>${c.name}</span>
        <span class="marks">
          ${c.acting ? html`<span class="chip chip-acting">${t("Acting")}</span>` : null}
          ${c.joker ? html`<span class="chip chip-joker">${t("Joker")}</span>` : null}
          ${c.hold ? html`<span class="chip chip-hold">${t("On Hold")}</span>` : null}
          ${c.mine ? html`<span class="chip chip-mine">${t("yours")}</span>` : null}
        </span>
        ${single ? html`<${Badges} m=${single} />` : null}
      </span>
    </button>
    ${single ? null : html`<ul class="members">${c.members.map((m) =>
      html`<${Member} key=${m.id} m=${m} selected=${sel === m.id} onSelect=${onSelect} />`)}</ul>`}
    ${editor ? html`<div class="fighter-editor" data-testid="fighter-editor">${editor}</div>` : null}
  </li>`;
}

function Pending({ enc, gm, cmd }) {
  const p = enc.pending;
  if (!p) return null;
  const found = locate(enc, p.character);
  const who = found && (found.m || found.c.members[0]);
  const can = gm || (who && who.mine);
  return html`<div class="card pending" role="status">
    <p>${t("{name}: Wounds waiting: {count}. Soak with a benny or take them.", { name: who ? who.name : p.character, count: p.wounds })}</p>
    ${can ? html`<div class="acts">
      <${Btn} name="soak" label=${t("Soak (benny)")} busy=${cmd.busy} onClick=${() => cmd.send("soak", { actor: p.character })} />
      <${Btn} name="take" label=${t("Take it")} busy=${cmd.busy} onClick=${() => cmd.send("take", { actor: p.character })} />
    </div>` : null}
  </div>`;
}

function TurnActions({ enc, target, cmd, gm }) {
  const { c, m } = target;
  const actor = c.id;
  const shaken = m && m.shaken && m.wild;
  return html`<div class="acts">
    ${shaken ? html`<${Btn} name="unshake" kind="primary-act" label=${t("Unshake (benny)")} busy=${cmd.busy} onClick=${() => cmd.send("unshake", { actor: m.id })} />` : null}
    ${c.acting && !gm && c.mine && !telegramButtons ? html`<${Btn} name="next" kind=${shaken ? "" : "primary-act"} label=${t("End the turn")} busy=${cmd.busy} onClick=${() => cmd.send("next")} />` : null}
    <${Btn} name="hold" label=${t("Hold")} busy=${cmd.busy} onClick=${() => cmd.send("hold", { actor })} />
    <${Btn} name="act" label=${t("Act now")} busy=${cmd.busy} onClick=${() => cmd.send("act", { actor })} />
    <${Btn} name="interrupt" label=${t("Interrupt")} busy=${cmd.busy} onClick=${() => cmd.send("interrupt", { actor })} />
  </div>`;
}

function GmTarget({ target, cmd }) {
  const [amount, setAmount] = useState("");
  const [kind, setKind] = useState(CONDITIONS[0]);
  const { c, m } = target;
  const id = m ? m.id : c.id;
  return html`<div class="gm-target">
    ${m ? html`<div class="row">
      <label class="field"><span>${t("Damage")}</span>
        <input name="damage" type="number" inputmode="numeric" min="0" max="200" value=${amount}
          onInput=${(e) => setAmount(e.currentTarget.value)} /></label>
      <${Btn} name="damage" label=${t("Apply damage")} busy=${cmd.busy}
        onClick=${() => amount !== "" && cmd.send("damage", { target: id, amount: Number(amount) }).then((ok) => ok && setAmount(""))} />
    </div>
    <div class="row">
      <label class="field"><span>${t("Condition")}</span>
        <select name="condition" value=${kind} onChange=${(e) => setKind(e.currentTarget.value)}>
          ${CONDITIONS.map((k) => html`<option value=${k}>${conditionName(k)}</option>`)}</select></label>
      <${Btn} name="condition" label=${t("Add")} busy=${cmd.busy} onClick=${() => cmd.send("condition", { target: id, kind })} />
      <${Btn} name="clear" label=${t("Remove")} busy=${cmd.busy} onClick=${() => cmd.send("condition", { target: id, kind, clear: true })} />
    </div>
    <${StatusEditor} key=${m.id} m=${m} cmd=${cmd} />
    <div class="acts">
      <${Btn} name="benny" label=${t("+1 benny")} busy=${cmd.busy} onClick=${() => cmd.send("benny", { actor: id })} />
      <${Btn} name="fatigue" label=${t("+1 Fatigue")} busy=${cmd.busy} onClick=${() => cmd.send("fatigue", { target: id, delta: 1 })} />
      <${Btn} name="rest" label=${t("−1 Fatigue")} busy=${cmd.busy} onClick=${() => cmd.send("fatigue", { target: id, delta: -1 })} />
    </div>` : null}
    <${Btn} name="remove" kind="danger" label=${t("Remove from the fight")} busy=${cmd.busy} onClick=${() => cmd.send("remove", { id: c.id })} />
  </div>`;
}

function AddForm({ game, cmd }) {
  const [library, setLibrary] = useState(null);
  const [name, setName] = useState("");
  const [count, setCount] = useState("");
  useEffect(() => {
    request("GET", `/api/games/${encodeURIComponent(game.token)}/characters`)
      .then((d) => { setLibrary(d.characters); if (d.characters.length) setName(d.characters[0].name); },
        () => setLibrary([]));
  }, [game.token]);
  if (!library) return null;
  if (!library.length) return html`<p class="hint">${t("The library is empty: save characters in the chat or in the Characters tab.")}</p>`;
  return html`<div class="row add">
    <label class="field"><span>${t("Character or template")}</span>
      <select name="library" value=${name} onChange=${(e) => setName(e.currentTarget.value)}>
        ${library.map((c) => html`<option value=${c.name}>${c.name}${c.count > 1 ? ` ×${c.count}` : ""}</option>`)}</select></label>
    <label class="field narrow"><span>${t("How many")}</span>
      <input name="count" type="number" inputmode="numeric" min="1" max="30" placeholder="1"
        value=${count} onInput=${(e) => setCount(e.currentTarget.value)} /></label>
    <${Btn} name="add" label=${t("Add")} busy=${cmd.busy}
      onClick=${() => cmd.send("add", count ? { name, count: Number(count) } : { name })} />
  </div>`;
}

export function InitiativeBoard({ game, encounter: enc, onScene, active }) {
  const [sel, setSel] = useState(null);
  const cmd = useCommand(game, "encounter", enc, onScene);
  const gm = game.role === "gm";
  const nextLabel = enc && enc.round ? t("Next") : t("Deal");
  // Telegram's MainButton: the GM's «Начать бой», «Раздать»/«Дальше», the acting player's
  // «Закончить ход»
  const myTurn = !gm && enc && enc.combatants.some((c) => c.mine && c.acting);
  const primary = !active || !game.active ? null : !enc ? (gm ? t("Start a fight") : null)
    : gm ? nextLabel : myTurn ? t("End the turn") : null;
  const next = useRef(null);
  next.current = () => cmd.send(enc ? "next" : "start"); // with the latest render's state
  useEffect(() => (primary ? mainButton(primary, () => next.current()) : undefined), [primary, enc && enc.seq]);

  if (!enc) {
    return html`<section class="board" data-board="initiative">
      <p class="card hint">${t("No fight is running.")}</p>
      ${gm && game.active && !telegramButtons ? html`<${Btn} name="start" kind="primary-act" label=${t("Start a fight")} busy=${cmd.busy} onClick=${() => cmd.send("start")} />` : null}
      <${ErrorLine} text=${cmd.error} />
    </section>`;
  }
  const target = sel ? locate(enc, sel) : null;
  const mine = enc.combatants.filter((c) => c.mine);
  const own = target && target.c.mine ? target : (!gm && mine.length ? { c: mine[0], m: mine[0].members.length === 1 ? mine[0].members[0] : null } : null);
  const choose = (id) => setSel(id === sel ? null : id);
  // the GM's tools for the tapped fighter, opened in place under it
  const editor = gm && target && game.active ? html`<h3>${target.m ? target.m.name : target.c.name}</h3>
    <${TurnActions} enc=${enc} target=${target} cmd=${cmd} gm=${true} />
    <details class="fold" open><summary>${t("Damage, conditions, bennies")}</summary>
      <${GmTarget} target=${target} cmd=${cmd} /></details>` : null;
  // One order for the GM and the player: what to do now, the action, the fighters, the log,
  // then the GM's rarer controls.
  return html`<section class="board" data-board="initiative">
    <div class="board-head">
      <h2>${enc.round ? t("Round {round}", { round: enc.round }) : t("Cards not dealt yet")}</h2>
      <span class="meta">${t("Deck: {count}", { count: enc.deck.reshuffle ? enc.deck.draw + enc.deck.discard : enc.deck.draw })}</span>
    </div>
    <${Pending} enc=${enc} gm=${gm} cmd=${cmd} />
    ${!gm && own && game.active ? html`<div class="card controls now" data-testid="player-controls">
      <h3>${own.m ? own.m.name : own.c.name}</h3>
      <${TurnActions} enc=${enc} target=${own} cmd=${cmd} gm=${false} />
    </div>` : null}
    ${game.active && game.role !== "spectator" ? html`<${ActionPanel} enc=${enc} cmd=${cmd} gm=${gm} selected=${sel} />` : null}
    ${enc.combatants.length === 0 ? html`<p class="card hint">${t("Nobody in the fight yet.")}</p>`
      : gm && game.active && !target ? html`<p class="hint">${t("Tap a fighter to act for it.")}</p>` : null}
    <ol class="order">${enc.combatants.map((c) => html`<${Row} key=${c.id} c=${c} sel=${sel} onSelect=${choose}
      editor=${target && target.c.id === c.id ? editor : null} />`)}</ol>
    <${EncounterLog} log=${enc.log} />
    ${gm && game.active ? html`<div class="card controls" data-testid="gm-controls">
      <div class="acts">
        ${telegramButtons ? null /* Telegram's MainButton (above) carries it */
          : html`<${Btn} name="next" kind="primary-act" label=${nextLabel} busy=${cmd.busy} onClick=${() => cmd.send("next")} />`}
        <${Btn} name="deal" label=${t("New round")} busy=${cmd.busy} onClick=${() => cmd.send("deal")} />
        <${Btn} name="undo" label=${t("Undo")} busy=${cmd.busy} onClick=${() => cmd.send("undo")} />
      </div>
      <details class="fold" open=${!enc.round}><summary>${t("Add to the fight")}</summary>
        <${AddForm} game=${game} cmd=${cmd} /></details>
      <${Btn} name="end" kind="danger" label=${t("End the fight")} busy=${cmd.busy}
        onClick=${async () => { if (await confirmAction(t("End the fight for everyone? This cannot be undone."))) cmd.send("end"); }} />
    </div>` : null}
    <${ErrorLine} text=${cmd.error} />
  </section>`;
}
