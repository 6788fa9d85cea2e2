// The playground's page: a small Telegram client. The state comes from the server
// (/playground/api/state, then every change over /playground/ws); what the current user does
// goes to /playground/api/… and becomes an update of the real bot.
const $ = (id) => document.getElementById(id);
const api = "/playground/api/";
const store = {
  get(key, fallback) { try { return localStorage.getItem(key) ?? fallback; } catch { return fallback; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { /* private mode */ } },
};

const state = {
  bot: null, users: [], chats: new Map(), commands: {}, texts: {}, demos: [],
  user: null, chat: null, thread: null, reply: null,
  panel: null, // {link, chat}: the open Mini App
};
const t = (key, params = {}) => (state.texts[key] || key).replace(/\{(\w+)\}/g, (_, k) => params[k] ?? "");

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value; // only the server's sanitised message HTML
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

async function post(path, body) {
  const response = await fetch(api + path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ ok: false, description: response.statusText }));
  if (!data.ok) toast(t("refused", { reason: data.description || response.status }));
  return data;
}

// -- scheme ------------------------------------------------------------------------------
function applyScheme(dark) {
  document.documentElement.dataset.scheme = dark ? "dark" : "light";
  $("dark").checked = dark;
}
const prefersDark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
applyScheme(store.get("kosti-play-scheme", prefersDark ? "dark" : "light") === "dark");
$("dark").addEventListener("change", () => {
  const dark = $("dark").checked;
  store.set("kosti-play-scheme", dark ? "dark" : "light");
  applyScheme(dark);
  if (state.panel) openPanel(state.panel.link, state.panel.chat); // the app gets the new theme
});
const scheme = () => document.documentElement.dataset.scheme;

// -- state -------------------------------------------------------------------------------
function load(snapshot) {
  state.bot = snapshot.bot;
  state.users = snapshot.users;
  state.commands = snapshot.commands;
  state.menuButton = snapshot.menu_button;
  if (snapshot.texts) state.texts = snapshot.texts;
  state.demos = snapshot.demos || [];
  state.chats = new Map(snapshot.chats.map((c) => [c.id, c]));
  const saved = Number(store.get("kosti-play-user", 0));
  state.user = state.users.find((u) => u.id === saved) ? saved : state.users[0].id;
  const chat = Number(store.get("kosti-play-chat", 0));
  state.chat = visible(chat) ? chat : [...state.chats.keys()][0];
  translatePage();
  render();
}

function translatePage() {
  document.title = t("title");
  $("title").textContent = t("title");
  $("dark-label").textContent = t("theme");
  $("you-label").textContent = t("you");
  $("demo-label").textContent = t("demo");
  $("text").placeholder = t("placeholder");
  $("new-user").placeholder = t("new_user_name");
  $("start").textContent = t("start");
  $("panel-title").textContent = t("miniapp");
  $("chats").setAttribute("aria-label", t("chats"));
  $("menu-button").setAttribute("aria-label", t("commands"));
  $("send").setAttribute("aria-label", t("send"));
  $("panel-close").setAttribute("aria-label", t("close"));
  $("reply-cancel").setAttribute("aria-label", t("cancel"));
}

// A user sees the groups and their own private chat with the bot.
const visible = (id) => state.chats.has(id) && (state.chats.get(id).type !== "private" || id === state.user);

