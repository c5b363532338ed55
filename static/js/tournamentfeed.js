// Tournament news from the lobby websocket (/ws/lobby): `tournament{tournament, standings,
// pairings}` after every change; reconnects by itself like lobbyfeed.js.
import { session } from "./api.js";

/** watchTournaments(onTournament, onReconnect): onTournament(message) for every tournament
 * change, onReconnect() after a reconnect (news may have been missed). Returns a stop function. */
export function watchTournaments(onTournament, onReconnect = () => {}) {
  let ws = null;
  let stopped = false;
  let attempt = 0;
  let opened = 0;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
    ws.onopen = () => {
      attempt = 0;
      // Always hello (signed in or not): a socket silent for RAMPART_HELLO_TIMEOUT_S is closed.
      ws.send(JSON.stringify(session.token ? { type: "hello", token: session.token } : { type: "hello" }));
      if (opened++ > 0) onReconnect();
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "tournament") onTournament(message);
      else if (message.type === "ping") ws.send(JSON.stringify({ type: "pong", nonce: message.nonce }));
    };
    ws.onclose = () => {
      if (stopped) return;
      attempt += 1;
      setTimeout(connect, Math.min(8000, 300 * 2 ** attempt));
    };
  }
  connect();
  return () => { stopped = true; if (ws) ws.close(); };
}
