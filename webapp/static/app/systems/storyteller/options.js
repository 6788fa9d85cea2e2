// The GM's settings of a Storyteller game (the chat's /options): the readings and the weapon
// and armor tables. Every new fight starts with them; a running fight keeps its own copy.
import { html, useEffect, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { errorText, t } from "../../i18n.js";

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
];
const FLAGS = [
  ["gm_review", () => t("The GM reviews each attack")],
  ["hide_npcs", () => t("NPCs hidden from the players")],
  ["armor_soaks_destroying_attack", () => t("Armor soaks the blow that destroys it")],
];

export function GameOptions({ game, options, onSaved }) {
  const [form, setForm] = useState(options);
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  useEffect(() => { setForm(options); }, [options]);
  const set = (key, value) => setForm({ ...form, [key]: value });

  async function save() {
    setError(""); setNote("");
    try {
      await request("POST", `/api/games/${encodeURIComponent(game.token)}/st_fight`, { command: "options", ...form });
      setNote(t("Saved for the fights to come."));
      onSaved();
    } catch (e) { setError(errorText(e)); }
  }
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
    <div class="acts"><button type="button" class="act primary-act" data-command="options" onClick=${save}>
      ${t("Save")}</button></div>
    ${note ? html`<p class="hint" role="status">${note}</p>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </section>`;
}
