// Strings of the "webapp" gettext domain (i18n/<locale>.json, or /api/i18n/{locale}); msgids
// are English.
import { request } from "./api.js";

// The catalog is a static file, i18n/<locale>.json under the same version as the modules
// (static_files.py); boot.js has asked for the probable language already and parses it on
// arrival (read once; null if it failed). If the file cannot be had, the API answers the
// same, with the usual errors.
async function fetchStrings(lang) {
  const early = window.kostiBoot && window.kostiBoot.strings;
  const started = early && early[lang];
  if (started) early[lang] = null;
  try {
    const data = await (started || fetch(new URL(`../i18n/${lang}.json`, import.meta.url))
      .then((response) => (response.ok ? response.json() : null)));
    if (data && data.ok !== false) return data;
  } catch (e) { /* asked again below */ }
  return request("GET", `/api/i18n/${lang}`);
}

let messages = {};
let errors = {};
let descriptions = {};
let kinds = {};
const names = new Map(); // id -> name of the fighters the page has seen (refusals name them)
export let locale = "ru";

export async function loadMessages(wanted) {
  const data = await fetchStrings(wanted === "en" ? "en" : "ru");
  messages = data.messages;
  errors = data.errors;
  descriptions = (data.descriptions && data.descriptions.templates) || {};
  kinds = (data.descriptions && data.descriptions.kinds) || {};
  locale = data.locale;
  document.documentElement.lang = locale;
  if (!performance.getEntriesByName("kosti-strings").length) performance.mark("kosti-strings");
}

export function t(msgid, params) {
  const text = messages[msgid] || msgid;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? String(params[key]) : m));
}

// gettext's plural forms of the two locales (ru: one, few, many)
const pluralForm = (n) => (locale === "en" ? (n === 1 ? 0 : 1)
  : n % 10 === 1 && n % 100 !== 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2);

// The kind of a description's param (engine/describe.py): "name", "card", "label:<family>", …
export const kindOf = (code, key) => (kinds[code.split(".")[0]] || {})[key];

// A label (a key of a family of descriptions): its translated template.
export function labelText(family, key) {
  const text = descriptions[`${family}.${key}`] || descriptions[`${family}.other`] || String(key);
  return Array.isArray(text) ? text[0] : text;
}

// Names the page knows for ids (its boards call it), for the sentences of refusals.
export function rememberNames(pairs) {
  for (const [id, name] of pairs) names.set(id, name);
}

// A param as plain text, by its kind: a name for an id, a card counted from 1, a label.
export function plainParam(kind, value, named = (id) => names.get(id) || id) {
  if (kind === "name") return named(value);
  if (kind === "card" && Number.isInteger(value)) return String(value + 1);
  if (kind && kind.startsWith("label:")) return labelText(kind.slice(6), value);
  return String(value);
}

// A description {code, params} (engine/describe.py: the chat says the same sentence) as a list
// of pieces: the translated template of its code, each {param} replaced by
// render(key, value, kind) (a string or a node); a plural template picks its form by
// params.count.
export function describe(d, render = (key, value, kind) => plainParam(kind, value)) {
  let text = descriptions[d.code];
  if (text === undefined) return [d.code];
  if (Array.isArray(text)) text = text[Math.min(pluralForm(d.params.count ?? 1), text.length - 1)];
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const key = m[1];
    parts.push(text.slice(last, m.index), key in d.params ? render(key, d.params[key], kindOf(d.code, key)) : "?");
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts;
}

// A refusal with a description says its sentence here (names of the fighters the page knows);
// the rest by its code.
export function errorText(error) {
  if (error && error.description && descriptions[error.description.code]) return describe(error.description).join("");
  return (error && (errors[error.code] || error.message)) || t("Something went wrong.");
}
