// The table's model (what the client knows of its match), its match clock (the server's match
// time, run on locally at the match's rate), and the context each renderer call gets.
import { toast } from "../dom.js";

/** A fresh model: window.__rampart for tests and curious players. */
export function tableModel(matchId, spectate) {
  return {
    matchId, spectate, seat: null, names: [], view: null, legal: [], version: 0,
    status: "running", clockBase: { ms: 0, t: performance.now(), rate: 1 }, deadlines: {},
    result: null, connection: "connecting", banner: null, ui: {}, renderer: null,
    away: new Set(), // seats whose player's link is down
  };
}

/** The server's match time at ``ms`` now (a message's at_ms or now_ms). */
export function setClock(t, ms) {
  if (typeof ms === "number") t.clockBase = { ms, t: performance.now(), rate: t.clockBase.rate };
}

/** The match time now, run on from the last reading. */
export const matchNow = (t) => t.clockBase.ms + (performance.now() - t.clockBase.t) * t.clockBase.rate;

/** The ms left on ``seat``'s clock, or null (no deadline, or the match is over). */
export function clockFor(t, seat) {
  const at = t.deadlines[String(seat)];
  return at === undefined || (t.view && t.view.outcome) ? null : at - matchNow(t);
}

/** The renderers' ctx (see table.js): ``table`` is the table's hub (model, elements, socket,
 * drawing). */
export function rendererContext(table, message = null) {
  const { t, els, socket } = table;
  return {
    view: t.view, legal: t.legal, seat: t.seat, names: t.names, version: t.version,
    send: (action) => socket.act(action), socket, els, ui: t.ui, toast, message,
    rerender: table.render, flash: table.flash, matchNow: () => matchNow(t),
    clockFor: (seat) => clockFor(t, seat), deadlines: t.deadlines, spectate: t.spectate,
  };
}
