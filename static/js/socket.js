// The match websocket: hello with last_version, resend-safe client_seq, pong, and reconnect.
import { get, session } from "./api.js";
import { applyPatch } from "./viewpatch.js";

// The server pings every second: this long without any message means the link is dead
// (black-holed packets never close a socket), so the client says so and reconnects.
export const SILENCE_MS = 3500;

/**
 * MatchSocket(matchId, {spectate, onMessage, onStatus}): connects to /ws/matches/{id} and
 * reconnects with backoff, resuming from the last version it applied. Messages are handed to
 * onMessage in order; onStatus gets "connecting", "open", "closed" or "gone".
 */
export class MatchSocket {
  constructor(matchId, { spectate = false, onMessage, onStatus }) {
    this.matchId = matchId;
    this.spectate = spectate;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.version = null;
    this.held = null; // {version, view, legal, awaiting}: what the patches apply to
    this.resyncing = false;
    this.seq = 0;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.pending = [];
    this.heardAt = 0;
    this.watchdog = setInterval(() => this.checkSilence(), 500);
  }

  /** No message for ``SILENCE_MS`` on an open socket: drop it and reconnect (with backoff). */
  checkSilence() {
    const ws = this.ws;
    if (this.closed || !ws || ws.readyState !== WebSocket.OPEN) return;
    if (performance.now() - this.heardAt < SILENCE_MS) return;
    this.ws = null; // its late events are ignored from now on
    try { ws.close(4000, "silent"); } catch { /* already closing */ }
    this.lost();
  }

  lost() {
    this.onStatus("closed");
    if (this.closed) return;
    const delay = Math.min(8000, 300 * 2 ** this.attempt) + Math.random() * 200;
    this.attempt += 1;
    setTimeout(() => this.connect(), delay);
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting");
    // With several server processes, ask which one serves the match: a balancer sends the
    // socket straight there (deploy/nginx.conf). Without an answer any process takes it.
    get(`/api/matches/${this.matchId}/route`, { auth: false })
      .then((route) => route.node, () => null)
      .then((node) => this.open(node));
  }

  open(node) {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = node ? `?node=${encodeURIComponent(node)}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/matches/${this.matchId}${query}`);
    this.ws = ws;
    ws.onopen = () => {
      this.heardAt = performance.now();
      ws.send(JSON.stringify({
        type: "hello",
        token: this.spectate ? null : session.token,
        last_version: this.version,
      }));
      for (const text of this.pending.splice(0)) ws.send(text);
    };
    let heard = false;
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      this.heardAt = performance.now();
      // "open" once the server has spoken on this socket: a socket that opens and then says
      // nothing (a dead route, a proxy with no server behind it) is still connecting.
      if (!heard) { heard = true; this.onStatus("open"); }
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message.type === "ping") {
        ws.send(JSON.stringify({ type: "pong", nonce: message.nonce }));
        return;
      }
      if (message.type === "welcome") {
        this.attempt = 0; // a live link: the backoff starts over
        this.resyncing = false;
      }
      if (message.type === "welcome" || message.type === "patch") {
        // A diff patch is filled in to the whole view, so every reader sees whole views.
        const held = applyPatch(this.held, message);
        if (!held) {
          // A diff for a version not held: ask for the whole view again (once).
          if (!this.resyncing) ws.send(JSON.stringify({ type: "resync", last_version: this.version }));
          this.resyncing = true;
          return;
        }
        this.held = held;
        this.version = message.version;
        message.view = held.view;
        message.legal = held.legal;
        message.awaiting = held.awaiting;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      if (event.code === 4404) { this.onStatus("gone"); return; }
      this.ws = null;
      this.lost();
    };
  }

  // The server refuses a client_seq older than the seat's last one; a reload or a second
  // device starts from the wall clock, so its numbers are always newer.
  nextSeq() {
    this.seq = Math.max(this.seq + 1, Date.now());
    return this.seq;
  }

  send(message) {
    const text = JSON.stringify(message);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.pending.push(text);
  }

  /** Send an engine action; returns its client_seq. */
  act(action) {
    const client_seq = this.nextSeq();
    this.send({ type: "action", client_seq, action });
    return client_seq;
  }

  /** A grab: ``ref`` is the last message drawn, ``dt`` ms from drawing it to the tap. */
  grab(cell, ref, dt) {
    const client_seq = this.nextSeq();
    this.send({ type: "grab", client_seq, cell, ref, dt });
    return client_seq;
  }

  chat(text) { this.send({ type: "chat", text }); }

  close() {
    this.closed = true;
    clearInterval(this.watchdog);
    if (this.ws) this.ws.close();
  }
}
