// Tournament news from the lobby websocket (/ws/lobby): `tournament{tournament, standings,
// pairings}` after every change; reconnects by itself (lobbyfeed.js's openFeed).
import { openFeed } from "./lobbyfeed.js";

/** watchTournaments(onTournament, onReconnect): onTournament(message) for every tournament
 * change, onReconnect() after a reconnect (news may have been missed). Returns a stop function. */
export function watchTournaments(onTournament, onReconnect = () => {}) {
  let opened = 0;
  return openFeed(
    (message) => {
      if (message.type === "tournament") onTournament(message);
    },
    () => {
      if (opened++ > 0) onReconnect();
    },
  );
}
