// The Telegram WebApp object (vendor/telegram-web-apps.js) and what the app needs from it.
const WebApp = (window.Telegram && window.Telegram.WebApp) || null;

export const initData = (WebApp && WebApp.initData) || "";
export const startParam =
  (WebApp && WebApp.initDataUnsafe && WebApp.initDataUnsafe.start_param) || "";
// Never trusted: only a hint for the first strings (the server decides the locale).
const userLanguage = (WebApp && WebApp.initDataUnsafe && WebApp.initDataUnsafe.user &&
  WebApp.initDataUnsafe.user.language_code) || "";
export const languageHint = userLanguage.toLowerCase().startsWith("en") ? "en" : "ru";

function applyScheme() {
  const dark = WebApp ? WebApp.colorScheme === "dark"
    : window.matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.scheme = dark ? "dark" : "light";
}

export function setup() {
  applyScheme();
  if (!WebApp) return;
  WebApp.onEvent("themeChanged", applyScheme);
  WebApp.ready();
  WebApp.expand();
}

export function haptic(kind) {
  const h = WebApp && WebApp.HapticFeedback;
  if (!h) return;
  if (kind === "tap") h.impactOccurred("medium");
  else h.notificationOccurred(kind); // "success" | "error" | "warning"
}
