// The games this server plays, read once from GET /api/games (their titles and seat counts, for
// every page's lists, forms and headings), and a table's time control in words.
import { get } from "./api.js";

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

/** A time control in words: "60s/turn, forfeit", or "untimed". */
export function timeControlText(tc) {
  if (!tc || !tc.turn_ms) return "untimed";
  return `${Math.round(tc.turn_ms / 1000)}s/turn${tc.on_timeout === "forfeit" ? ", forfeit" : ""}`;
}