function onEvent(event) {
  if (event.type === "message") {
    const chat = state.chats.get(event.message.chat);
    if (!chat) return;
    const at = chat.messages.findIndex((m) => m.id === event.message.id);
    if (at >= 0) chat.messages[at] = event.message;
    else chat.messages.push(event.message);
    renderChats();
    if (chat.id === state.chat) { renderMessages(at < 0); renderPinned(); }
  } else if (event.type === "delete") {
    const chat = state.chats.get(event.chat);
    if (!chat) return;
    chat.messages = chat.messages.filter((m) => m.id !== event.id);
    if (state.reply === event.id) setReply(null);
    renderChats();
    if (chat.id === state.chat) renderMessages(false);
  } else if (event.type === "pinned") {
    const chat = state.chats.get(event.chat);
    if (chat) chat.pinned = event.id;
    if (event.chat === state.chat) renderPinned();
  } else if (event.type === "started") {
    const chat = state.chats.get(event.chat);
    if (chat) chat.started = true;
    if (event.chat === state.chat) renderComposer();
  } else if (event.type === "chat") {
    state.chats.set(event.chat.id, event.chat);
    renderChats();
    if (event.chat.id === state.chat) renderChat(); // a new topic
  } else if (event.type === "users") {
    state.users = event.users;
    renderUsers();
  } else if (event.type === "commands") {
    state.commands = event.commands;
  } else if (event.type === "menu_button") {
    state.menuButton = event.menu_button;
    renderComposer();
  } else if (event.type === "toast") {
    if (event.user === state.user || event.user === null) {
      if (event.alert) alertBox(event.text);
      else toast(event.text);
    }
    if (event.url) followLink(event.url);
  }
}

// -- rendering ---------------------------------------------------------------------------
function render() {
  renderUsers();
  renderChats();
  renderChat();
  renderDemos();
}

// Each installed system's demo table: a button (the system's title) and its line.
function renderDemos() {
  $("demos").replaceChildren(...state.demos.map((demo) => el("div", { class: "demo-item" },
    el("button", { type: "button", class: "demo-button", "data-system": demo.system,
      onclick: (event) => layOut(demo.system, event.currentTarget) }, demo.title),
    el("p", { class: "hint" }, demo.hint))));
}

function renderUsers() {
  const users = state.users.map((u) => el("button", {
    type: "button", class: "user", role: "radio", "aria-checked": String(u.id === state.user),
    onclick: () => switchUser(u.id),
  }, u.name));
  const add = el("button", {
    type: "button", class: "user add", "aria-label": t("add_user"), title: t("add_user"),
    onclick: () => { $("add-user").hidden = !$("add-user").hidden; $("new-user").focus(); },
  }, "+");
  $("users").replaceChildren(...users, add);
}

function switchUser(id) {
  state.user = id;
  store.set("kosti-play-user", String(id));
  if (!visible(state.chat)) state.chat = id; // from one private chat to the other's
  setReply(null);
  render();
  if (state.panel) closePanel();
}

function chatName(chat) {
  return chat.type === "private" ? `${state.bot.name} (@${state.bot.username})` : chat.title;
}

function lastLine(chat) {
  const last = chat.messages[chat.messages.length - 1];
  if (!last) return chat.type === "private" ? t("private") : "";
  const text = el("div", { html: last.html }).textContent;
  return `${last.name}: ${text}`;
}

function renderChats() {
  const items = [...state.chats.values()].filter((c) => visible(c.id)).map((chat) => el("button", {
    type: "button", class: "chat-item", "aria-current": String(chat.id === state.chat),
    "data-chat": chat.id, onclick: () => openChat(chat.id),
  }, el("span", { class: "name" }, chatName(chat)), el("span", { class: "last" }, lastLine(chat))));
  $("chats").replaceChildren(...items);
}

