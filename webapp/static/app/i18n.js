// Strings of the "webapp" gettext domain (i18n/<locale>.json, or /api/i18n/{locale}); msgids
// are English.
import { request } from "./api.js";

// The catalog is a static file, i18n/<locale>.json under the same version as the modules
// (static_files.py); boot.js has asked for the probable language already (read once). If the
// file cannot be had, the API answers the same, with the usual errors.
async function fetchStrings(lang) {
  const early = window.kostiBoot && window.kostiBoot.strings;
  const started = early && early[lang];
  if (started) early[lang] = null;
  try {
    const response = await (started || fetch(new URL(`../i18n/${lang}.json`, import.meta.url)));
    const data = await response.json();
    if (response.ok && data && data.ok !== false) return data;
  } catch (e) { /* asked again below */ }
  return request("GET", `/api/i18n/${lang}`);
}

let messages = {};
let errors = {};
export let locale = "ru";

export async function loadMessages(wanted) {
  const data = await fetchStrings(wanted === "en" ? "en" : "ru");
  messages = data.messages;
  errors = data.errors;
  locale = data.locale;
  document.documentElement.lang = locale;
  if (!performance.getEntriesByName("kosti-strings").length) performance.mark("kosti-strings");
}

export function t(msgid, params) {
  const text = messages[msgid] || msgid;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? String(params[key]) : m));
}

export function errorText(error) {
  return (error && (errors[error.code] || error.message)) || t("Something went wrong.");
}
