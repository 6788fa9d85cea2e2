// Kosti Mini App: boot (Telegram, strings, user), the games list and the game screen
// (header, dice roller, live roll feed).
import { html, render, useEffect, useLayoutEffect, useState } from "../vendor/htm-preact-standalone.module.js";
import { request } from "./api.js";
import { Feed } from "./feed.js";
import { errorText, loadMessages, locale, t } from "./i18n.js";
import { LiveSocket } from "./live.js";
import { Roller } from "./roller.js";
import { initData, languageHint, setup, startParam } from "./telegram.js";

const FEED_SIZE = 30;

function systemName(system) {
  return { savage: t("Savage Worlds"), storyteller: t("Storyteller"), duel: t("Duel") }[system] || system;
}

function roleName(role) {
  return { gm: t("GM"), player: t("Player"), spectator: t("Spectator") }[role] || role;
}

function markRendered() {
  if (document.body.dataset.ready) return;
  document.body.dataset.ready = "1";
  performance.mark("kosti-first-render");
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
      <h1>${game.name}</h1>
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

  useLayoutEffect(() => {
    const live = opened || new LiveSocket(token).connect();
    live.listen({
      onSnapshot: (snap) => {
        if (snap.locale !== locale) loadMessages(snap.locale).then(() => setStrings(snap.locale));
        setGame(snap.game);
        setRolls([...snap.rolls].sort((a, b) => b.id - a.id));
      },
      onEvent: (msg) => msg.roll && setRolls((list) => upsert(list, msg.roll)),
      onStatus: (value, error) => {
        setStatus(value);
        if (value === "refused") setFatal(errorText(error));
      },
    });
    return () => live.close();
  }, [token]);

  useLayoutEffect(() => { if (game) markRendered(); }, [game]);

  if (fatal) return html`<div class="card"><p class="error" role="alert">${fatal}</p>
    ${onBack ? html`<button class="secondary" onClick=${onBack}>${t("Back")}</button>` : null}</div>`;
  if (!game) return html`<p class="boot">${t("Connecting…")}</p>`;
  const canRoll = game.role !== "spectator" && game.active;
  return html`<main class="game" data-role=${game.role}>
    ${onBack ? html`<button class="link" onClick=${onBack}>← ${t("My games")}</button>` : null}
    <${GameHeader} game=${game} status=${status} />
    ${canRoll
      ? html`<${Roller} game=${game} onRolled=${(roll) => setRolls((list) => upsert(list, roll))} />`
      : game.role === "spectator"
        ? html`<p class="card hint">${t("You are watching this game as a spectator.")}</p>` : null}
    <${Feed} game=${game} rolls=${rolls} />
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
  useEffect(() => { me.then((data) => setGames(data.games), () => setGames([])); }, []);
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
  setup();
  const root = document.getElementById("root");
  if (!initData) {
    // No strings can be loaded without initData: say it in both languages.
    render(html`<${Problem} text="Откройте приложение из Telegram. · Open this app from Telegram." />`, root);
    return;
  }
  // Everything starts at once: the live snapshot, the strings and the user's games.
  const live = startParam ? new LiveSocket(startParam).connect() : null;
  const me = request("GET", "/api/me");
  me.catch(() => {}); // handled where it is used; no "unhandled rejection" meanwhile
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
