// The rule systems the page knows, one entry each: a game's `system` code -> its name, the
// roller's first form and command, the roll commands it offers (`rolls`; the d10 pool form
// only where "pool" is one of them), and the module of its own screens with its stylesheet
// (paths relative to this file; loaded when a game of that system is opened). A screens
// module exports `tabs` ([{name, label(), scene?, players?}]: the tabs beside the dice; `scene`
// marks the tab while that scene is open, `players` hides it from spectators), `prefetch()`
// and the `Screen` component ({tab, game, scenes, onScene(kind, scene)}). A system without a
// module (or a code not listed) has the dice roller only.
import { t } from "../i18n.js";

export const SYSTEMS = {
  savage: { name: () => t("Savage Worlds"), roll: "trait", rolls: ["trait", "roll", "damage"], module: "./savage/index.js", css: "./savage/savage.css" },
  storyteller: { name: () => t("Storyteller"), roll: "pool", form: "pool", rolls: ["pool", "roll"], module: "./storyteller/index.js", css: "./storyteller/storyteller.css" },
  duel: { name: () => t("Duel"), roll: "duel", rolls: ["duel", "roll"], module: "./duel/index.js", css: "./duel/duel.css" },
};

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