function openChat(id, thread = null) {
  state.chat = id;
  state.thread = thread;
  store.set("kosti-play-chat", String(id));
  setReply(null);
  renderChats();
  renderChat();
  // on a phone the chats are one scrolled row: show the one opened (a demo's new group)
  $("chats").querySelector("[aria-current='true']")?.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function renderChat() {
  const chat = state.chats.get(state.chat);
  $("chat-title").textContent = chatName(chat);
  $("chat-sub").textContent = chat.type === "private"
    ? t("private") : t("members", { count: state.users.length });
  const topics = $("topics");
  topics.hidden = !chat.forum;
  if (chat.forum) {
    const all = [{ id: null, name: t("general") }, ...chat.topics];
    topics.replaceChildren(...all.map((topic) => el("button", {
      type: "button", class: "topic", "aria-current": String(topic.id === state.thread),
      onclick: () => { state.thread = topic.id; renderChat(); },
    }, topic.name)));
  }
  renderMessages(true);
  renderComposer();
  renderPinned();
}

// The pinned message's bar above the chat, as Telegram shows it: its first line; a tap
// scrolls to it.
function renderPinned() {
  const chat = state.chats.get(state.chat);
  const message = chat.pinned && chat.messages.find((m) => m.id === chat.pinned);
  const bar = $("pinned");
  bar.hidden = !message;
  if (!message) return;
  const first = (new DOMParser().parseFromString(message.html, "text/html").body.textContent || "").split("\n")[0];
  bar.replaceChildren(el("b", {}, "📌 " + t("pinned")), " ", first);
  bar.onclick = () => flash(message.id);
}

function renderComposer() {
  const chat = state.chats.get(state.chat);
  const locked = chat.type === "private" && !chat.started;
  $("send-form").hidden = locked;
  $("start").hidden = !locked;
  // The private chat's menu button: the Mini App, when the bot set one (setChatMenuButton).
  const menu = state.menuButton || {};
  const app = $("app-button");
  app.hidden = chat.type !== "private" || menu.type !== "web_app";
  app.textContent = menu.text || "";
  if (locked) renderMessages(false);
}

function renderMessages(toBottom) {
  const list = $("messages");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const chat = state.chats.get(state.chat);
  const shown = chat.messages.filter((m) => !chat.forum || (m.thread ?? null) === state.thread);
  const items = shown.map((m) => renderMessage(chat, m));
  if (chat.type === "private" && !chat.started) items.push(el("li", { class: "not-started" }, t("not_started")));
  if (!items.length) items.push(el("li", { class: "intro" }, t("intro")));
  list.replaceChildren(...items);
  if (toBottom || atBottom) list.scrollTop = list.scrollHeight;
}

function renderMessage(chat, m) {
  const own = !m.bot && m.from === state.user;
  const sender = chat.type !== "private" && !own
    ? el("div", { class: "sender" }, m.name, m.bot ? el("span", { class: "tag" }, t("bot")) : null) : null;
  const quote = m.reply ? el("div", { class: "quote", onclick: () => flash(m.reply.id) },
    el("b", {}, m.reply.name), m.reply.text) : null;
  const doc = m.document ? el("div", { class: "document" }, "📄 ",
    el("a", { href: `${api}files/${m.document.file_id}`, download: m.document.file_name }, m.document.file_name)) : null;
  const body = el("div", { class: "text", html: m.html });
  const meta = el("div", { class: "meta" },
    m.edited ? el("span", { class: "edited" }, t("edited")) : null,
    el("button", { type: "button", class: "reply-button", onclick: () => setReply(m.id) }, t("reply")),
    el("time", {}, new Date(m.date * 1000).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" })));
  const bubble = el("div", { class: "bubble" }, sender, quote, doc, body, meta);
  const keyboard = m.keyboard ? renderKeyboard(chat, m) : null;
  const kind = `msg${own ? " own" : ""}${keyboard ? " with-keyboard" : ""}`;
  return el("li", { class: kind, "data-id": m.id, "data-from": m.from }, bubble, keyboard);
}

function renderKeyboard(chat, m) {
  return el("div", { class: "keyboard" }, m.keyboard.map((row, r) => el("div", { class: "kb-row" },
    row.map((button, c) => el("button", {
      type: "button", class: "kb-button", onclick: () => pressButton(chat, m, button, r, c),
    }, el("span", { class: "label" }, button.text), button.url ? el("span", { class: "kind" }, "↗") : null,
    button.web_app ? el("span", { class: "kind" }, "▣") : null)))));
}

function flash(id) {
  const node = $("messages").querySelector(`[data-id="${id}"]`);
  if (!node) return;
  node.scrollIntoView({ block: "center" });
  node.classList.add("flash");
  setTimeout(() => node.classList.remove("flash"), 1200);
}

function setReply(id) {
  state.reply = id;
  const chat = state.chats.get(state.chat);
  const m = id && chat.messages.find((x) => x.id === id);
  $("replying").hidden = !m;
  if (m) {
    $("replying-text").textContent = `${t("reply")}: ${m.name} — ${el("div", { html: m.html }).textContent.slice(0, 80)}`;
    $("text").focus();
  }
}

// -- actions -----------------------------------------------------------------------------
async function pressButton(chat, m, button, row, col) {
  if (button.callback_data !== undefined) {
    await post("press", { user: state.user, chat: chat.id, message: m.id, row, col });
  } else if (button.url) {
    followLink(button.url, chat.id);
  } else if (button.web_app) {
    openPanel(button.web_app.url, chat.id);
  }
}

// t.me links as Telegram opens them: a bot's ?start= in the user's private chat with it,
// a Mini App's direct link (t.me/<bot>/<app>?startapp=) in the panel.
function followLink(href, chatId = state.chat) {
  let url;
  try { url = new URL(href, location.href); } catch { return; }
  if (url.protocol === "tg:") return; // a mention: the user is in the list above
  if (url.hostname === "t.me" || url.hostname === "telegram.me") {
    const [name, app] = url.pathname.split("/").filter(Boolean);
    if (name && name.toLowerCase() === state.bot.username.toLowerCase()) {
      if (app) return openPanel(url.href, chatId);
      openChat(state.user);
      post("start", { user: state.user, param: url.searchParams.get("start") });
      return;
    }
  }
  // The bot's own pages (the receipt check): its PUBLIC_URL here is a placeholder under
  // .invalid, a name that never resolves, so they open on this server.
  if (url.hostname.endsWith(".invalid")) {
    window.open(`${location.origin}${url.pathname}${url.search}`, "_blank", "noopener");
    return;
  }
  if (window.confirm(t("link", { url: url.href }))) window.open(url.href, "_blank", "noopener");
}

async function send(event) {
  event.preventDefault();
  const input = $("text");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  $("menu").hidden = true;
  const reply = state.reply;
  setReply(null);
  await post("send", { user: state.user, chat: state.chat, text, thread: state.thread, reply });
}

function toggleMenu() {
  const menu = $("menu");
  if (!menu.hidden) { menu.hidden = true; return; }
  const lang = state.commands.ru || state.commands[""] || [];
  menu.replaceChildren(...lang.map((c) => el("button", {
    type: "button", onclick: () => {
      $("text").value = `/${c.command} `;
      menu.hidden = true;
      $("text").focus();
    },
  }, el("span", { class: "cmd" }, `/${c.command}`), el("span", { class: "desc" }, c.description))));
  menu.hidden = false;
}

let toastTimer = null;
function toast(text) {
  const node = $("toast");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { node.hidden = true; }, 2500);
}

function alertBox(text) {
  $("modal-text").textContent = text;
  $("modal").hidden = false;
  $("modal-ok").focus();
}

// -- the Mini App panel --------------------------------------------------------------------
async function openPanel(link, chatId) {
  const query = new URLSearchParams({ user: state.user, chat: chatId, link, scheme: scheme() });
  const response = await fetch(`${api}miniapp?${query}`);
  if (!response.ok) return;
  const { url } = await response.json();
  state.panel = { link, chat: chatId };
  $("main-button").hidden = true;
  $("panel-back").hidden = true;
  $("panel").hidden = false;
  // A fresh webview, as in Telegram: the SDK keeps its launch and theme in sessionStorage,
  // which a same-origin frame shares with this page (the stored theme would win).
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith("__telegram__")) sessionStorage.removeItem(key);
  } catch { /* storage disabled */ }
  // A new frame each time: a launch differs from the last one only after "#", which would
  // not load the app again (Telegram starts a fresh webview too).
  const frame = el("iframe", { id: "frame", title: t("miniapp"), src: url });
  $("frame").replaceWith(frame);
}

