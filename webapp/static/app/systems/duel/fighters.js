// The duel's fighter editor (the Fighters tab): the game's fighters as the seed's text block
// («Атака X, Блок X, Уклонение X, Урон dX, Хп X, Броня X»), edited, checked and saved through
// .../characters; the GM also saves a class from its JSON. Loaded when the tab is first opened.
import { html, useEffect, useRef, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { describe, errorText, t } from "../../i18n.js";
import { confirmClosing, mainButton, telegramButtons } from "../../telegram.js";

const SAMPLE = "Бьорн\nКласс: Рейдер\nАтака 2, Блок 1, Уклонение 0, Урон d8, ХП 24, Броня 1";

export function FighterEditor({ game }) {
  const base = `/api/games/${encodeURIComponent(game.token)}/characters`;
  const [list, setList] = useState(null);
  const [text, setText] = useState("");
  const [kept, setKept] = useState(""); // the text as last opened or saved
  const [classJson, setClassJson] = useState("");
  const [keptClass, setKeptClass] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const load = () => request("GET", base).then((d) => setList(d), (e) => setError(errorText(e)));
  useEffect(() => { load(); }, [game.token]);
  const unsaved = text.trim() !== kept.trim() || classJson.trim() !== keptClass.trim();
  useEffect(() => (unsaved ? confirmClosing() : undefined), [unsaved]); // Telegram asks first
  const edit = (sheet) => { setText(sheet); setKept(sheet); };
  async function run(path, body, done) {
    setError(""); setNote("");
    try { done(await request("POST", path, body)); } catch (e) { setError(errorText(e)); }
  }
  const check = () => run(`${base}/preview`, { sheet: text }, (d) => (d.valid ? setNote(d.sheet) : setError(errorText(d.error))));
  const save = () => run(base, { sheet: text }, (d) => {
    setKept(text);
    setNote(t("Saved: {name}", { name: d.character.name }));
    if (d.warnings.length) setError(d.warnings.map((w) => describe(w).join("")).join("\n"));
    load();
  });
  // «Сохранить бойца» is Telegram's MainButton (the tab's one primary action)
  const saving = useRef(save);
  saving.current = save;
  const savable = Boolean(text.trim());
  useEffect(() => (telegramButtons && savable ? mainButton(t("Save the fighter"), () => saving.current()) : undefined), [savable]);
  const saveClass = () => run(base, { class: JSON.parse(classJson || "{}") }, (d) => { setKeptClass(classJson); setNote(t("Class saved: {name}", { name: d.class.name })); load(); });
  if (!list) return html`<p class="hint">${error || t("Loading…")}</p>`;
  return html`<section class="board duel duel-fighters">
    <h2>${t("Fighters")}</h2>
    <ul class="lines">${list.characters.map((f) => html`<li class="card" data-fighter-entry=${f.id}>
      <pre>${f.sheet}</pre><button type="button" class="act" onClick=${() => edit(f.sheet)}>${t("Edit")}</button></li>`)}</ul>
    <label class="field"><span>${t("Fighter as text")}</span>
      <textarea name="sheet" rows="4" placeholder=${SAMPLE} value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea></label>
    <div class="acts">
      <button type="button" class="act" data-command="preview" disabled=${!text.trim()} onClick=${check}>${t("Check")}</button>
      ${telegramButtons ? null : html`<button type="button" class="act primary-act" data-command="save-fighter"
        disabled=${!savable} onClick=${save}>${t("Save the fighter")}</button>`}
    </div>
    ${game.role === "gm" ? html`<label class="field"><span>${t("A class as JSON (the GM)")}</span>
      <textarea name="class" rows="4" value=${classJson} onInput=${(e) => setClassJson(e.currentTarget.value)}></textarea></label>
      <div class="acts"><button type="button" class="act" data-command="save-class" disabled=${!classJson.trim()} onClick=${() => { try { saveClass(); } catch (e) { setError(String(e)); } }}>${t("Save the class")}</button></div>
      <p class="hint">${t("Classes: {names}", { names: list.classes.map((c) => c.name).join(", ") })}</p>` : null}
    ${note ? html`<pre class="note" role="status">${note}</pre>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
  </section>`;
}
