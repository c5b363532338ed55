// Quick play on the start page: "Play now" per game and seat count (rated or casual), then a
// waiting panel (time waited, the estimate, Cancel) until the server seats us in a match.
import { ApiError, call, ensureGuest, fail, get, post, session } from "./api.js";
import { loadGames } from "./catalog.js";
import { h, put } from "./dom.js";

const TICKET_KEY = "rampart.ticket";
const POLL_MS = 2000;
const BOTS_AFTER_S = 30;

/** A socket on /ws/lobby that says hello with our token and calls onMatched(message) when the
 * server seats one of our tickets; returns a close function. */
function listenForMatch(onMatched) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: session.token }));
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "matched") onMatched(message);
    else if (message.type === "ping") ws.send(JSON.stringify({ type: "pong", nonce: message.nonce }));
  };
  return () => ws.close();
}

/** The quick-play panel; ``navigate`` takes us to the table once matched. Returns
 * { el, stop }. */
export function quickPlayPanel(navigate) {
  const rated = h("select#qp-rated", { "aria-label": "rated or casual" },
    h("option", { value: "casual" }, "Casual"), h("option", { value: "rated" }, "Rated"));
  const bots = h("input#qp-bots", { type: "checkbox" });
  const botsLabel = h("label.qp-bots", bots, ` Bots fill the table after ${BOTS_AFTER_S} s`);
  const syncBots = () => { bots.disabled = rated.value === "rated"; if (bots.disabled) bots.checked = false; };
  rated.addEventListener("change", syncBots);
  const games = h("ul#qp-games.qp-games", h("li.muted", "Loading games…"));
  const waited = h("strong#qp-waited", "0 s");
  const estimate = h("strong#qp-estimate", "…");
  const what = h("span#qp-what");
  const cancel = h("button#qp-cancel.btn", { type: "button" }, "Cancel");
  const waiting = h("div#qp-waiting.qp-waiting", { hidden: true, role: "status", "aria-live": "polite" },
    h("p", "Looking for ", what, "…"),
    h("p", "Waited ", waited, " · estimate ", estimate),
    cancel);
  // Refused while we still hold a seat in a running match: say so, and offer to rejoin it.
  const playing = h("p#qp-playing.qp-playing", { hidden: true, role: "alert" });
  const el = h("section#quick-play.panel.quick-play",
    h("h2", "Quick play"),
    h("p.muted", "One click: the server finds players of your strength and seats you at once."),
    h("div.row.wrap", h("label.field", h("span", "Ledger"), rated), botsLabel),
    playing, games, waiting);

  let ticket = null;
  let since = 0;
  let timer = null;
  let poller = null;
  let closeSocket = null;
  const stopWaiting = () => {
    clearInterval(timer); clearInterval(poller);
    if (closeSocket) closeSocket();
    timer = poller = closeSocket = null;
    ticket = null;
    sessionStorage.removeItem(TICKET_KEY);
    waiting.hidden = true;
    games.hidden = false;
  };
  const matched = (matchId) => { stopWaiting(); navigate(`/table/${matchId}`); };
  const show = (state) => {
    since = performance.now() - state.waited_s * 1000;
    estimate.textContent = `${Math.round(state.estimate_s)} s`;
  };
  async function poll() {
    if (!ticket) return;
    try {
      const state = await get(`/api/queue/${ticket.ticket}`);
      if (state.status === "matched") matched(state.match_id);
      else if (state.status === "cancelled") stopWaiting();
      else show(state);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) stopWaiting();
    }
  }
  function wait(state, label) {
    ticket = state;
    sessionStorage.setItem(TICKET_KEY, JSON.stringify({ ticket: state.ticket, label }));
    what.textContent = label;
    show(state);
    waiting.hidden = false;
    games.hidden = true;
    waiting.scrollIntoView({ block: "nearest" }); // seen at once, wherever Play now was clicked
    closeSocket = listenForMatch((message) => { if (ticket && message.ticket === ticket.ticket) matched(message.match_id); });
    timer = setInterval(() => { waited.textContent = `${Math.floor((performance.now() - since) / 1000)} s`; }, 250);
    poller = setInterval(poll, POLL_MS);
    poll();
  }
  async function playNow(game, seats) {
    const body = { game: game.id, seats, rated: rated.value === "rated" };
    if (bots.checked && !body.rated) body.bots_after_s = BOTS_AFTER_S;
    try {
      await ensureGuest(session.account ? session.account.name : "Wanderer");
      const label = `${body.rated ? "a rated" : "a casual"} ${game.title} table of ${seats}`;
      wait(await post("/api/queue", body), label);
      playing.hidden = true;
    } catch (err) {
      const matchId = err instanceof ApiError && err.code === "queue/already_playing" && err.error.match_id;
      if (!matchId) { fail(err); return; }
      put(playing, "You are still playing a match. Finish it (or resign) before you look for another: ",
        h("a#qp-rejoin", { href: `/table/${matchId}`, "data-link": "" }, "Rejoin it"), ".");
      playing.hidden = false;
    }
  }
  cancel.addEventListener("click", async () => {
    const current = ticket;
    stopWaiting();
    if (!current) return;
    try {
      const state = await call("DELETE", `/api/queue/${current.ticket}`);
      if (state.status === "matched") matched(state.match_id);
    } catch (err) { fail(err); }
  });
  syncBots();
  loadGames().then((list) => {
    put(games, list.map((game) => {
      const counts = [];
      for (let n = Math.max(2, game.min_seats); n <= game.max_seats; n += 1) counts.push(n);
      return h("li.qp-game", h("strong", game.title),
        h("span.qp-buttons", counts.map((n) => h(`button#qp-${game.id}-${n}.btn.btn-primary`,
          { type: "button", "data-game": game.id, "data-seats": n, onclick: () => playNow(game, n) },
          `Play now · ${n}`))));
    }));
  }).catch(fail);
  // A ticket from before a reload goes on waiting.
  try {
    const saved = JSON.parse(sessionStorage.getItem(TICKET_KEY) || "null");
    if (saved && session.token) get(`/api/queue/${saved.ticket}`).then((state) => {
      if (state.status === "waiting") wait(state, saved.label);
      else if (state.status === "matched") matched(state.match_id);
    }).catch(() => sessionStorage.removeItem(TICKET_KEY));
  } catch { sessionStorage.removeItem(TICKET_KEY); }
  return { el, stop: () => { clearInterval(timer); clearInterval(poller); if (closeSocket) closeSocket(); } };
}

/** Put the quick-play panel on the start page (mounted by lobby.js's mountHome): after the
 * account box and the player's matches in progress (their Rejoin buttons come first).
 * Returns its stop function. */
export function mountQuickPlay(root, navigate) {
  const column = root.querySelector(".home-grid .col");
  if (!column) return () => {};
  const panel = quickPlayPanel(navigate);
  const before = column.querySelector("#my-matches") || column.querySelector(".account");
  if (before) before.after(panel.el); else column.prepend(panel.el);
  return panel.stop;
}
