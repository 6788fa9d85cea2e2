// Actions on a turn from the initiative board (seed 000 «Действия в ход»): the action panel
// (action → who acts → target from the board → skill, damage, options → one button), the
// board's public log of the latest steps, and the GM's status editor. Same commands as the
// chat's /attack, /check, /support, /test, /defend, /aim, /escape (webapp/systems/savage/commands.py).
import { html, useEffect, useRef, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { describe, plainParam, rememberNames, t } from "../../i18n.js";
import { confirmClosing } from "../../telegram.js";
import { Btn, conditionName } from "./cards.js";

const signed = (n) => (n < 0 ? `−${-n}` : `+${n}`);
const ATTRS = ["agility", "smarts", "spirit", "strength", "vigor"];
const CORE = ["athletics", "notice", "stealth", "persuasion", "common_knowledge"];
const TESTS = ["taunt", "intimidation", "fighting", "athletics", "notice"];

const traitName = (code) => ({
  agility: t("Agility"), smarts: t("Smarts"), spirit: t("Spirit"), strength: t("Strength"), vigor: t("Vigor"),
  fighting: t("Fighting"), shooting: t("Shooting"), athletics: t("Athletics"), notice: t("Notice"),
  intimidation: t("Intimidation"), taunt: t("Taunt"), stealth: t("Stealth"), persuasion: t("Persuasion"),
  healing: t("Healing"), spellcasting: t("Kido"), common_knowledge: t("Common Knowledge"),
}[code] || code.replace(/_/g, " "));

const modName = (label) => ({
  joker: t("Joker"), wounds: t("wounds"), fatigue: t("fatigue"), distracted: t("Distracted"),
  multi_action: t("multi-action"), support: t("Support"), range: t("range"), cover: t("cover"),
  illumination: t("light"), called_shot: t("called shot"), gang_up: t("Gang Up"), the_drop: t("the Drop"),
  wild_attack: t("Wild Attack"), vulnerable: t("Vulnerable"), aim: t("Aim"), aim_ignore: t("Aim ignores"),
  bound: t("Bound"), unskilled: t("unskilled"), trait_bonus: t("trait bonus"), modifier: t("modifier"),
}[label] || label);

const outcomeName = (o, raises) => (o === "raise" && raises > 1 ? t("raise ×{count}", { count: raises }) : {
  critical_failure: t("critical failure"), failure: t("failure"), success: t("success"), raise: t("raise"),
}[o] || o);

// A trait roll of the log (its total, TN, outcome and labelled modifiers; no dice faces).
function Roll({ r }) {
  const tone = { critical_failure: "bad", failure: "meh" }[r.outcome] || "good";
  const mods = r.mods.map(([l, v]) => `${signed(v)} ${modName(l)}`).join(" ");
  return html`${mods ? html`<span class="mods">${mods}</span> ` : null}${t("{total} vs {tn}", { total: r.total, tn: r.tn })} → <strong
    class=${"total " + tone}>${outcomeName(r.outcome, r.raises)}</strong>`;
}

const damageOutcome = (r) => (r.outcome === "wounds" ? t("Wounds: {count}", { count: r.wounds })
  : r.outcome === "shaken" ? t("Shaken") : t("no effect"));

function Damage({ r }) {
  return html`${t("{total} vs Toughness {toughness}", { total: r.total, toughness: r.toughness })} → <strong
    class=${"total " + (r.outcome === "none" ? "meh" : "good")}>${damageOutcome(r)}</strong>`;
}

// The page's way with each kind of param of the encounter's descriptions (the chat has its
// own: bot/systems/savage/render/combat_events.py); the sentence is the description's.
function param(key, value, kind, names) {
  const named = (id) => names[id] || id;
  switch (kind) {
    case "strong_name": return html`<b>${named(value)}</b>`;
    case "names": return value.map(named).join(", ");
    case "strong": return html`<b>${value}</b>`;
    case "trait_roll": return html`<${Roll} r=${value} />`;
    case "trait_rolls": return value.map((r, n) => html`${n ? " / " : ""}<${Roll} r=${r} />`);
    case "damage_roll": return html`<${Damage} r=${value} />`;
    case "trait": return traitName(value);
    case "condition": return conditionName(value);
    case "signed": return signed(value);
    default: return plainParam(kind, value, named);
  }
}

const line = (i, names) => describe(i, (key, value, kind) => param(key, value, kind, names));

const stepLines = (s) => s.items.map((i) => html`<div data-kind=${i.kind} data-code=${i.code}>${line(i, s.names)}</div>`);

// The step this panel's last action made, shown under its button (the log is further down):
// scrolled into view when it arrives.
function Outcome({ step }) {
  const box = useRef(null);
  useEffect(() => { if (box.current) box.current.scrollIntoView({ block: "nearest" }); }, [step.step]);
  rememberNames(Object.entries(step.names || {}));
  return html`<div class="outcome" ref=${box} role="status" data-testid="action-result">${stepLines(step)}</div>`;
}

// The fight's dice in «Последние броски» (beside the roller's rolls): its latest steps with a
// roll, newest first, each a card with the step's roll lines.
export const ROLLED = new Set(["rolled", "rerolled", "damage_rolled"]);
const FIGHT_ROLLS = 5;

export function FightRolls({ log }) {
  const steps = [...(log || [])].reverse()
    .map((s) => ({ ...s, items: s.items.filter((i) => ROLLED.has(i.kind)) }))
    .filter((s) => s.items.length).slice(0, FIGHT_ROLLS);
  for (const s of steps) rememberNames(Object.entries(s.names || {}));
  return steps.map((s) => html`<li key=${"fight-" + s.step} class="card roll fight-roll" data-testid="fight-roll">
    <div class="roll-head"><span class="who">⚔️ ${t("Fight")}</span></div>${stepLines(s)}</li>`);
}

const LOG_SHOWN = 3; // newest steps shown; the rest on request (the panel stays near the top)

export function EncounterLog({ log }) {
  const [all, setAll] = useState(false);
  if (!log || !log.length) return null;
  for (const s of log) rememberNames(Object.entries(s.names || {}));
  const steps = [...log].reverse();
  return html`<ol class="card log" data-testid="encounter-log" aria-live="polite">
    ${(all ? steps : steps.slice(0, LOG_SHOWN)).map((s) => html`<li key=${s.step}>${stepLines(s)}</li>`)}</ol>
    ${steps.length > LOG_SHOWN ? html`<button type="button" class="link log-more" aria-expanded=${all}
      onClick=${() => setAll(!all)}>${all ? t("Only the latest steps") : t("Earlier steps")}</button>` : null}`;
}

// --- the action panel ------------------------------------------------------------------

const ACTIONS = ["attack", "trait", "support", "test", "defend", "aim", "escape", "declare", "reroll"];
const actionName = (a) => ({
  attack: t("Attack"), trait: t("Trait roll"), support: t("Support"), test: t("Test"), defend: t("Defend"),
  aim: t("Aim"), escape: t("Break free"), declare: t("Declare actions"), reroll: t("Re-roll (benny)"),
}[a]);
const TABLES = () => ({ // the engine's values (engine/savage/actions.py), seed 000 lines 92-93
  range: [["short", t("short"), 0], ["medium", t("medium"), -2], ["long", t("long"), -4], ["extreme", t("extreme"), -8]],
  cover: [["", "—", 0], ["light", t("light cover"), -2], ["medium", t("medium cover"), -4], ["heavy", t("heavy cover"), -6],
    ["near_total", t("near total cover"), -8]],
  light: [["", "—", 0], ["dim", t("dim light"), -2], ["dark", t("darkness"), -4], ["pitch", t("pitch darkness"), -6]],
  called_shot: [["", "—", 0], ["limb", t("limb"), -2], ["hand", t("hand"), -4], ["head", t("head"), -4], ["vitals", t("vitals"), -4]],
});
const table = (rows) => rows.map(([v, text, n]) => [v, n ? `${text} ${signed(n)}` : text]);

const Select = ({ name, label, value, options, set }) => html`<label class="field"><span>${label}</span>
  <select name=${name} value=${value} onChange=${(e) => set(name, e.currentTarget.value)}>
    ${options.map(([v, text]) => html`<option value=${v}>${text}</option>`)}</select></label>`;
const Num = ({ name, label, f, set, ...p }) => html`<label class="field narrow"><span>${label}</span>
  <input type="number" name=${name} inputmode="numeric" value=${f[name]} onInput=${(e) => set(name, e.currentTarget.value)} ...${p} /></label>`;
const Check = ({ name, label, value, set }) => html`<label class="check">
  <input type="checkbox" name=${name} checked=${!!value} onChange=${(e) => set(name, e.currentTarget.checked)} /> ${label}</label>`;

function traitsOf(m, skillsOnly) {
  const skills = m.sheet ? Object.keys(m.sheet.skills) : [];
  return [...new Set([...skills, ...(skillsOnly ? TESTS : [...CORE, ...ATTRS])])].map((c) => [c, traitName(c)]);
}

// may: the parts of a roll this viewer sets (the board's may_set, engine/savage/authority.py)
function bodyOf(f, target, gm, may) {  // an empty damage field: the engine's default
  const n = (k) => Math.trunc(Number(f[k])) || 0;
  const modifiers = may.modifier && n("modifier") ? [["modifier", n("modifier")]] : [];
  const melee = f.skill === "fighting";
  return {
    attack: { target, skill: f.skill, damage: f.dice || undefined, ap: n("ap"), range: f.range,
      cover: f.cover, light: may.illumination ? f.light : "", called_shot: f.called_shot, gang_up: n("gang_up"),
      the_drop: !!may.the_drop && !!f.the_drop, wild_attack: melee && !!f.wild_attack, free: gm && !!f.free, modifiers },
    trait: { trait: f.trait, tn: (may.tn && n("tn")) || 4, free: !!f.free, modifiers },
    support: { ally: target, skill: f.trait, modifiers },
    test: { target, skill: f.trait, effect: f.effect, modifiers },
    aim: { mode: f.mode }, escape: { trait: f.escape }, declare: { count: n("count") },
  }[f.action] || {};
}

const FRESH = { action: "attack", actor: "", target: "", trait: "", skill: "fighting", dice: "", ap: "", range: "short",
  cover: "", light: "", called_shot: "", gang_up: "0", modifier: "", tn: "4", effect: "distracted", mode: "bonus",
  escape: "athletics", count: "2" };
const ROLLS = ["attack", "trait", "support", "test"];

export function ActionPanel({ enc, cmd, gm, selected }) {
  const [f, setF] = useState(FRESH);
  const [after, setAfter] = useState(null); // the log's newest step when this panel last acted
  const set = (k, v) => setF((old) => ({ ...old, [k]: v }));
  useEffect(() => set("actor", ""), [selected]); // a tap on the board picks who acts
  const fighters = enc.combatants.flatMap((c) => c.members.map((m) => ({ m, c })));
  // a player acts on their own turn (the engine refuses the rest: not_your_turn)
  const mine = fighters.filter(({ m, c }) => (gm || (m.mine && c.acting)) && !m.dead && !m.out);
  if (!mine.length) {
    return !gm && fighters.some(({ m }) => m.mine)
      ? html`<p class="card hint" data-testid="action-panel-waiting">${t("Your actions appear here on your turn.")}</p>` : null;
  }
  const me = (mine.find(({ m }) => m.id === (f.actor || selected)) || mine.find(({ c }) => c.acting) || mine[0]).m;
  const targets = fighters.filter(({ m }) => m.id !== me.id && !m.dead).map(({ m }) => m);
  const ally = f.action === "support"; // players' characters against NPCs, unless Support
  const side = (x) => (x.owner == null) === (me.owner == null);
  const target = targets.find((m) => m.id === f.target) || targets.find((m) => side(m) === ally) || targets[0];
  const aimed = ROLLS.includes(f.action) && f.action !== "trait";
  const traits = traitsOf(me, aimed);
  const trait = traits.some(([c]) => c === f.trait) ? f.trait : traits[0][0];
  const melee = f.skill === "fighting";
  const tables = TABLES();
  const extra = {
    test: ["effect", t("Effect"), [["distracted", t("Distracted")], ["vulnerable", t("Vulnerable")]]],
    aim: ["mode", t("Aim"), [["bonus", "+2"], ["ignore", t("ignore up to 4 points of penalties")]]],
    escape: ["escape", t("Skill"), [["athletics", t("Athletics")], ["strength", t("Strength")]]],
    declare: ["count", t("Actions this turn"), [["1", "1"], ["2", "2 (−2)"], ["3", "3 (−4)"]]],
  }[f.action];
  const may = Object.fromEntries((enc.may_set || []).map((label) => [label, true]));
  const newest = enc.log && enc.log.length ? enc.log[enc.log.length - 1] : null;
  const shown = after !== null && newest && newest.step > after ? newest : null;
  const send = () => {
    setAfter(newest ? newest.step : -1);
    cmd.send(f.action, { actor: me.id, ...bodyOf({ ...f, trait }, target && target.id, gm, may) })
      .then((ok) => ok || setAfter(null));
  };
  return html`<section class="card actions" data-testid="action-panel">
    <h3>${t("Action")}</h3>
    <div class="row wrap">
      <${Select} name="action" label=${t("What to do")} value=${f.action} set=${set} options=${ACTIONS.map((a) => [a, actionName(a)])} />
      ${mine.length > 1 ? html`<${Select} name="actor" label=${t("Who acts")} value=${me.id} set=${set}
        options=${mine.map(({ m }) => [m.id, m.name])} />` : null}
      ${aimed && target ? html`<${Select} name="target" label=${ally ? t("Ally") : t("Target")}
        value=${target.id} set=${set} options=${targets.map((m) => [m.id, m.name])} />` : null}
      ${f.action === "attack" ? html`<${Select} name="skill" label=${t("Skill")} value=${f.skill} set=${set}
        options=${[["fighting", t("Fighting")], ["shooting", t("Shooting")], ["athletics", t("Athletics (throwing)")]]} />
        <label class="field"><span>${t("Damage")}</span><input type="text" name="damage-dice" autocomplete="off" maxlength="40"
          placeholder=${((enc.default_damage || {})[f.skill] || "").replace(/\bstr\b/i, t("Str"))} value=${f.dice} onInput=${(e) => set("dice", e.currentTarget.value)} /></label>`
      : ROLLS.includes(f.action) ? html`<${Select} name="skill" label=${t("Skill")} value=${trait}
        set=${(k, v) => set("trait", v)} options=${traits} />` : null}
      ${extra ? html`<${Select} name=${extra[0]} label=${extra[1]} value=${f[extra[0]]} set=${set} options=${extra[2]} />` : null}
    </div>
    ${ROLLS.includes(f.action) ? html`<details class="more"><summary>${t("More options")}</summary>
      <div class="row wrap">
        ${f.action === "attack" ? html`<${Num} name="ap" label=${t("AP")} f=${f} set=${set} min="0" max="50" />
          ${melee ? html`<${Select} name="gang_up" label=${t("Gang Up")} value=${f.gang_up} set=${set}
            options=${["0", "1", "2", "3", "4"].map((n) => [n, n === "0" ? "—" : `+${n}`])} />`
          : html`<${Select} name="range" label=${t("Range")} value=${f.range} set=${set} options=${table(tables.range)} />
            <${Select} name="cover" label=${t("Cover")} value=${f.cover} set=${set} options=${table(tables.cover)} />`}
          ${may.illumination ? html`<${Select} name="light" label=${t("Light")} value=${f.light} set=${set} options=${table(tables.light)} />` : null}
          <${Select} name="called_shot" label=${t("Called shot")} value=${f.called_shot} set=${set} options=${table(tables.called_shot)} />` : null}
        ${f.action === "trait" && may.tn ? html`<${Num} name="tn" label=${t("TN")} f=${f} set=${set} min="1" max="99" />` : null}
        ${may.modifier ? html`<${Num} name="modifier" label=${t("Modifier")} f=${f} set=${set} min="-10" max="10" placeholder="±0" inputmode="text" />` : null}
      </div>
      ${f.action === "attack" ? html`${may.the_drop ? html`<${Check} name="the_drop" label=${t("The Drop +4")} value=${f.the_drop} set=${set} />` : null}
        ${melee ? html`<${Check} name="wild_attack" label=${t("Wild Attack +2, then Vulnerable")} value=${f.wild_attack} set=${set} />` : null}` : null}
      ${f.action === "trait" || (gm && f.action === "attack") ? html`<${Check} name="free" label=${t("Free action (out of turn)")} value=${f.free} set=${set} />` : null}
    </details>` : null}
    <div class="acts">
      <button type="button" name="do-action" class="act primary-act" disabled=${cmd.busy || (aimed && !target)} onClick=${send}>
        ${actionName(f.action)}${aimed && target ? ` → ${target.name}` : ""}</button>
      ${me.reroll && f.action !== "reroll" ? html`<${Btn} name="reroll" label=${t("Re-roll (benny)")} busy=${cmd.busy}
        onClick=${() => cmd.send("reroll", { actor: me.id })} />` : null}
    </div>
    ${shown ? html`<${Outcome} step=${shown} />` : null}
  </section>`;
}

// --- the GM's status editor (SetStatus: a correction, DESIGN «GM is in control») ----------

const FLAGS = ["shaken", "stunned", "incapacitated", "bleeding_out", "dead"];

export function StatusEditor({ m, cmd }) {
  const [edit, setEdit] = useState({});
  const value = (k) => (k in edit ? edit[k] : m[k]);
  const set = (k, v) => setEdit((old) => ({ ...old, [k]: k === "wounds" || k === "fatigue" ? Number(v) : v }));
  const changes = Object.fromEntries(Object.entries(edit).filter(([k, v]) => v !== m[k]));
  const unsaved = Object.keys(changes).length > 0;
  useEffect(() => (unsaved ? confirmClosing() : undefined), [unsaved]); // Telegram asks first
  const names = { shaken: t("Shaken"), stunned: t("Stunned"), incapacitated: t("Incapacitated"),
    bleeding_out: t("Bleeding Out"), dead: t("dead") };
  return html`<div class="status-editor" data-testid="status-editor">
    <div class="row">
      <${Select} name="wounds" label=${t("Wounds")} value=${String(value("wounds"))} set=${set} options=${[0, 1, 2, 3].map((n) => [String(n), String(n)])} />
      <${Select} name="fatigue" label=${t("Fatigue")} value=${String(value("fatigue"))} set=${set} options=${[0, 1, 2].map((n) => [String(n), String(n)])} />
    </div>
    <div class="checks">${FLAGS.map((k) => html`<${Check} name=${k} label=${names[k]} value=${value(k)} set=${set} />`)}</div>
    <${Btn} name="status" label=${t("Save the state")} busy=${cmd.busy || !Object.keys(changes).length}
      onClick=${() => cmd.send("status", { target: m.id, changes }).then((ok) => ok && setEdit({}))} />
  </div>`;
}
