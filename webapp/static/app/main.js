// Kosti Mini App: boot (Telegram, strings, user), the games list and the game screen
// (header; the dice roller with the live roll feed, and beside it the tabs of the game's rule
// system — its screens module is loaded on demand, see systems/index.js).
import { html, render, useEffect, useLayoutEffect, useRef, useState } from "../vendor/htm-preact-standalone.module.js";
import { request } from "./api.js";
import { Feed } from "./feed.js";
import { errorText, loadMessages, locale, t } from "./i18n.js";
import { LiveSocket } from "./live.js";
import { Roller } from "./roller.js";
import { loadScreens, systemName } from "./systems/index.js";
import { backButton, initData, keepOpenOnSwipe, languageHint, loadSdk, startParam, telegramButtons } from "./telegram.js";

const FEED_SIZE = 30;

function roleName(role) {
  return { gm: t("GM"), player: t("Player"), spectator: t("Spectator") }[role] || role;
}

// The first real screen is in the DOM (kosti:first-render, read by bench/webapp.py with the
// paint time of the game title); once that frame is on screen the rest loads: Telegram's SDK,
// /api/me. "On screen": the Element Timing entry of the game title where the browser has it
// (its render time is the frame's presentation: the raster and the draw are done), else the
// next frame. `titled`: the screen has that title (the game screen; not the games list).
let painted;
const firstPaint = new Promise((resolve) => { painted = resolve; });
function markRendered(titled) {
  if (document.body.dataset.ready) return;
  document.body.dataset.ready = "1";
  performance.mark("kosti:first-render");
  const types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (titled && types.includes("element")) {
    const observer = new PerformanceObserver(() => { observer.disconnect(); setTimeout(painted, 0); });
    observer.observe({ type: "element", buffered: true });
  } else requestAnimationFrame(() => setTimeout(painted, 0));
}
firstPaint.then(() => {
  if (window.requestIdleCallback) requestIdleCallback(loadSdk, { timeout: 500 });
  else setTimeout(loadSdk, 100);
});
setTimeout(painted, 2000); // whatever is on screen by then (an error, a refused socket)

// A scene replaces the shown one unless it is older (pushes and command responses may cross).
function newer(old, next) {
  return !old || !next || old.stream !== next.stream || next.seq >= old.seq;
}

// What a snapshot holds besides the game's scenes (one key per scene kind of its system).
const SNAPSHOT_KEYS = new Set(["type", "seq", "locale", "game", "rolls"]);
const ROLL_PUSHES = new Set(["roll", "roll_revealed"]);
// Screens of the start_param that are the dice; any other is a tab of the game's system.
const DICE_SCREENS = new Set(["game", "roll", "rolls"]);
const startTab = (game) => (!game.screen || DICE_SCREENS.has(game.screen) ? "roll" : game.screen);

// The tabs of the game's system this viewer gets (spectators do not edit).
const systemTabs = (screens, game) => (screens ? screens.tabs : [])
  .filter((tab) => !tab.players || game.role !== "spectator");

function Tabs({ tab, onTab, tabs, scenes }) {
  const all = [{ name: "roll", label: () => t("Dice") }, ...tabs];
  return html`<nav class="tabs screen-tabs" role="tablist">${all.map((x) => html`<button type="button" role="tab"
    class=${tab === x.name ? "tab on" : "tab"} aria-selected=${tab === x.name} data-tab=${x.name}
    onClick=${() => onTab(x.name)}>${x.label()}${x.scene && scenes[x.scene] ? html`<span class="dot" aria-hidden="true"></span>` : null}</button>`)}</nav>`;
}

function upsert(rolls, roll) {
  const next = rolls.filter((r) => r.id !== roll.id);
  next.push(roll);
  next.sort((a, b) => b.id - a.id);
  return next.slice(0, FEED_SIZE);
}

