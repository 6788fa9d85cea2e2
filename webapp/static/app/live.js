// Live updates over a WebSocket: initData in the handshake (boot.js socketProtocols), a
// snapshot on every (re)connect, then pushes numbered by the database: a roll by its id (a
// new one names the game's roll before it, `prev`: one this client has not seen is a gap,
// and asks for a resync), a scene by its stream's own seq (each push is the whole scene: the
// screen drops one older than it shows, see newer() in main.js). A dropped socket
// reconnects with backoff. Opened by boot.js before the modules load (adopt), which also
// asks for the snapshot over HTTP: shown if it comes before the socket's, whose copy is
// then skipped when it is the same text. A late listener gets the last snapshot replayed.
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
    this.early = null; // the text of the snapshot shown from HTTP until the socket's comes
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
    const ws = new WebSocket(this.url, window.kostiBoot.socketProtocols(initData));
    ws.onopen = () => {
      if (!this.snapshot) performance.mark("kosti-ws-open");
    };
    return this.watch(ws);
  }

  // Takes over the socket boot.js opened with what it received so far, and the snapshot it
  // asked for over HTTP (its text, or null), unless the socket's came first.
  adopt({ ws, messages, closed, snapshot }) {
    this.watch(ws);
    for (const event of messages.splice(0)) ws.onmessage(event);
    if (closed) ws.onclose(closed);
    if (snapshot) {
      snapshot.then((text) => {
        if (!text || this.snapshot) return;
        this.early = text;
        this.show(JSON.parse(text));
      });
    }
    return this;
  }

  watch(ws) {
    this.ws = ws;
    ws.onmessage = (event) => {
      if (firstMessage) {
        firstMessage = false;
        if (!performance.getEntriesByName("kosti-ws-message").length) performance.mark("kosti-ws-message");
      }
      const early = this.early;
      this.early = null;
      if (early && event.data === early) { // the snapshot on screen already (over HTTP)
        this.delay = 500;
        this.setStatus("live");
        return;
      }
      this.receive(JSON.parse(event.data));
    };
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
    if (msg.type === "snapshot") {
      this.resyncing = false;
      this.delay = 500;
      this.show(msg);
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

  show(snapshot) {
    if (!this.snapshot) performance.mark("kosti-snapshot");
    this.seq = snapshot.seq;
    this.snapshot = snapshot;
    if (this.listener) this.listener.onSnapshot(snapshot);
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.ws) this.ws.close();
  }
}
