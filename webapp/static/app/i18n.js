// Strings of the "webapp" gettext domain (served by /api/i18n/{locale}); msgids are English.
import { request } from "./api.js";

let messages = {};
let errors = {};
export let locale = "ru";

export async function loadMessages(wanted) {
  const data = await request("GET", `/api/i18n/${wanted === "en" ? "en" : "ru"}`);
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
