// The rematch offer on the result dialog: offer or accept (POST /api/matches/{id}/rematch),
// who has accepted so far, and off to the new match once every player has (the server's
// "rematch" and "rematch_started" news reaches us on /ws/lobby).
import { ApiError, post, session } from "./api.js";
import { h, put, toast } from "./dom.js";

const watches = new Map(); // match id -> { state, close }

function go(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

function blocks(matchId) {
  return document.querySelectorAll(`.rematch[data-match="${matchId}"]`);
}

function redraw(matchId) {
  const watch = watches.get(matchId);
  for (const el of blocks(matchId)) draw(el, matchId, watch ? watch.state : null);
}

function unwatch(matchId) {
  const watch = watches.get(matchId);
  if (!watch) return;
  watches.delete(matchId);
  clearInterval(watch.sweep);
  watch.close();
}

/** Listen on /ws/lobby for this match's rematch news (once per match). */
function watch(matchId) {
  if (watches.has(matchId) || !session.token) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  const entry = { state: null, close: () => ws.close(), sweep: null };
  watches.set(matchId, entry);
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: session.token }));
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "ping") ws.send(JSON.stringify({ type: "pong", nonce: message.nonce }));
    else if (message.type === "rematch" && message.match_id === matchId) { entry.state = message; redraw(matchId); }
    else if (message.type === "rematch_expired" && message.match_id === matchId) { entry.state = { expired: true }; redraw(matchId); }
    else if (message.type === "rematch_started" && message.from_match_id === matchId) {
      unwatch(matchId);
      go(`/table/${message.match_id}`);
    }
  };
  // The dialog is gone (the player left the table): stop listening.
  entry.sweep = setInterval(() => { if (!blocks(matchId).length) unwatch(matchId); }, 2000);
}

function draw(el, matchId, state) {
  const names = JSON.parse(el.dataset.names || "[]");
  const mySeat = Number(el.dataset.seat);
  // Whoever reads it is "you": a player never waits for himself under his castle's name.
  const who = (seats) => seats.map((s) => (s === mySeat ? "you" : names[s] || `Seat ${s + 1}`)).join(", ");
  const offered = state && !state.expired && state.accepted;
  const mine = offered && state.accepted.includes(mySeat);
  put(el,
    h("button#rematch-offer.btn.btn-primary", { type: "button", disabled: mine, onclick: () => offer(matchId) },
      mine ? "Rematch offered" : offered ? "Accept the rematch" : "Rematch"),
    h("span#rematch-state.rematch-who", { role: "status", "aria-live": "polite" },
      !state ? "Play the same table again (everyone has 60 s to accept)."
        : state.expired ? "The rematch offer lapsed."
          : [h("span.accepted", `Accepted: ${who(state.accepted)}`),
            state.waiting.length ? ` · waiting for ${who(state.waiting)}` : " · starting…"]));
}

async function offer(matchId) {
  watch(matchId);
  try {
    const state = await post(`/api/matches/${matchId}/rematch`, {});
    if (state.new_match_id) { unwatch(matchId); go(`/table/${state.new_match_id}`); return; }
    const entry = watches.get(matchId);
    if (entry) entry.state = { type: "rematch", ...state };
    redraw(matchId);
  } catch (err) {
    toast(err instanceof ApiError ? err.message : String(err), "error");
  }
}

/** The rematch block of a seated player's result dialog. */
export function rematchEl(matchId, names, seat) {
  const el = h("div.rematch", { "data-match": matchId, "data-seat": seat, "data-names": JSON.stringify(names || []) });
  watch(matchId);
  const entry = watches.get(matchId);
  draw(el, matchId, entry ? entry.state : null);
  return el;
}