function GameHeader({ game, status }) {
  return html`<header class="card header">
    <div class="title-row">
      <h1 elementtiming="kosti-game">${game.name}</h1>
      <span class=${"status status-" + status} title=${status}
        aria-label=${status === "live" ? t("Live") : t("Reconnecting…")}></span>
    </div>
    <p class="meta">${systemName(game.system)}${game.chat_title ? html` · ${game.chat_title}` : null}</p>
    <p class="meta"><span class=${"badge role-" + game.role}>${roleName(game.role)}</span>
      ${game.gm && game.role !== "gm" ? html` ${t("GM")}: ${game.gm.name}` : null}
      ${!game.active ? html` · <strong>${t("The game has ended.")}</strong>` : null}</p>
  </header>`;
}

function GameScreen({ token, live: opened, onBack }) {
  const [game, setGame] = useState(null);
  const [rolls, setRolls] = useState([]);
  const [status, setStatus] = useState("connecting");
  const [fatal, setFatal] = useState(null);
  const [, setStrings] = useState(locale);
  const [scenes, setScenes] = useState({}); // the game's open scenes by kind (null: none)
  const [screens, setScreens] = useState(undefined); // the system's module; null: dice only
  const [tabs, setTabs] = useState(null); // visited tabs, the last is shown (BackButton pops)
  const showScene = (kind, next) => setScenes((old) => (newer(old[kind], next) ? { ...old, [kind]: next } : old));

  useLayoutEffect(() => {
    const live = opened || new LiveSocket(token).connect();
    live.listen({
      onSnapshot: (snap) => {
        if (snap.locale !== locale) loadMessages(snap.locale).then(() => setStrings(snap.locale));
        setGame(snap.game);
        setRolls([...snap.rolls].sort((a, b) => b.id - a.id));
        setScenes(Object.fromEntries(Object.entries(snap).filter(([key]) => !SNAPSHOT_KEYS.has(key))));
        setTabs((old) => old || [startTab(snap.game)]);
        const load = () => {
          const loading = loadScreens(snap.game.system);
          if (!loading) setScreens(null);
          else loading.then((mod) => { setScreens(mod); mod.prefetch(); }, () => setScreens(null));
        };
        // Opened on the dice, the system's tabs (a module, a stylesheet) come after the first
        // paint: asked for in the first render they took its time and its connection.
        if (startTab(snap.game) === "roll") firstPaint.then(load);
        else load();
      },
      onEvent: (msg) => {
        if (msg.roll) setRolls((list) => upsert(list, msg.roll));
        else if (!ROLL_PUSHES.has(msg.type) && msg.type in msg) showScene(msg.type, msg[msg.type]);
      },
      onStatus: (value, error) => {
        setStatus(value);
        if (value === "refused") setFatal(errorText(error));
      },
    });
    return () => live.close();
  }, [token]);

  useLayoutEffect(() => { if (game) markRendered(true); }, [game]);
  const tab = tabs ? tabs[tabs.length - 1] : "roll";
  const goBack = tabs && tabs.length > 1 ? () => setTabs(tabs.slice(0, -1)) : onBack;
  useEffect(() => backButton(goBack || null), [tabs, onBack]);
  const longGm = Boolean(game && game.role === "gm" && tab !== "roll"); // a swipe there scrolls
  useEffect(() => (longGm ? keepOpenOnSwipe() : undefined), [longGm]);
  const openTab = (name) => name !== tab && setTabs([...tabs.filter((x) => x !== name), name]);

  if (fatal) return html`<div class="card"><p class="error" role="alert">${fatal}</p>
    ${onBack ? html`<button class="secondary" onClick=${onBack}>${t("Back")}</button>` : null}</div>`;
  if (!game) return html`<p class="boot">${t("Connecting…")}</p>`;
  const canRoll = game.role !== "spectator" && game.active;
  const own = systemTabs(screens, game);
  const waiting = screens === undefined && tab !== "roll"; // the system's module is on its way
  const shown = own.some((x) => x.name === tab) ? tab : "roll";
  // Inside Telegram its BackButton is the only back control (tabs, then the games list).
  return html`<main class="game" data-role=${game.role} data-tab=${shown}><${AtTop} tab=${shown} />
    ${onBack && !telegramButtons ? html`<button class="link" onClick=${onBack}>← ${t("My games")}</button>` : null}
    <${GameHeader} game=${game} status=${status} />
    ${own.length ? html`<${Tabs} tab=${shown} onTab=${openTab} tabs=${own} scenes=${scenes} />` : null}
    ${waiting ? html`<p class="hint">${t("Loading…")}</p>` : shown !== "roll"
      ? html`<${screens.Screen} tab=${shown} game=${game} scenes=${scenes} onScene=${showScene} />`
      : html`${canRoll
      ? html`<${Roller} game=${game} onRolled=${(roll) => setRolls((list) => upsert(list, roll))} />`
      : game.role === "spectator"
        ? html`<p class="card hint">${t("You are watching this game as a spectator.")}</p>` : null}
    <${Feed} game=${game} rolls=${rolls} fight=${screens && screens.fightRolled && screens.fightRolled(scenes)
      ? html`<${screens.FeedRolls} scenes=${scenes} />` : null} />`}
  </main>`;
}

