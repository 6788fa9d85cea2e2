// The first script (classic; the page carries it inline, before the stylesheet): reads
// Telegram's launch parameters from the URL hash itself (telegram-web-apps.js is loaded only
// after the first render), applies the theme before the first paint, and starts what the
// first screen needs (the game's live socket, the strings) while the modules are still
// loading. main.js takes over from window.kostiBoot; nothing here touches user data.
(function () {
  "use strict";
  var mark = function (name) { if (window.performance && performance.mark) performance.mark(name); };
  mark("kosti:boot");

  function query(text) {
    var out = {};
    new URLSearchParams(text).forEach(function (value, key) { out[key] = value; });
    return out;
  }
  function stored(key) {
    try { return JSON.parse(sessionStorage.getItem("__telegram__" + key)) || null; } catch (e) { return null; }
  }

  // Launch parameters as the SDK reads them: the hash, then what it saved for a reload.
  var hash = location.hash.replace(/^#/, "");
  var params = hash.indexOf("=") >= 0 ? query(hash.slice(hash.indexOf("?") + 1)) : {};
  if (!params.tgWebAppData) { // a reload inside Telegram (sessionStorage is slow to open)
    var saved = stored("initParams") || {};
    for (var key in saved) if (params[key] === undefined) params[key] = saved[key];
  }
  var initData = params.tgWebAppData || "";
  var unsafe = query(initData);
  var user = {};
  try { user = JSON.parse(unsafe.user || "{}") || {}; } catch (e) { /* only a hint */ }
  // Direct links carry the game token in start_param; a private web_app button cannot, so
  // the bot puts it in the URL under Telegram's own name (the server checks it either way).
  var startParam = unsafe.start_param || params.tgWebAppStartParam ||
    new URLSearchParams(location.search).get("tgWebAppStartParam") || "";
  var language = String(user.language_code || "").toLowerCase().indexOf("en") === 0 ? "en" : "ru";

  // Theme: the SDK's --tg-theme-* variables and its light/dark rule (it sets the same later).
  var theme = null;
  try { theme = JSON.parse(params.tgWebAppThemeParams); } catch (e) { theme = stored("themeParams"); }
  var root = document.documentElement;
  var dark = !theme && window.matchMedia("(prefers-color-scheme: dark)").matches;
  if (theme) {
    for (var name in theme) {
      var color = String(theme[name]);
      if (!/^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(color)) continue;
      root.style.setProperty("--tg-theme-" + name.split("_").join("-"), color);
      if (name === "bg_color") {
        var rgb = color.length === 4 ? color.replace(/[0-9a-f]/gi, "$&$&").slice(1) : color.slice(1);
        var r = parseInt(rgb.slice(0, 2), 16), g = parseInt(rgb.slice(2, 4), 16), b = parseInt(rgb.slice(4, 6), 16);
        dark = Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120;
      }
    }
  }
  root.dataset.scheme = dark ? "dark" : "light";

  // The socket's subprotocols: "kosti" and the initData as a header token (unpadded
  // base64url of its UTF-8), so the server sends the snapshot with the handshake's answer,
  // with no round trip for an auth message (a page cannot set a WebSocket's other headers).
  function socketProtocols(data) {
    var bytes = new TextEncoder().encode(data), binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return ["kosti", "tma." + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")];
  }

  // The live socket of the game; what arrives before live.js adopts it is kept in order.
  var socket = null;
  if (initData && startParam) {
    var game = "/api/games/" + encodeURIComponent(startParam);
    var ws = new WebSocket((location.protocol === "https:" ? "wss" : "ws") + "://" + location.host +
      game + "/ws", socketProtocols(initData));
    // The same snapshot over the page's own connection, while the socket sets up one of its
    // own (TCP and TLS: two round trips more on a phone); its text, or null.
    var snapshot = fetch(game + "/snapshot", {
      headers: { Authorization: "tma " + initData },
    }).then(function (response) { return response.ok ? response.text() : null; })
      .catch(function () { return null; });
    socket = { ws: ws, messages: [], closed: null, snapshot: snapshot };
    ws.onopen = function () { mark("kosti-ws-open"); };
    ws.onmessage = function (event) {
      if (!socket.messages.length) mark("kosti-ws-message");
      socket.messages.push(event);
    };
    ws.onclose = function (event) { socket.closed = event; };
  }

  window.kostiBoot = {
    initData: initData,
    startParam: startParam,
    language: language,
    platform: params.tgWebAppPlatform || "", // "unknown" or none: not inside a Telegram client
    socket: socket,
    socketProtocols: socketProtocols,
    // The strings in the user's probable language (the server may choose the other).
    strings: initData ? { ru: null, en: null } : null,
  };
  if (initData) {
    // A static file under this script's version (v/<version>/i18n/<locale>.json: gzipped,
    // cached; no initData check to wait for). The page carries this script inline, its path
    // in data-src (static_files.py).
    var current = document.currentScript;
    var script = current ? current.src || new URL(current.dataset.src || "", location.href).href : "";
    // Parsed as soon as they arrive, while the modules are still on their way (29 KB of JSON:
    // off the first render's path); null if they could not be had (i18n.js asks again).
    var strings = fetch(script.replace(/app\/boot\.js([?#].*)?$/, "") + "i18n/" + language + ".json")
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; });
    window.kostiBoot.strings[language] = strings;
  }
})();

