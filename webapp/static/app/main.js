// Kosti Mini App: boot (Telegram, strings, user), the games list and the game screen
// (header; tabs: dice roller with the live roll feed, initiative board, chase board, the
// character editor — the boards and the editor are loaded on demand).
import { html, render, useEffect, useLayoutEffect, useState } from "../vendor/htm-preact-standalone.module.js";
import { request } from "./api.js";
import { Feed } from "./feed.js";
import { errorText, loadMessages, locale, t } from "./i18n.js";
import { LiveSocket } from "./live.js";
import { Roller } from "./roller.js";
import { backButton, initData, languageHint, loadSdk, startParam } from "./telegram.js";

const FEED_SIZE = 30;

function systemName(system) {
  return { savage: t("Savage Worlds"), storyteller: t("Storyteller"), duel: t("Duel") }[system] || system;
}

function roleName(role) {
  return { gm: t("GM"), player: t("Player"), spectator: t("Spectator") }[role] || role;
}

// The first real screen is in the DOM (kosti:first-render, read by bench/webapp.py with the
// paint time of the game title); once that frame is on screen the rest loads: Telegram's SDK,
// /api/me. "On screen": the Element Timing entry of the game title where the browser has it
// (its render time is the frame's presentation: the raster and the draw are done), else the
// next frame.
let painted;
const firstPaint = new Promise((resolve) => { painted = resolve; });
function markRendered() {
  if (document.body.dataset.ready) return;
  document.body.dataset.ready = "1";
  performance.mark("kosti:first-render");
  const types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (types.includes("element") && document.querySelector("[elementtiming]")) {
    const observer = new PerformanceObserver(() => { observer.disconnect(); setTimeout(painted, 0); });
    observer.observe({ type: "element", buffered: true });
  } else requestAnimationFrame(() => setTimeout(painted, 0));
}
firstPaint.then(() => {
  if (window.requestIdleCallback) requestIdleCallback(loadSdk, { timeout: 500 });
  else setTimeout(loadSdk, 100);
});
setTimeout(painted, 2000); // whatever is on screen by then (an error, a refused socket)

let boards = null; // the board modules, loaded once on demand
function loadBoards() {
  boards = boards || Promise.all([import("./systems/savage/initiative.js"), import("./systems/savage/chase.js")]);
  return boards;
}

// A scene (encounter / chase) replaces the shown one unless it is older (pushes and
// command responses may cross).
function newer(old, next) {
  return !old || !next || old.stream !== next.stream || next.seq >= old.seq;
}

let editor = null; // the character editor, loaded when its tab is first opened
function loadEditor() {
  editor = editor || import("./systems/savage/editor.js");
  return editor;
}

const TABS = ["roll", "initiative", "chase", "characters"];
const tabOf = (game) => (["initiative", "chase"].includes(game.screen)
  || (game.screen === "characters" && game.role !== "spectator") ? game.screen : "roll");

function Boards({ tab, ...props }) {
  const [mods, setMods] = useState(null);
  useEffect(() => { loadBoards().then(setMods); }, []);
  if (!mods) return html`<p class="hint">${t("Loading…")}</p>`;
  const [{ InitiativeBoard }, { ChaseBoard }] = mods;
  return tab === "initiative"
    ? html`<${InitiativeBoard} ...${props} active=${true} />`
    : html`<${ChaseBoard} ...${props} />`;
}

function Characters({ game }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { loadEditor().then(setMod); }, []);
  return mod ? html`<${mod.CharacterEditor} game=${game} />` : html`<p class="hint">${t("Loading…")}</p>`;
}

function Tabs({ tab, onTab, game, encounter, chase }) {
  const names = { roll: t("Dice"), initiative: t("Initiative"), chase: t("Chase"), characters: t("Characters") };
  const live = { initiative: !!encounter, chase: !!chase };
  const tabs = game.role === "spectator" ? TABS.slice(0, 3) : TABS; // spectators cannot edit
  return html`<nav class="tabs screen-tabs" role="tablist">${tabs.map((name) => html`<button type="button" role="tab"
    class=${tab === name ? "tab on" : "tab"} aria-selected=${tab === name} data-tab=${name}
    onClick=${() => onTab(name)}>${names[name]}${live[name] ? html`<span class="dot" aria-hidden="true"></span>` : null}</button>`)}</nav>`;
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
  const [encounter, setEncounter] = useState(null);
  const [chase, setChase] = useState(null);
  const [tabs, setTabs] = useState(null); // visited tabs, the last is shown (BackButton pops)
  const showEncounter = (next) => setEncounter((old) => (newer(old, next) ? next : old));
  const showChase = (next) => setChase((old) => (newer(old, next) ? next : old));

  useLayoutEffect(() => {
    const live = opened || new LiveSocket(token).connect();
    live.listen({
      onSnapshot: (snap) => {
        if (snap.locale !== locale) loadMessages(snap.locale).then(() => setStrings(snap.locale));
        setGame(snap.game);
        setRolls([...snap.rolls].sort((a, b) => b.id - a.id));
        setEncounter(snap.encounter || null);
        setChase(snap.chase || null);
        setTabs((old) => old || [tabOf(snap.game)]);
        if (snap.game.system === "savage") loadBoards();
      },
      onEvent: (msg) => {
        if (msg.roll) setRolls((list) => upsert(list, msg.roll));
        if (msg.type === "encounter") showEncounter(msg.encounter);
        if (msg.type === "chase") showChase(msg.chase);
      },
      onStatus: (value, error) => {
        setStatus(value);
        if (value === "refused") setFatal(errorText(error));
      },
    });
    return () => live.close();
  }, [token]);

  useLayoutEffect(() => { if (game) markRendered(); }, [game]);
  const tab = tabs ? tabs[tabs.length - 1] : "roll";
  const goBack = tabs && tabs.length > 1 ? () => setTabs(tabs.slice(0, -1)) : onBack;
  useEffect(() => backButton(goBack || null), [tabs, onBack]);
  const openTab = (name) => name !== tab && setTabs([...tabs.filter((x) => x !== name), name]);

  if (fatal) return html`<div class="card"><p class="error" role="alert">${fatal}</p>
    ${onBack ? html`<button class="secondary" onClick=${onBack}>${t("Back")}</button>` : null}</div>`;
  if (!game) return html`<p class="boot">${t("Connecting…")}</p>`;
  const canRoll = game.role !== "spectator" && game.active;
  const savage = game.system === "savage";
  const shown = savage ? tab : "roll";
  return html`<main class="game" data-role=${game.role} data-tab=${shown}>
    ${onBack ? html`<button class="link" onClick=${onBack}>← ${t("My games")}</button>` : null}
    <${GameHeader} game=${game} status=${status} />
    ${savage ? html`<${Tabs} tab=${shown} onTab=${openTab} game=${game} encounter=${encounter} chase=${chase} />` : null}
    ${shown === "characters" ? html`<${Characters} game=${game} />` : shown !== "roll"
      ? html`<${Boards} tab=${shown} game=${game} encounter=${encounter} chase=${chase}
          onScene=${shown === "initiative" ? showEncounter : showChase} />`
      : html`${canRoll
      ? html`<${Roller} game=${game} onRolled=${(roll) => setRolls((list) => upsert(list, roll))} />`
      : game.role === "spectator"
        ? html`<p class="card hint">${t("You are watching this game as a spectator.")}</p>` : null}
    <${Feed} game=${game} rolls=${rolls} />`}
  </main>`;
}

function GamesList({ games, onOpen }) {
  useLayoutEffect(markRendered, []);
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
