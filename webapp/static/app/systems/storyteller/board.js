// The Storyteller initiative board: the order with its ties (fighters acting at the same time
// grouped), the delayed / yielded / acted marks, each visible health track and Willpower, the
// latest attack's steps, the GM's proposal with its controls, and the fighters' actions.
import { html, useEffect, useRef, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { errorText, t } from "../../i18n.js";
import { confirmAction, haptic, mainButton, telegramButtons } from "../../telegram.js";

const MARKS = { bashing: "／", lethal: "✕", aggravated: "✱" };

function useCommand(game, fight, onScene) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function send(command, args) {
    if (busy) return false;
    setBusy(true);
    setError("");
    haptic("tap");
    const body = { command, ...(args || {}), seq: fight ? fight.seq : 0, stream: fight ? fight.stream : "" };
    try {
      const data = await request("POST", `/api/games/${encodeURIComponent(game.token)}/st_fight`, body);
      haptic("success");
      onScene(data.st_fight);
      return true;
    } catch (e) {
      haptic("error");
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { send, busy, error };
}

function Btn({ label, onClick, busy, kind, name }) {
  return html`<button type="button" class=${"act " + (kind || "")} disabled=${busy}
    data-command=${name} onClick=${onClick}>${label}</button>`;
}

const markLabel = (mark) => ({
  up: t("acts now"), acted: t("acted"), delayed: t("delayed"), yielded: t("yielded"),
  gave_up: t("gave up the action"), waiting: "",
}[mark] || "");

function Track({ f }) {
  if (!f.health) return null;
  const boxes = [];
  for (let i = 0; i < f.levels; i += 1) boxes.push(f.health[i] || "");
  return html`<span class="st-track" aria-label=${t("Health")}>${boxes.map((m) =>
    html`<span class=${"st-box " + (m || "empty")}>${MARKS[m] || ""}</span>`)}</span>`;
}

function Fighter({ f }) {
  const cls = ["st-fighter", "mark-" + f.mark, f.out && "out"].filter(Boolean).join(" ");
  const label = markLabel(f.mark);
  return html`<li class=${cls} data-fighter=${f.id}>
    <div class="st-line">
      <span class="st-name">${f.name}</span>
      ${f.initiative != null ? html`<span class="st-init" title=${t("Initiative")}>${f.initiative}</span>` : null}
    </div>
    <div class="st-line st-meta">
      ${label ? html`<span class=${"chip st-mark " + f.mark}>${label}</span>` : null}
      ${f.full_defense ? html`<span class="chip">${t("full defense")}</span>` : null}
      ${f.dead ? html`<span class="chip chip-bad">${t("dead")}</span>` : f.out ? html`<span class="chip chip-bad">${t("Incapacitated")}</span>` : null}
      ${f.penalty ? html`<span class="chip">${t("−{count} dice", { count: f.penalty })}</span>` : null}
      ${f.willpower ? html`<span class="chip">${t("Willpower {now}/{rating}", { now: f.willpower[0], rating: f.willpower[1] })}</span>` : null}
    </div>
    <${Track} f=${f} />
  </li>`;
}

// The seed's words: «неудача» for no success, «провал» for a botch (seed 002).
const poolWord = (botch, net) =>
  botch ? t("botch") : net <= 0 ? t("failure (no successes)") : t("successes: {count}", { count: net });

function rollText(r) {
  if (!r) return "";
  if (r.hidden) return poolWord(r.outcome === "botch", r.net);
  const faces = r.dice.map((d) => d.value).join(" ");
  const outcome = poolWord(r.botch, r.net);
  return `[${faces}] ${t("difficulty {n}", { n: r.difficulty })} → ${outcome}`;
}

function Steps({ a, name }) {
  if (!a) return null;
  const rows = [[t("Attack: {attacker} → {target}", { attacker: name(a.attacker), target: name(a.target) }), rollText(a.attack)]];
  if (a.defense) rows.push([t("Defense ({kind})", { kind: defenseName(a.defense) }), rollText(a.defense_roll)]);
  rows.push([a.hit ? t("Hit") : t("Miss"), ""]);
  for (const key of ["damage", "counter"]) {
    const d = a[key];
    if (!d) continue;
    rows.push([t("Damage to {name}", { name: name(d.victim) }), rollText(d.roll)]);
    if (d.soak) rows.push([t("Soak"), rollText(d.soak)]);
    if (d.levels != null) rows.push([t("Health levels: {count} ({type})", { count: d.levels, type: damageName(d.damage_type) }), ""]);
    if (d.armor_destroyed) rows.push([t("The armor is destroyed"), ""]);
  }
  return html`<ol class="st-steps">${rows.map(([what, roll]) =>
    html`<li><span>${what}</span>${roll ? html` <span class="st-roll">${roll}</span>` : null}</li>`)}</ol>`;
}

const defenseName = (k) => ({ block: t("block"), dodge: t("dodge"), parry: t("parry"), none: t("no defense") }[k] || k);
const damageName = (k) => ({ bashing: t("bashing"), lethal: t("lethal"), aggravated: t("aggravated") }[k] || k);

// the attacked player's choice of defense, the chat's buttons: each with its pool; the
// GM may choose instead; when the time runs out, the default (marked) is made
const choiceName = (c) => {
  if (!c.kind) return t("No defense");
  const how = { roll: t("Willpower roll"), point: t("Willpower point") }[c.interrupt];
  const dice = t("{count} d.", { count: c.dice });
  const kind = defenseName(c.kind) + (c.weapon ? ` (${c.weapon})` : "");
  return [kind[0].toUpperCase() + kind.slice(1), dice, how].filter(Boolean).join(" · ");
};

function Asking({ p, cmd, name }) {
  const left = Math.max(0, Math.round(p.asking.until - Date.now() / 1000));
  return html`<div class="card st-asking" data-testid="asking" role="status">
    <h3>${t("{target} chooses a defense", { target: name(p.target) })}</h3>
    <p class="hint">${t("Attack: {attacker} → {target}. About {seconds} s left; then the marked choice is made.",
      { attacker: name(p.attacker), target: name(p.target), seconds: left })}</p>
    ${p.asking.choices.length ? html`<div class="st-choices">
      ${p.asking.choices.map((c) => html`<${Btn} key=${c.index} name=${"defend-" + c.index}
        kind=${c.default ? "primary-act" : ""} label=${(c.default ? "⏱ " : "") + choiceName(c)}
        busy=${cmd.busy} onClick=${() => cmd.send("defend", { index: c.index })} />`)}
    </div>` : null}
  </div>`;
}

function Proposal({ p, gm, cmd, name, main }) {
  if (!p) return null;
  if (p.asking) return html`<${Asking} p=${p} cmd=${cmd} name=${name} />`;
  if (!gm || !p.steps) {
    return html`<p class="card st-waiting" role="status">${t("Attack: {attacker} → {target}. The GM decides before it is shown.",
      { attacker: name(p.attacker), target: name(p.target) })}</p>`;
  }
  const defense = p.changes.defense || p.steps.defense || "none";
  return html`<div class="card st-proposal" data-testid="proposal">
    <h3>${t("Proposal (only you see it)")}</h3>
    <${Steps} a=${p.steps} name=${name} />
    <div class="acts">
      ${main.button("publish", t("Publish"), () => cmd.send("publish"))}
      <${Btn} name="drop" kind="danger" label=${t("Drop")} busy=${cmd.busy} onClick=${() => cmd.send("drop")} />
    </div>
    <div class="acts">
      <${Btn} name="harder" label=${t("Difficulty +1")} busy=${cmd.busy} onClick=${() => cmd.send("adjust", { ...keep(p), difficulty: Math.min(10, p.difficulty + 1) })} />
      <${Btn} name="easier" label=${t("Difficulty −1")} busy=${cmd.busy} onClick=${() => cmd.send("adjust", { ...keep(p), difficulty: Math.max(2, p.difficulty - 1) })} />
      <${Btn} name="more" label=${t("Dice +1")} busy=${cmd.busy} onClick=${() => cmd.send("adjust", { ...keep(p), dice: Math.min(30, p.dice + 1) })} />
      <${Btn} name="fewer" label=${t("Dice −1")} busy=${cmd.busy} onClick=${() => cmd.send("adjust", { ...keep(p), dice: Math.max(0, p.dice - 1) })} />
    </div>
    <div class="row">
      <label class="field"><span>${t("Defense")}</span>
        <select name="defense" value=${defense} onChange=${(e) => cmd.send("adjust", { ...keep(p), defense: e.currentTarget.value })}>
          ${["none", "block", "dodge", "parry"].map((k) => html`<option value=${k}>${defenseName(k)}</option>`)}</select></label>
      <label class="field"><span>${t("Damage type")}</span>
        <select name="damage_type" value=${p.changes.damage_type || ""} onChange=${(e) => cmd.send("adjust", { ...keep(p), damage_type: e.currentTarget.value })}>
          <option value="">${t("as the weapon")}</option>
          ${["bashing", "lethal", "aggravated"].map((k) => html`<option value=${k}>${damageName(k)}</option>`)}</select></label>
    </div>
  </div>`;
}

// the GM's earlier changes, kept when one more is made (each adjustment replaces them all)
function keep(p) {
  const c = p.changes;
  const out = {};
  if (c.difficulty != null) out.difficulty = c.difficulty;
  if (c.dice != null) out.dice = c.dice;
  if (c.defense) out.defense = c.defense;
  if (c.damage_type) out.damage_type = c.damage_type;
  return out;
}

// The fighters this viewer acts for (the GM: everyone standing) and the one acting now: the
// chosen one, else the first whose turn it is.
function actingFighter(fight, gm, actor) {
  const mine = fight.fighters.filter((f) => !f.out && (gm ? true : f.sheet));
  const me = mine.find((f) => f.id === actor) || mine.find((f) => fight.up.includes(f.id)) || mine[0];
  return { mine, me };
}

function Actions({ fight, cmd, gm, actor, setActor, main }) {
  const { mine, me } = actingFighter(fight, gm, actor);
  const [target, setTarget] = useState("");
  const [defense, setDefense] = useState("");
  const [weapon, setWeapon] = useState("");
  const others = me ? fight.fighters.filter((f) => f.id !== me.id && !f.dead) : [];
  const goal = target || (others[0] && others[0].id) || "";
  const attack = () => goal && cmd.send("attack", { actor: me.id, target: goal, weapon, defense });
  // on the MainButton it names who attacks whom (Telegram's limit is 64 characters)
  const named = me && goal ? t("Attack: {attacker} → {target}", { attacker: me.name, target: (others.find((f) => f.id === goal) || {}).name }) : "";
  useMain(main.primary === "attack" ? (named.length <= 64 ? named : t("Attack")) : "", attack);
  if (!mine.length) return null;
  const weapons = (me.sheet && me.sheet.weapons) || [];
  return html`<div class="card controls" data-testid="actions">
    <label class="field"><span>${t("Who acts")}</span>
      <select name="actor" value=${me.id} onChange=${(e) => setActor(e.currentTarget.value)}>
        ${mine.map((f) => html`<option value=${f.id}>${f.name}</option>`)}</select></label>
    <div class="acts">
      <${Btn} name="delay" label=${t("Delay")} busy=${cmd.busy} onClick=${() => cmd.send("delay", { actor: me.id })} />
      <${Btn} name="yield" label=${t("Yield the turn")} busy=${cmd.busy} onClick=${() => cmd.send("yield", { actor: me.id })} />
      <${Btn} name="full_defense" label=${t("Full defense")} busy=${cmd.busy} onClick=${() => cmd.send("full_defense", { actor: me.id })} />
      <${Btn} name="done" label=${t("Turn done")} busy=${cmd.busy} onClick=${() => cmd.send("done", { actor: me.id })} />
    </div>
    <div class="row">
      <label class="field"><span>${t("Target")}</span>
        <select name="target" value=${goal} onChange=${(e) => setTarget(e.currentTarget.value)}>
          ${others.map((f) => html`<option value=${f.id}>${f.name}</option>`)}</select></label>
      <label class="field"><span>${t("Weapon")}</span>
        <select name="weapon" value=${weapon} onChange=${(e) => setWeapon(e.currentTarget.value)}>
          <option value="">${t("the first one")}</option>
          <option value="Кулак">${t("fist")}</option>
          ${weapons.map((w) => html`<option value=${w}>${w}</option>`)}</select></label>
      <label class="field"><span>${t("Their defense")}</span>
        <select name="attack_defense" value=${defense} onChange=${(e) => setDefense(e.currentTarget.value)}>
          <option value="">${t("no defense")}</option>
          ${["block", "dodge", "parry"].map((k) => html`<option value=${k}>${defenseName(k)}</option>`)}</select></label>
    </div>
    ${main.button("attack", t("Attack"), attack)}
  </div>`;
}

// Telegram's MainButton carries `text` (none: hidden) and runs the latest render's `action`.
function useMain(text, action) {
  const latest = useRef(action);
  latest.current = action;
  useEffect(() => (telegramButtons && text ? mainButton(text, () => latest.current()) : undefined), [text]);
}

// The screen's one primary action at this moment of the fight, for this viewer: the GM starts
// a fight, rolls the initiative (before the first turn, and once nobody is left to act),
// publishes an attack under review; whoever acts for the fighter whose turn it is attacks.
// While a defense is chosen, or the GM decides, nothing is primary.
function primaryAction(game, fight, actor) {
  const gm = game.role === "gm";
  if (!game.active || game.role === "spectator") return null;
  if (!fight) return gm ? "start" : null;
  if (fight.closed) return null;
  const p = fight.proposal;
  if (p) return gm && !p.asking && p.steps ? "publish" : null;
  if (!fight.round) return gm && fight.fighters.length ? "initiative" : null;
  const { me } = actingFighter(fight, gm, actor);
  if (me && fight.up.includes(me.id)) return "attack";
  return gm && !fight.up.length ? "initiative" : null;
}

// The one primary action: Telegram's MainButton inside Telegram (no button of its own on the
// page), the page's one primary-styled button outside it; every other command is plain.
function usePrimary(game, fight, actor, cmd) {
  const primary = primaryAction(game, fight, actor);
  const texts = { start: t("Start a fight"), initiative: t("Roll initiative"), publish: t("Publish") };
  const commands = { start: "start", initiative: "initiative", publish: "publish" };
  useMain(texts[primary] || "", () => cmd.send(commands[primary]));
  const button = (name, label, onClick) => (primary === name && telegramButtons ? null
    : html`<${Btn} name=${name} kind=${primary === name ? "primary-act" : ""} label=${label} busy=${cmd.busy} onClick=${onClick} />`);
  return { primary, button };
}

export function FightBoard({ game, fight, onScene }) {
  const cmd = useCommand(game, fight, onScene);
  const [actor, setActor] = useState("");
  const [adding, setAdding] = useState("");
  const gm = game.role === "gm";
  const main = usePrimary(game, fight, actor, cmd);
  if (!fight) {
    return html`<section class="board" data-board="st-initiative">
      <p class="card hint">${t("No fight is running.")}</p>
      ${gm && game.active ? main.button("start", t("Start a fight"), () => cmd.send("start")) : null}
      ${cmd.error ? html`<p class="error" role="alert">${cmd.error}</p>` : null}
    </section>`;
  }
  const byId = Object.fromEntries(fight.fighters.map((f) => [f.id, f]));
  const name = (id) => (byId[id] ? byId[id].name : id);
  const undone = fight.undone_attacks || [];  // taken back since the last attack: kept, struck
  const placed = new Set(fight.groups.flat());
  const rest = fight.fighters.filter((f) => !placed.has(f.id));
  return html`<section class="board" data-board="st-initiative">
    <div class="board-head">
      <h2>${fight.round ? t("Turn {round}", { round: fight.round }) : t("Before initiative")}</h2>
    </div>
    ${fight.fighters.length === 0 ? html`<p class="card hint">${t("Nobody in the fight yet.")}</p>` : null}
    <ol class="st-order">
      ${fight.groups.map((g) => g.length > 1
        ? html`<li class="st-tie"><span class="st-tie-label">${t("at the same time")}</span>
            <ol>${g.map((id) => html`<${Fighter} key=${id} f=${byId[id]} />`)}</ol></li>`
        : html`<${Fighter} key=${g[0]} f=${byId[g[0]]} />`)}
      ${rest.map((f) => html`<${Fighter} key=${f.id} f=${f} />`)}
    </ol>
    <${Proposal} p=${fight.proposal} gm=${gm} cmd=${cmd} name=${name} main=${main} />
    ${fight.attack || undone.length ? html`<div class="card st-last"><h3>${t("The last attack")}</h3>
      ${undone.map((a) => html`<div class="st-undone" data-testid="undone-attack"><${Steps} a=${a} name=${name} />
        <p class="st-undone-mark">${t("undone by the GM")}</p></div>`)}
      <${Steps} a=${fight.attack} name=${name} /></div>` : null}
    ${game.active && game.role !== "spectator" && fight.round ? html`<${Actions} fight=${fight} cmd=${cmd} gm=${gm} actor=${actor} setActor=${setActor} main=${main} />` : null}
    ${cmd.error ? html`<p class="error" role="alert">${cmd.error}</p>` : null}
    ${gm && game.active ? html`<div class="card controls" data-testid="gm-controls">
      ${fight.options_changed ? html`<p class="hint" data-testid="options-changed">${t("The game's options have changed: they apply from the next fight.")}</p>` : null}
      <div class="acts">
        ${main.button("initiative", t("Roll initiative"), () => cmd.send("initiative"))}
        <${Btn} name="undo" label=${t("Undo")} busy=${cmd.busy} onClick=${() => cmd.send("undo")} />
      </div>
      <div class="row">
        <label class="field"><span>${t("Add by name")}</span>
          <input name="add" type="text" maxlength="255" value=${adding} onInput=${(e) => setAdding(e.currentTarget.value)} /></label>
        <${Btn} name="add" label=${t("Add")} busy=${cmd.busy} onClick=${() => adding.trim() && cmd.send("add", { name: adding.trim() }).then((ok) => ok && setAdding(""))} />
      </div>
      <${Btn} name="end" kind="danger" label=${t("End the fight")} busy=${cmd.busy}
        onClick=${async () => { if (await confirmAction(t("End the fight for everyone? This cannot be undone."))) cmd.send("end"); }} />
    </div>` : null}
  </section>`;
}