// A tab opens at its top (it kept the last tab's scroll offset: a long tab opened at its
// bottom buttons).
function AtTop({ tab }) {
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) first.current = false;
    else window.scrollTo(0, 0);
  }, [tab]);
  return null;
}

function GamesList({ games, onOpen }) {
  useLayoutEffect(() => markRendered(false), []);
  return html`<main class="games">
    <h1>${t("My games")}</h1>
    ${games.length === 0
      ? html`<p class="card hint">${t("No active games. Start one in a group chat with /newgame.")}</p>`
      : html`<ul>${games.map((g) => html`<li key=${g.token}>
          <button class="card game-link" onClick=${() => onOpen(g.token)}>
            <strong>${g.name}</strong>
            <span class="meta">${systemName(g.system)} · ${roleName(g.role)}${g.chat_title ? ` · ${g.chat_title}` : ""}</span>
          </button></li>`)}</ul>`}
  </main>`;
}

function App({ me, live }) {
  const [token, setToken] = useState(startParam || null);
  const [opened, setOpened] = useState(live); // the socket opened at boot, used once
  const [games, setGames] = useState(null);
  useEffect(() => {
    // On a game screen the list only enables the way back: asked after the first paint.
    const games = me || firstPaint.then(() => request("GET", "/api/me"));
    games.then((data) => setGames(data.games), () => setGames([]));
  }, []);
  const back = games && games.length ? () => { setOpened(null); setToken(null); } : null;
  if (token) {
    return html`<${GameScreen} key=${token} token=${token} live=${opened} onBack=${back} />`;
  }
  if (!games) return html`<p class="boot">${t("Connecting…")}</p>`;
  return html`<${GamesList} games=${games} onOpen=${setToken} />`;
}

function Problem({ text }) {
  return html`<main><p class="card error" role="alert">${text}</p></main>`;
}

async function boot() {
  const root = document.getElementById("root");
  if (!initData) {
    // No strings can be loaded without initData: say it in both languages.
    render(html`<${Problem} text="Откройте приложение из Telegram. · Open this app from Telegram." />`, root);
    return;
  }
  // Everything starts at once (boot.js has already opened the socket and asked for the
  // strings): the live snapshot, the strings, and the user's games for the games list.
  const early = window.kostiBoot && window.kostiBoot.socket;
  const live = !startParam ? null
    : early ? new LiveSocket(startParam).adopt(early) : new LiveSocket(startParam).connect();
  const me = startParam ? null : request("GET", "/api/me");
  if (me) me.catch(() => {}); // handled where it is used; no "unhandled rejection" meanwhile
  try {
    if (startParam) {
      await loadMessages(languageHint);
    } else {
      const [data] = await Promise.all([me, loadMessages(languageHint)]);
      if (data.locale !== locale) await loadMessages(data.locale);
    }
    render(html`<${App} me=${me} live=${live} />`, root);
  } catch (e) {
    render(html`<${Problem} text=${errorText(e)} />`, root);
  }
}

boot();
