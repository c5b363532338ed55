// A tournament's call to your table, on every page: when a round is paired the server sends
// `table_ready` on the lobby websocket; the page counts down and takes you to the table (unless
// you are playing at another table, or choose to stay), and a notice stays on every page while
// a table waits for you, until `table_closed`.
import { session } from "./api.js";
import { h, put } from "./dom.js";
import { openFeed } from "./lobbyfeed.js";

const COUNTDOWN_S = 5;
const waiting = new Map(); // match id -> the table_ready call
let counting = null; // { call, left, timer }
let stopFeed = null;
let navigate = (path) => { location.href = path; };
const notice = h("div#call-notice.call-notice", { hidden: true });

const tablePath = (call) => `/table/${call.match_id}`;
const here = (call) => location.pathname.replace(/\/+$/, "") === tablePath(call);
const words = (call) => `${call.tournament ? `${call.tournament}, ` : ""}round ${call.round}`;

/** Seated at a live table (a match or a practice game not yet over): a call must not pull the
 * player away from it, only tell him. */
function playingElsewhere() {
  const page = document.body.dataset.page;
  return (page === "table" || page === "practice") && !document.querySelector(".result");
}

function go(call) {
  stopCounting();
  navigate(tablePath(call));
}

function stopCounting() {
  if (counting) clearInterval(counting.timer);
  counting = null;
}

function startCounting(call) {
  stopCounting();
  counting = { call, left: COUNTDOWN_S, timer: null };
  counting.timer = setInterval(() => {
    counting.left -= 1;
    if (counting.left <= 0) go(counting.call);
    else draw();
  }, 1000);
}

function draw() {
  if (counting && here(counting.call)) stopCounting();
  const call = counting ? counting.call : [...waiting.values()].find((c) => !here(c));
  notice.hidden = !call;
  document.body.classList.toggle("called", Boolean(call));
  if (!call) { put(notice); return; }
  notice.classList.toggle("counting", Boolean(counting));
  if (counting) {
    notice.setAttribute("role", "alertdialog");
    notice.setAttribute("aria-label", "your table is ready");
    put(notice,
      h("p.call-text", { "aria-live": "assertive" },
        h("strong", `Your round ${call.round} match starts`), call.tournament ? ` (${call.tournament})` : "",
        ": taking you to your table in ", h("span#call-seconds.call-seconds", `${counting.left}`), "…"),
      h("div.call-actions",
        h("button#call-go.btn.btn-primary", { type: "button", onclick: () => go(call) }, "Go now"),
        h("button#call-stay.btn.btn-quiet", { type: "button", onclick: () => { stopCounting(); draw(); } }, "Stay here")));
    return;
  }
  notice.setAttribute("role", "status");
  notice.removeAttribute("aria-label");
  put(notice,
    h("p.call-text", h("strong", "Your table is waiting for you"), ` (${words(call)}).`),
    h("div.call-actions",
      h("button#call-go.btn.btn-primary", { type: "button", onclick: () => go(call) }, "Go to your table")));
}

function onCall(message) {
  if (message.type === "table_ready") {
    waiting.set(message.match_id, message);
    if (message.fresh && !here(message) && !playingElsewhere()) startCounting(message);
  } else if (message.type === "table_closed") {
    waiting.delete(message.match_id);
    if (counting && counting.call.match_id === message.match_id) stopCounting();
  } else {
    return;
  }
  draw();
}

function listen() {
  if (stopFeed) stopFeed();
  stopFeed = null;
  stopCounting();
  waiting.clear();
  draw();
  if (!session.token) return;
  // Every (re)connect is answered with the tables waiting now: start from those.
  // Other modules hear this one socket too: each message as a `rampart:lobby` event, each
  // (re)connect as `rampart:lobby-open` (static/js/turns.js).
  const tell = (message) => window.dispatchEvent(new CustomEvent("rampart:lobby", { detail: message }));
  const opened = () => window.dispatchEvent(new Event("rampart:lobby-open"));
  stopFeed = openFeed((message) => { onCall(message); tell(message); }, () => { waiting.clear(); draw(); opened(); });
}

/** Once, at start-up: listen for calls as the signed-in player, again after a sign-in. */
export function startCalls(nav) {
  navigate = nav;
  document.body.append(notice);
  window.addEventListener("rampart:account", listen);
  listen();
}

/** After every route change: no notice for the table the player is at. */
export function refreshCalls() {
  draw();
}
