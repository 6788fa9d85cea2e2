// The Storyteller character editor: the library, a sheet as its Russian text block (checked
// before saving, with the lines it did not read), NPC templates for the GM, the JSON export.
import { html, useEffect, useRef, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { errorText, t } from "../../i18n.js";
import { confirmClosing, mainButton, telegramButtons } from "../../telegram.js";
import { GameOptions } from "./options.js";

const EXAMPLE = "Имя: Вероника Штерн\nАтрибуты: Сила 2, Ловкость 3, Выносливость 2, Обаяние 3, Манипулирование 2, Внешность 2, Восприятие 3, Интеллект 2, Сообразительность 3\nСпособности: Огнестрельное оружие 3, Уворот 2, Бдительность 2\nСила воли: 5\nОружие: Пистолет\nПоглощает летальные: нет";

export function CharacterEditor({ game }) {
  const base = `/api/games/${encodeURIComponent(game.token)}/characters`;
  const gm = game.role === "gm";
  const [library, setLibrary] = useState([]);
  const [options, setOptions] = useState(null); // the GM's only (the answer has them for the GM)
  const [sheet, setSheet] = useState("");
  const [kept, setKept] = useState(""); // the sheet as last opened or saved
  const [template, setTemplate] = useState(false);
  const [note, setNote] = useState(null);
  const [json, setJson] = useState("");
  const [error, setError] = useState("");
  const load = () => request("GET", base).then((d) => { setLibrary(d.characters); setOptions(d.options || null); },
    (e) => setError(errorText(e)));
  useEffect(() => { load(); }, [game.token]);
  const unsaved = sheet.trim() !== kept.trim();
  useEffect(() => (unsaved ? confirmClosing() : undefined), [unsaved]); // Telegram asks first

  async function check() {
    setError("");
    try {
      const d = await request("POST", `${base}/preview`, { sheet, template });
      setNote(d.valid ? { ok: true, warnings: d.warnings } : { ok: false, text: d.error.message });
    } catch (e) { setError(errorText(e)); }
  }
  async function save() {
    setError("");
    try {
      const d = await request("POST", base, { sheet, template });
      setNote({ ok: true, saved: d.character.name, warnings: d.character.warnings });
      setSheet(d.character.sheet);
      setKept(d.character.sheet);
      load();
    } catch (e) { setError(errorText(e)); }
  }
  // «Сохранить персонажа» is Telegram's MainButton (the screen's one primary action; the
  // GM's options below keep a plain button of their own)
  const saving = useRef(save);
  saving.current = save;
  const savable = Boolean(sheet.trim());
  useEffect(() => (telegramButtons && savable ? mainButton(t("Save the character"), () => saving.current()) : undefined), [savable]);
  async function open(id) {
    setError("");
    try {
      const d = await request("GET", `${base}/${id}`);
      setSheet(d.character.sheet);
      setKept(d.character.sheet);
      setTemplate(d.character.template);
      setJson(JSON.stringify(d.character.data));
      setNote(null);
    } catch (e) { setError(errorText(e)); }
  }
  return html`<section class="card st-editor" data-testid="st-editor">
    <h3>${t("Characters")}</h3>
    ${library.length ? html`<ul class="st-library">${library.map((c) => html`<li>
      <button type="button" class="act" data-character=${c.id} onClick=${() => open(c.id)}>
        ${c.name}${c.template ? ` · ${t("NPC template")}` : ""}</button></li>`)}</ul>`
      : html`<p class="hint">${t("No characters saved yet.")}</p>`}
    <label class="field"><span>${t("Sheet (one «Key: value» a line)")}</span>
      <textarea name="sheet" rows="10" placeholder=${EXAMPLE} value=${sheet}
        onInput=${(e) => setSheet(e.currentTarget.value)}></textarea></label>
    ${gm ? html`<label class="switch"><input type="checkbox" role="switch" name="template" checked=${template}
      onChange=${(e) => setTemplate(e.currentTarget.checked)} /><span class="track" aria-hidden="true"></span>
      <span>${t("NPC template")}</span></label>` : null}
    <div class="acts">
      <button type="button" class="act" data-command="check" onClick=${check}>${t("Check")}</button>
      ${telegramButtons ? null : html`<button type="button" class="act primary-act" data-command="save"
        disabled=${!savable} onClick=${save}>${t("Save the character")}</button>`}
    </div>
    ${note ? html`<div class=${note.ok ? "hint" : "error"} role="status" data-testid="sheet-note">
      ${note.ok ? (note.saved ? t("Saved: {name}", { name: note.saved }) : t("The sheet reads well.")) : note.text}
      ${(note.warnings || []).map((w) => html`<div>⚠️ ${w}</div>`)}</div>` : null}
    ${json ? html`<details><summary>${t("JSON")}</summary><pre class="st-json">${json}</pre></details>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </section>
  ${gm && options ? html`<${GameOptions} game=${game} options=${options} onSaved=${load} />` : null}`;
}
