// The rule systems the page knows, one registration line each. A system's entry (its
// `system.js`, keyed by its `code`) gives its name, the roller's first form and command, the
// roll commands it offers (`rolls`; a system's own form only where its command is one of
// them), its dice (`dice`: {commands(), results, forms}, the system's dice.js), and
// the URLs of its own screens module and stylesheet (loaded when a game of that system is
// opened). A screens module exports `tabs` ([{name, label(), scene?, players?}]: the tabs
// beside the dice; `scene` marks the tab while that scene is open, `players` hides it from
// spectators), `prefetch()` and the `Screen` component ({tab, game, scenes, onScene(kind,
// scene)}). A system without a module (or a code not listed) has the dice roller only.
import savage from "./savage/system.js";
import storyteller from "./storyteller/system.js";
import duel from "./duel/system.js";

const ENTRIES = [savage, storyteller, duel];
export const SYSTEMS = Object.fromEntries(ENTRIES.map((entry) => [entry.code, entry]));
// every system's dice, loaded with the page: a game's feed shows any roll the chat made
export const DICE = ENTRIES.map((entry) => entry.dice).filter(Boolean);

export const systemName = (code) => (SYSTEMS[code] ? SYSTEMS[code].name() : code);
export const rollerDefaults = (code) => ({ roll: "roll", form: "notation", ...(SYSTEMS[code] || {}) });

function stylesheet(path) {
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(path, import.meta.url).href;
    link.onload = link.onerror = resolve; // a missing stylesheet leaves the screens unstyled
    document.head.append(link);
  });
}

const loading = {};
// The system's screens module (a promise, loaded once with its stylesheet), or null.
export function loadScreens(code) {
  const entry = SYSTEMS[code];
  if (!entry || !entry.module) return null;
  loading[code] = loading[code] || Promise.all([
    import(entry.module), entry.css ? stylesheet(entry.css) : null,
  ]).then(([mod]) => mod);
  return loading[code];
}
