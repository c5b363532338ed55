// Each game's card data as the server serves it (GET /api/games/{game}/cards: names, numbers
// and texts as the engine plays them), fetched once per page; a failed fetch is tried again.
import { get } from "../api.js";

const fetched = new Map();

/** The served card data of ``game`` (a promise, shared by every caller). */
export function cardData(game) {
  let pending = fetched.get(game);
  if (!pending) {
    pending = get(`/api/games/${game}/cards`, { auth: false });
    pending.catch(() => fetched.delete(game));
    fetched.set(game, pending);
  }
  return pending;
}
