// The GM's settings of a Storyteller game (the chat's /options): the readings, the weapon and
// armor tables, the healing times and the aimed attacks' targets (each of the last two back to
// its default by a button). Every new fight starts with them; a running fight keeps its own.
import { html, useEffect, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { errorText, t } from "../../i18n.js";
import { confirmClosing } from "../../telegram.js";

const READINGS = [
  ["harder", () => t("The attribute alone, harder")],
  ["attribute_only", () => t("The attribute alone, the same difficulty")],
  ["impossible", () => t("Impossible")],
];
const NUMBERS = [
  ["max_actions", 1, () => t("Actions a turn at most")],
  ["flank_dice", 0, () => t("Dice for a flank attack")],
  ["rear_dice", 0, () => t("Dice for an attack from the rear")],
  ["blind_difficulty", 0, () => t("Difficulty added when blind")],
  ["defense_seconds", 0, () => t("Seconds a player has to choose a defense (0: the GM sets it)")],
];
const FLAGS = [
  ["gm_review", () => t("The GM reviews each attack")],
  ["hide_npcs", () => t("NPCs hidden from the players")],
  ["armor_soaks_destroying_attack", () => t("Armor soaks the blow that destroys it")],
  ["initiative_once", () => t("Initiative die rolled once, at the start of the fight")],
  ["ones_cancel_damage", () => t("1s cancel successes on damage and soak rolls")],
  ["all_extra_damage", () => t("Every success left after the defense adds a damage die")],
  ["simultaneous_ties", () => t("Equal initiative acts at the same time")],
  ["defense_by_default", () => t("When the time runs out, the largest defense pool is used")],
];

const TYPES = [ // the column's short label, the type's name for screen readers
  ["bashing", () => t("bashing, short"), () => t("bashing")],
  ["lethal", () => t("lethal, short"), () => t("lethal")],
  ["aggravated", () => t("aggravated, short"), () => t("aggravated")],
];

// one row per health level, one time per damage type («3д»: the server reads and checks it)
function HealingTable({ form, setCell, onReset }) {
  return html`<fieldset class="st-table" data-testid="st-healing">
    <legend>${t("Healing times")}</legend>
    <p class="hint">${t("The time one level takes to heal, by damage type: bashing, lethal, aggravated. Write 12ч, 3д, 2нед or 1мес.")}</p>
    <div class="st-grid st-heal" role="table"><div class="st-row" role="row">
      <span></span>${TYPES.map(([, label]) => html`<span class="st-col" role="columnheader">${label()}</span>`)}</div>
    ${form.levels.map((level) => html`<div class="st-row" role="row">
      <span class="st-level">${level.name}</span>
      ${TYPES.map(([type, , name]) => html`<input type="text" name=${`healing.${type}.${level.code}`}
        aria-label=${`${level.name}, ${name()}`} value=${(form.healing[type] || {})[level.code] || ""}
        onInput=${(e) => setCell(type, level.code, e.currentTarget.value)} />`)}</div>`)}</div>
    ${form.healing_default ? null : html`<button type="button" class="act" data-command="reset-healing"
      onClick=${onReset}>${t("Back to the defaults")}</button>`}
  </fieldset>`;
}

// the seed's «Прицеливание»: what each target adds to the difficulty and to the damage
function AimTable({ form, setRow, onReset }) {
  return html`<fieldset class="st-table" data-testid="st-aim">
    <legend>${t("Aimed attacks")}</legend>
    <p class="hint">${t("Difficulty added (1 to 10) and damage dice (0 to 10); an aimed attack ignores armor.")}</p>
    <div class="st-grid st-aim" role="table"><div class="st-row" role="row"><span></span>
      <span class="st-col" role="columnheader">${t("Difficulty +")}</span>
      <span class="st-col" role="columnheader">${t("Damage +")}</span></div>
    ${form.aim_targets.map((row, i) => html`<div class="st-row" role="row">
      <span class="st-level">${row.name}</span>
      <input type="number" name=${`aim.${row.code}.difficulty`} min="1" max="10" value=${row.difficulty}
        aria-label=${`${row.name}, ${t("Difficulty +")}`}
        onInput=${(e) => setRow(i, "difficulty", Number(e.currentTarget.value))} />
      <input type="number" name=${`aim.${row.code}.damage`} min="0" max="10" value=${row.damage}
        aria-label=${`${row.name}, ${t("Damage +")}`}
        onInput=${(e) => setRow(i, "damage", Number(e.currentTarget.value))} /></div>`)}</div>
    ${form.aim_default ? null : html`<button type="button" class="act" data-command="reset-aim"
      onClick=${onReset}>${t("Back to the seed's table")}</button>`}
  </fieldset>`;
}

export function GameOptions({ game, options, onSaved }) {
  const [form, setForm] = useState(options);
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  useEffect(() => { setForm(options); }, [options]);
  const unsaved = JSON.stringify(form) !== JSON.stringify(options);
  useEffect(() => (unsaved ? confirmClosing() : undefined), [unsaved]); // Telegram asks first
  const set = (key, value) => setForm({ ...form, [key]: value });
  const setCell = (type, level, value) =>
    set("healing", { ...form.healing, [type]: { ...form.healing[type], [level]: value } });
  const setRow = (i, key, value) =>
    set("aim_targets", form.aim_targets.map((row, j) => (j === i ? { ...row, [key]: value } : row)));

  async function post(body, done) {
    setError(""); setNote("");
    try {
      await request("POST", `/api/games/${encodeURIComponent(game.token)}/st_fight`, { command: "options", ...body });
      setNote(done);
      onSaved();
    } catch (e) { setError(errorText(e)); }
  }
  const save = () => post(form, t("Saved for the fights to come."));
  // a table back to its default (the other fields as saved: the form is read again)
  const reset = (table) => post({ reset: table }, t("Back to the defaults."));
  return html`<section class="card st-options" data-testid="st-options">
    <h3>${t("Game options")}</h3>
    <p class="hint">${t("Each new fight starts with them; a running fight keeps its own.")}</p>
    <label class="field"><span>${t("Without the ability")}</span>
      <select name="missing_ability" value=${form.missing_ability}
        onChange=${(e) => set("missing_ability", e.currentTarget.value)}>
        ${READINGS.map(([code, label]) => html`<option value=${code}>${label()}</option>`)}</select></label>
    <label class="field"><span>${t("Difficulty added without the ability")}</span>
      <input type="number" name="missing_ability_step" min="0" max="5" value=${form.missing_ability_step}
        onInput=${(e) => set("missing_ability_step", Number(e.currentTarget.value))} /></label>
    ${NUMBERS.map(([key, min, label]) => html`<label class="field"><span>${label()}</span>
      <input type="number" name=${key} min=${min} max="5" value=${form[key]}
        onInput=${(e) => set(key, Number(e.currentTarget.value))} /></label>`)}
    ${FLAGS.map(([key, label]) => html`<label class="switch"><input type="checkbox" role="switch" name=${key}
      checked=${form[key]} onChange=${(e) => set(key, e.currentTarget.checked)} />
      <span class="track" aria-hidden="true"></span><span>${label()}</span></label>`)}
    <label class="field"><span>${t("Weapons (one a line: Name (damage, type, difficulty N, ability))")}</span>
      <textarea name="weapons" rows="6" value=${form.weapons}
        onInput=${(e) => set("weapons", e.currentTarget.value)}></textarea></label>
    <label class="field"><span>${t("Armor (one a line: Name N, штраф M)")}</span>
      <textarea name="armor" rows="4" value=${form.armor}
        onInput=${(e) => set("armor", e.currentTarget.value)}></textarea></label>
    <${HealingTable} form=${form} setCell=${setCell} onReset=${() => reset("healing")} />
    <${AimTable} form=${form} setRow=${setRow} onReset=${() => reset("aim_targets")} />
    <div class="acts"><button type="button" class="act" data-command="options" onClick=${save}>
      ${t("Save the options")}</button></div>
    ${note ? html`<p class="hint" role="status">${note}</p>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </section>`;
}
