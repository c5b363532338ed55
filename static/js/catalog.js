// The games this server plays, read once from GET /api/games (their titles and seat counts, for
// every page's lists, forms and headings), and a table's time control in words.
import { get } from "./api.js";
import { h } from "./dom.js";

const TITLES = {};
let listed = null;

/** The games ([{id, title, min_seats, max_seats, bots}]), fetched once; a failure is retried. */
export function loadGames() {
  if (!listed) {
    listed = get("/api/games", { auth: false }).then((games) => {
      for (const game of games) TITLES[game.id] = game.title;
      return games;
    });
    listed.catch(() => { listed = null; });
  }
  return listed;
}

/** A game's title as the server names it (its id until the list has arrived). */
export const gameTitle = (id) => TITLES[id] || id;

/** The ids of the games listed (main.js reads the list before it draws the first page). */
export const gameIds = () => Object.keys(TITLES);

/** The days a correspondence table may give each move (the server takes these only). */
export const DAYS_PER_MOVE = [1, 2, 3, 5, 7, 14];

/** A "days per move" choice for a form (``id``): none (real time) or one of DAYS_PER_MOVE;
 * ``showFor(game)`` hides it for games played in real time only (``correspondence`` false in
 * GET /api/games: Ambush!'s grab races need everyone at once) and clears it. */
export function daysPerMoveField(id, games) {
  const select = h(`select#${id}`, { "aria-label": "days per move (correspondence)" },
    h("option", { value: "" }, "Real time (no days per move)"),
    DAYS_PER_MOVE.map((n) => h("option", { value: String(n) }, `${n} ${n === 1 ? "day" : "days"} per move`)));
  const field = h("label.field.days-field", h("span", "Correspondence"), select);
  const showFor = (game) => {
    const g = games.find((x) => x.id === game);
    const allowed = !!(g && g.correspondence);
    field.hidden = !allowed;
    select.hidden = !allowed;
    if (!allowed) select.value = "";
  };
  return { select, field, showFor };
}

/** A time control in words: "2 days per move", "60s/turn, forfeit", or "untimed". */
export function timeControlText(tc) {
  if (tc && tc.days_per_move) return `${tc.days_per_move} ${tc.days_per_move === 1 ? "day" : "days"} per move`;
  if (!tc || !tc.turn_ms) return "untimed";
  return `${Math.round(tc.turn_ms / 1000)}s/turn${tc.on_timeout === "forfeit" ? ", forfeit" : ""}`;
}
