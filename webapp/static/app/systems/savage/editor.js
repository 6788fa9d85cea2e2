// The Characters screen of a Savage Worlds game: the library (the GM's holds everything with
// the NPC templates, a player's their own characters), the Russian text block in a textarea
// with a live check (the parsed sheet or the error), Save and Delete. Loaded lazily (index.js).
import { html, useEffect, useRef, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { errorText, t } from "../../i18n.js";
import { confirmClosing, haptic, mainButton, telegramButtons } from "../../telegram.js";

const EXAMPLE = "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8;\n"
  + "Драка d10, Атлетика d8, Стрельба d6; Защита 7, Стойкость 8 (2), Шаг 6; Бенни 3;\nЧерты: Хладнокровие, Быстрота";
const NPC = "Пустой (Статист, ×3) Дух d4, Сила d8, Выносливость d6;\nДрака d6; Защита 5, Стойкость 7";

const Traits = ({ list }) => html`<p class="traits">${list.map((x) =>
  html`<span class="trait">${x.name} <b>${x.die}</b></span>`)}</p>`;

function Preview({ check }) {
  if (!check) return html`<p class="hint" data-testid="sheet-preview">${t("The sheet is checked as you type.")}</p>`;
  if (!check.valid) {
    const d = check.error.details || {};
    return html`<div class="sheet-preview bad" data-testid="sheet-preview"><p class="error" role="alert">
      ${errorText(check.error)}${d.fragment ? html` <code>${d.fragment}</code>` : null}
      ${d.line ? ` ${t("(line {line})", { line: d.line })}` : null}</p></div>`;
  }
  const p = check.parsed;
  const armor = p.armor ? ` (${p.armor})` : "";
  return html`<div class="sheet-preview" data-testid="sheet-preview">
    <p><strong>${p.name}</strong> <span class="chip">${p.wild ? t("Wild Card") : t("Extra")}</span>
      ${p.count > 1 ? html`<span class="chip">×${p.count}</span>` : null}</p>
    <${Traits} list=${p.attributes} />
    ${p.skills.length ? html`<${Traits} list=${p.skills} />` : null}
    <p class="traits derived">
      <span class="trait">${t("Parry")} <b>${p.parry}</b></span>
      <span class="trait">${t("Toughness")} <b>${p.toughness}${armor}</b></span>
      <span class="trait">${t("Pace")} <b>${p.pace}</b></span>
      <span class="trait">${t("Bennies")} <b>${p.bennies}</b></span></p>
    ${p.edges.length ? html`<p class="meta">${t("Edges and hindrances")}: ${p.edges.join(", ")}</p>` : null}
    ${(check.warnings || []).map((w) => html`<p class="warning" role="status" data-testid="sheet-warning">⚠️ ${w.message}</p>`)}
  </div>`;
}

export function CharacterEditor({ game }) {
  const gm = game.role === "gm";
  const base = `/api/games/${encodeURIComponent(game.token)}/characters`;
  const people = [game.gm, ...game.players].filter(Boolean);
  const blank = (template) => ({ id: null, owner: template ? null : gm ? game.gm.id : undefined, sheet: "" });
  const [list, setList] = useState(null);
  const [draft, setDraft] = useState(() => blank(false));
  const [kept, setKept] = useState(() => blank(false)); // the draft as opened or saved
  const [check, setCheck] = useState(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState(null); // { text, error }
  const [sure, setSure] = useState(false); // Delete asks for a second tap
  const asked = useRef(0);
  const whose = gm ? (draft.owner === null ? { template: true } : { owner: draft.owner }) : {};

  const load = () => request("GET", base).then((d) => setList(d.characters),
    (e) => { setList([]); setNote({ text: errorText(e), error: true }); });
  useEffect(() => { load(); }, [base]);
  useEffect(() => { // the live check, debounced; only the latest answer is shown
    const n = ++asked.current;
    if (!draft.sheet.trim()) { setCheck(null); return undefined; }
    const timer = setTimeout(() => request("POST", `${base}/preview`, { sheet: draft.sheet, ...whose }).then(
      (d) => n === asked.current && setCheck(d),
      (e) => n === asked.current && setCheck({ valid: false, error: e })), 350);
    return () => clearTimeout(timer);
  }, [draft.sheet, draft.owner]);

  const edit = (next) => { setDraft(next); setKept(next); setSure(false); setNote(null); };
  const open = (id) => request("GET", `${base}/${id}`).then(({ character: c }) => {
    edit({ id: c.id, owner: c.owner, sheet: c.sheet });
    setCheck({ valid: true, parsed: c.parsed });
  }, (e) => setNote({ text: errorText(e), error: true }));

  async function run(method, path, body, done) {
    setBusy(true);
    haptic("tap");
    try {
      done(await request(method, path, body));
      haptic("success");
      load();
    } catch (e) {
      haptic("error");
      setNote({ text: errorText(e), error: true });
    } finally {
      setBusy(false);
    }
  }
  const save = () => run("POST", base, { sheet: draft.sheet, ...whose, ...(draft.id ? { id: draft.id } : {}) },
    ({ character: c }) => {
      edit({ id: c.id, owner: c.owner, sheet: c.sheet });
      setNote({ text: t("Saved: {name}", { name: c.name }) });
    });
  const remove = () => (sure ? run("DELETE", `${base}/${draft.id}`, undefined, () => {
    edit(blank(false));
    setNote({ text: t("Deleted.") });
  }) : setSure(true));

  const writable = game.active;
  const savable = writable && !busy && draft.sheet.trim() && !(check && !check.valid);
  const unsaved = draft.sheet !== kept.sheet || draft.owner !== kept.owner;
  useEffect(() => (unsaved ? confirmClosing() : undefined), [unsaved]); // Telegram asks first
  const saving = useRef(save);
  saving.current = save; // the MainButton saves the latest draft
  useEffect(() => (telegramButtons && savable ? mainButton(t("Save"), () => saving.current()) : undefined), [savable]);
  const nameOf = (id) => (people.find((u) => u.id === id) || { name: String(id) }).name;
  return html`<section class="board editor" data-testid="character-editor">
    <div class="acts">
      <button type="button" class="act" name="new-character" onClick=${() => edit(blank(false))}>${t("New character")}</button>
      ${gm ? html`<button type="button" class="act" name="new-template" onClick=${() => edit(blank(true))}>${t("New NPC template")}</button>` : null}
    </div>
    ${list && !list.length ? html`<p class="hint">${t("No saved characters yet.")}</p>` : null}
    <ul class="char-list" data-testid="character-list">${(list || []).map((c) => html`<li key=${c.id}
      class=${c.id === draft.id ? "on" : ""}><button type="button" data-id=${c.id} onClick=${() => open(c.id)}>
      <strong>${c.name}</strong>${c.count > 1 ? ` ×${c.count}` : ""}
      <span class="chip">${c.template ? t("NPC template") : nameOf(c.owner)}</span>
      ${c.wild ? html`<span class="chip">${t("Wild Card")}</span>` : null}</button></li>`)}</ul>
    <div class="card">
      ${gm ? html`<label class="field"><span>${t("Belongs to")}</span>
        <select name="owner" value=${draft.owner === null ? "" : String(draft.owner)}
          onChange=${(e) => setDraft({ ...draft, owner: e.currentTarget.value ? Number(e.currentTarget.value) : null })}>
          <option value="">${t("NPC template")}</option>
          ${people.map((u) => html`<option value=${String(u.id)}>${u.id === game.gm.id ? t("Me (GM)") : u.name}</option>`)}
        </select></label>` : null}
      <label class="field"><span>${t("Character text")}</span>
        <textarea name="sheet" rows="6" spellcheck="false" readOnly=${!writable}
          placeholder=${draft.owner === null ? NPC : EXAMPLE} value=${draft.sheet}
          onInput=${(e) => setDraft({ ...draft, sheet: e.currentTarget.value })}></textarea></label>
      <${Preview} check=${check} />
      ${note ? html`<p class=${note.error ? "error" : "hint"} role=${note.error ? "alert" : "status"}>${note.text}</p>` : null}
      ${writable ? html`${telegramButtons ? null : html`<button type="button" class="primary" name="save-character"
        disabled=${!savable} onClick=${save}>${t("Save")}</button>`}
      ${draft.id ? html`<button type="button" class="act danger" name="delete-character" disabled=${busy}
        onClick=${remove}>${sure ? t("Tap again to delete") : t("Delete")}</button>` : null}` : null}
    </div>
  </section>`;
}