function closePanel() {
  state.panel = null;
  $("panel").hidden = true;
  $("frame").replaceWith(el("iframe", { id: "frame", title: t("miniapp") }));
}

let hapticTimer = null;
const toFrame = (eventType, eventData) =>
  $("frame").contentWindow?.postMessage(JSON.stringify({ eventType, eventData }), location.origin);

// What telegram-web-apps.js inside the frame asks of its Telegram client.
window.addEventListener("message", (event) => {
  if (event.source !== $("frame").contentWindow) return;
  let data;
  try { data = JSON.parse(event.data); } catch { return; }
  const payload = data.eventData || {};
  switch (data.eventType) {
    case "web_app_setup_main_button": {
      const button = $("main-button");
      button.hidden = !payload.is_visible;
      button.textContent = payload.text || "";
      button.disabled = payload.is_active === false;
      break;
    }
    case "web_app_setup_back_button":
      $("panel-back").hidden = !payload.is_visible;
      break;
    case "web_app_close":
      closePanel();
      break;
    case "web_app_trigger_haptic_feedback": { // a phone vibrates: the panel says so a moment
      const kind = payload.notification_type || payload.impact_style || payload.type || "";
      const node = $("haptic");
      node.textContent = `📳 ${kind}`;
      node.dataset.kind = kind;
      node.hidden = false;
      clearTimeout(hapticTimer);
      hapticTimer = setTimeout(() => { node.hidden = true; }, 1200);
      break;
    }
    case "web_app_open_popup": { // showConfirm / showPopup: the browser's confirm answers it
      const buttons = payload.buttons || [];
      const ok = buttons.find((b) => b.type !== "cancel" && b.type !== "close");
      const yes = window.confirm([payload.title, payload.message].filter(Boolean).join("\n\n"));
      toFrame("popup_closed", yes && ok ? { button_id: ok.id } : {});
      break;
    }
    case "web_app_open_tg_link":
      followLink(`https://t.me${payload.path_full}`, state.panel?.chat);
      break;
    case "web_app_open_link":
      window.open(payload.url, "_blank", "noopener");
      break;
    case "web_app_request_viewport": {
      const frame = $("frame");
      toFrame("viewport_changed", { height: frame.clientHeight, width: frame.clientWidth, is_expanded: true, is_state_stable: true });
      break;
    }
    default:
      break;
  }
});

