// The lobby websocket (/ws/lobby): open tables now, then every change; reconnects by itself.
import { session } from "./api.js";

/** watchLobbies(onList, onLobby, onStatus): returns a stop function. onList gets the full
 * listing on every (re)connect, onLobby each changed lobby (private ones only for their
 * members), onStatus "open" or "closed" as the socket comes and goes. */
export function watchLobbies(onList, onLobby, onStatus = () => {}) {
  return openFeed(
    (message) => {
      if (message.type === "lobbies") onList(message.lobbies);
      else if (message.type === "lobby") onLobby(message.lobby);
    },
    () => onStatus("open"),
    () => onStatus("closed"),
  );
}

/** openFeed(onMessage, onOpen, onClose): the lobby websocket for any page, reconnecting by
 * itself. It says hello (with the session's token when signed in) on every (re)connect and
 * answers pings; onMessage(message) gets every other message, onOpen() runs after each
 * (re)connect, onClose() each time the socket closes (stopped or not). Returns a stop
 * function. */
export function openFeed(onMessage, onOpen = () => {}, onClose = () => {}) {
  let ws = null;
  let stopped = false;
  let attempt = 0;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
    ws.onopen = () => {
      attempt = 0;
      // Always hello (signed in or not): a socket silent for RAMPART_HELLO_TIMEOUT_S is closed.
      ws.send(JSON.stringify(session.token ? { type: "hello", token: session.token } : { type: "hello" }));
      onOpen();
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "ping") ws.send(JSON.stringify({ type: "pong", nonce: message.nonce }));
      else onMessage(message);
    };
    ws.onclose = () => {
      onClose();
      if (stopped) return;
      attempt += 1;
      setTimeout(connect, Math.min(8000, 300 * 2 ** attempt));
    };
  }
  connect();
  return () => { stopped = true; if (ws) ws.close(); };
}
