// The table's model (what the client knows of its match), its match clock (the server's match
// time, run on locally at the match's rate), and the context each renderer call gets.
import { toast } from "../dom.js";

/** A fresh model: window.__rampart for tests and curious players. */
export function tableModel(matchId, spectate) {
  return {
    matchId, spectate, seat: null, names: [], view: null, legal: [], version: 0,
    status: "running", clockBase: { ms: 0, t: performance.now(), rate: 1 }, deadlines: {},
    days: null, // a correspondence table's days per move (its deadlines are dates)
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

/** The ms left on ``seat``'s clock, or null (no deadline, the match is over, or a
 * correspondence table: days are shown as a date, ``moveBy``, never counted down). */
export function clockFor(t, seat) {
  const at = t.deadlines[String(seat)];
  return at === undefined || t.days || (t.view && t.view.outcome) ? null : at - matchNow(t);
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n) => String(n).padStart(2, "0");

/** A moment in the player's own time zone: "Tue 1 Dec, 14:05". */
export function dateWords(ms) {
  const d = new Date(ms);
  return `${WEEKDAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]}, ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A correspondence table's turn clock in words: "Move by Tue 1 Dec, 14:05" when this seat
 * is awaited, else "Bram to move by …" (the earliest awaited seat); "" otherwise. */
export function moveBy(t) {
  if (!t.days || (t.view && t.view.outcome)) return "";
  const wall = (at) => Date.now() + (at - matchNow(t)) / t.clockBase.rate;
  const mine = t.seat === null ? undefined : t.deadlines[String(t.seat)];
  if (mine !== undefined) return `Move by ${dateWords(wall(mine))}`;
  const [first] = Object.entries(t.deadlines).sort((a, b) => a[1] - b[1]);
  if (!first) return "";
  const who = t.names[Number(first[0])] || `Seat ${Number(first[0]) + 1}`;
  return `${who} to move by ${dateWords(wall(first[1]))}`;
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