$("main-button").addEventListener("click", () => toFrame("main_button_pressed"));
$("panel-back").addEventListener("click", () => toFrame("back_button_pressed"));
$("panel-close").addEventListener("click", closePanel);

// -- wiring ------------------------------------------------------------------------------
$("send-form").addEventListener("submit", send);
$("menu-button").addEventListener("click", toggleMenu);
$("app-button").addEventListener("click", () => openPanel(state.menuButton.web_app.url, state.chat));
$("start").addEventListener("click", () => post("start", { user: state.user }));
$("reply-cancel").addEventListener("click", () => setReply(null));
$("modal-ok").addEventListener("click", () => { $("modal").hidden = true; });
$("messages").addEventListener("click", (event) => {
  const spoiler = event.target.closest(".tg-spoiler, tg-spoiler");
  if (spoiler) spoiler.classList.add("shown");
  const link = event.target.closest(".text a");
  if (link) { event.preventDefault(); followLink(link.href); }
});
$("add-user").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("new-user").value.trim();
  if (!name) return;
  const data = await post("users", { name });
  $("new-user").value = "";
  $("add-user").hidden = true;
  if (data.ok) switchUser(data.id);
});
async function layOut(system, button) {
  button.disabled = true;
  const data = await post("demo", { user: state.user, system });
  button.disabled = false;
  if (!data.ok) return;
  openChat(data.chat, data.thread);
  toast(t(data.thread === null ? "demo_done" : "demo_done_topic", { title: data.title }));
}

// The state and the live feed start together (the page preloads the state); what the feed
// brings before the state has arrived is applied after it (every event is an upsert).
let retry = 500;
const stateUrl = () => `${api}state?lang=${document.documentElement.lang || "ru"}`;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/playground/ws`);
  let loaded = false;
  const early = [];
  ws.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (loaded) onEvent(event);
    else early.push(event);
  };
  ws.onopen = () => {
    retry = 500;
    $("offline").hidden = true;
  };
  ws.onclose = () => {
    $("offline").textContent = t("offline");
    $("offline").hidden = false;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
  fetch(stateUrl()).then((response) => response.json()).then((snapshot) => {
    load(snapshot);
    loaded = true;
    for (const event of early.splice(0)) onEvent(event);
    if (!document.body.dataset.ready) performance.mark("kosti-play:ready"); // bench/playground.py
    document.body.dataset.ready = "1";
  });
}
connect();
