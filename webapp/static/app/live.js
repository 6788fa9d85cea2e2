// Live updates over a WebSocket: auth as the first message, a snapshot on every (re)connect,
// then pushes numbered by the database: a roll by its id (a new one names the game's roll
// before it, `prev`: one this client has not seen is a gap, and asks for a resync), a scene by
// its stream's own seq (each push is the whole scene: the screen drops one older than it
// shows, see newer() in main.js). A dropped socket reconnects with backoff.
// Opened by boot.js before the modules load (adopt); a late listener gets the last snapshot
// replayed.
import { initData } from "./telegram.js";

const FATAL = new Set([4401, 4403, 4404]);
let firstMessage = true; // marked "kosti-ws-message" (by boot.js if it came before adopt)

export class LiveSocket {
  constructor(gameToken) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}` +
      `/api/games/${encodeURIComponent(gameToken)}/ws`;
    this.listener = null;
    this.snapshot = null;
    this.status = "connecting";
    this.seq = 0; // the id of the newest roll this client has (snapshot, pushes)
    this.delay = 500;
    this.stopped = false;
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.ws && !this.stopped) this.connect();
    };
    document.addEventListener("visibilitychange", this.onVisible);
  }

  listen(listener) {
    this.listener = listener;
    if (this.snapshot) listener.onSnapshot(this.snapshot);
    listener.onStatus(this.status, this.error);
  }

  setStatus(status) {
    this.status = status;
    if (this.listener) this.listener.onStatus(status, this.error);
  }

  connect() {
    clearTimeout(this.timer);
    if (this.stopped) return this;
    const ws = new WebSocket(this.url);
    ws.onopen = () => {
      if (!this.snapshot) performance.mark("kosti-ws-open");
      ws.send(JSON.stringify({ type: "auth", initData, since: this.seq }));
    };
    return this.watch(ws);
  }

  // Takes over the socket boot.js opened (and authenticated) with what it received so far.
  adopt({ ws, messages, closed }) {
    this.watch(ws);
    for (const event of messages.splice(0)) ws.onmessage(event);
    if (closed) ws.onclose(closed);
    return this;
  }

  watch(ws) {
    this.ws = ws;
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (FATAL.has(event.code)) {
        this.stopped = true;
        this.setStatus("refused");
        return;
      }
      this.setStatus("offline");
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    };
    return this;
  }

  receive(msg) {
    if (firstMessage) {
      firstMessage = false;
      if (!performance.getEntriesByName("kosti-ws-message").length) performance.mark("kosti-ws-message");
    }
    if (msg.type === "snapshot") {
      if (!this.snapshot) performance.mark("kosti-snapshot");
      this.seq = msg.seq;
      this.resyncing = false;
      this.delay = 500;
      this.snapshot = msg;
      if (this.listener) this.listener.onSnapshot(msg);
      this.setStatus("live");
    } else if (msg.type === "error") {
      this.error = msg.error;
    } else if (msg.seq !== undefined) {
      if (this.resyncing) return; // the snapshot on its way holds it
      // a new roll whose predecessor is not here, or a reveal of a roll not here: a gap
      const gap = msg.type === "roll" ? msg.prev > this.seq : msg.type === "roll_revealed" && msg.seq > this.seq;
      if (gap) {
        this.ws.send(JSON.stringify({ type: "resync", since: this.seq }));
        this.resyncing = true;
        return;
      }
      if (msg.type === "roll") this.seq = Math.max(this.seq, msg.seq);
      if (this.listener) this.listener.onEvent(msg);
    }
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.ws) this.ws.close();
  }
}
