// Telegram: the launch parameters (read from the URL hash by boot.js, so the first render
// never waits for the SDK) and the WebApp object of vendor/telegram-web-apps.js, which is
// loaded after the first render (loadSdk); until then the calls below do nothing.
const boot = window.kostiBoot || { initData: "", startParam: "", language: "ru" };
// The first module to run (after the vendored one): the whole first module graph has arrived.
performance.mark("kosti-modules");

export const initData = boot.initData;
export const startParam = boot.startParam;
// Never trusted: only a hint for the first strings (the server decides the locale).
export const languageHint = boot.language;
// Inside a Telegram client its MainButton carries a screen's primary action (the page shows
// no button of its own for it); in a plain browser the page keeps its own.
export const telegramButtons = Boolean(boot.platform) && boot.platform !== "unknown";

const webApp = () => (window.Telegram && window.Telegram.WebApp) || null;

function applyScheme() {
  const WebApp = webApp();
  if (WebApp) document.documentElement.dataset.scheme = WebApp.colorScheme === "dark" ? "dark" : "light";
}

function ready() {
  const WebApp = webApp();
  if (!WebApp) return;
  applyScheme();
  WebApp.onEvent("themeChanged", applyScheme);
  WebApp.ready();
  WebApp.expand();
  applyButtons();
  applyGuards();
}

let sdk = null;
// Loads telegram-web-apps.js once (same origin: allowed by the CSP); resolves when it ran.
export function loadSdk() {
  sdk = sdk || new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = new URL("../vendor/telegram-web-apps.js", import.meta.url).href;
    script.onload = () => { ready(); resolve(webApp()); };
    script.onerror = () => resolve(null);
    document.head.appendChild(script);
  });
  return sdk;
}

export function haptic(kind) {
  const WebApp = webApp();
  const h = WebApp && WebApp.HapticFeedback;
  if (!h) return;
  if (kind === "tap") h.impactOccurred("medium");
  else h.notificationOccurred(kind); // "success" | "error" | "warning"
}

// Telegram's own buttons (outside Telegram nothing is shown): the wanted state is kept and
// applied now or when the SDK arrives; each call returns its cleanup.
const wanted = { main: null, back: null }; // {text, onClick} / onClick
const applied = { main: null, back: null };

function applyButtons() {
  const WebApp = webApp();
  if (!WebApp) return;
  const main = WebApp.MainButton;
  if (main && applied.main !== wanted.main) {
    if (applied.main) main.offClick(applied.main.onClick);
    applied.main = wanted.main;
    if (wanted.main) {
      main.setText(wanted.main.text);
      main.onClick(wanted.main.onClick);
      main.show();
    } else main.hide();
  }
  const back = WebApp.BackButton;
  if (back && applied.back !== wanted.back) {
    if (applied.back) back.offClick(applied.back);
    applied.back = wanted.back;
    if (wanted.back) {
      back.onClick(wanted.back);
      back.show();
    } else back.hide();
  }
}

export function mainButton(text, onClick) {
  const state = { text, onClick };
  wanted.main = state;
  applyButtons();
  return () => { if (wanted.main === state) { wanted.main = null; applyButtons(); } };
}

export function backButton(onClick) {
  wanted.back = onClick || null;
  applyButtons();
  return () => { if (wanted.back === onClick && onClick) { wanted.back = null; applyButtons(); } };
}

// While a form has unsaved edits Telegram asks before the app is closed; on a long GM screen a
// swipe down scrolls instead of closing it. Each holder's call returns its release; the
// setting stays on while anyone holds it (applied now or when the SDK arrives).
const guards = { closing: 0, swipes: 0 };

function applyGuards() {
  const WebApp = webApp();
  if (!WebApp) return;
  if (WebApp.enableClosingConfirmation && WebApp.isClosingConfirmationEnabled !== guards.closing > 0) {
    if (guards.closing) WebApp.enableClosingConfirmation();
    else WebApp.disableClosingConfirmation();
  }
  if (WebApp.disableVerticalSwipes && WebApp.isVerticalSwipesEnabled !== !guards.swipes) {
    if (guards.swipes) WebApp.disableVerticalSwipes();
    else WebApp.enableVerticalSwipes();
  }
}

function hold(kind) {
  guards[kind] += 1;
  applyGuards();
  let held = true;
  return () => { if (held) { held = false; guards[kind] -= 1; applyGuards(); } };
}

export const confirmClosing = () => hold("closing");
export const keepOpenOnSwipe = () => hold("swipes");

// Asks before something that cannot be taken back (ending a fight): Telegram's own popup in
// Telegram, the browser's confirm outside it. Resolves true when confirmed.
export function confirmAction(text) {
  const WebApp = webApp();
  if (WebApp && WebApp.showConfirm && WebApp.platform !== "unknown") {
    return new Promise((resolve) => WebApp.showConfirm(text, (ok) => resolve(Boolean(ok))));
  }
  return Promise.resolve(window.confirm(text));
}
