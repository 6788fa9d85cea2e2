// Strings of the "webapp" gettext domain (served by /api/i18n/{locale}); msgids are English.
import { request } from "./api.js";

// A response boot.js started early (read once), else a new request.
async function fetchStrings(lang) {
  const early = window.kostiBoot && window.kostiBoot.strings;
  const started = early && early[lang];
  if (!started) return request("GET", `/api/i18n/${lang}`);
  early[lang] = null;
  try {
    const response = await started;
    const data = await response.json();
    if (response.ok && data && data.ok !== false) return data;
  } catch (e) { /* asked again below, with the usual errors */ }
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
}

export function t(msgid, params) {
  const text = messages[msgid] || msgid;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, key) => (key in params ? String(params[key]) : m));
}

export function errorText(error) {
  return (error && (errors[error.code] || error.message)) || t("Something went wrong.");
}
