// The Telegram WebApp object (vendor/telegram-web-apps.js) and what the app needs from it.
const WebApp = (window.Telegram && window.Telegram.WebApp) || null;

export const initData = (WebApp && WebApp.initData) || "";
// Direct links carry the game token in start_param; a private web_app button cannot, so the
// bot puts it in the URL under Telegram's own name (the server checks the token either way).
export const startParam =
  (WebApp && WebApp.initDataUnsafe && WebApp.initDataUnsafe.start_param) ||
  new URLSearchParams(window.location.search).get("tgWebAppStartParam") || "";
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

// Telegram's own bottom button (outside Telegram nothing is shown); returns the cleanup.
export function mainButton(text, onClick) {
  const b = WebApp && WebApp.MainButton;
  if (!b) return () => {};
  b.setText(text);
  b.onClick(onClick);
  b.show();
  return () => { b.offClick(onClick); b.hide(); };
}

export function backButton(onClick) {
  const b = WebApp && WebApp.BackButton;
  if (!b) return () => {};
  if (!onClick) { b.hide(); return () => {}; }
  b.onClick(onClick);
  b.show();
  return () => { b.offClick(onClick); b.hide(); };
}
