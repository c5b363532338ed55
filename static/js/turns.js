// Your turn, everywhere: the count of your matches that wait for you, in the header of every
// page, and the "Your turn" list on the start page. Both come from GET /api/accounts/me/matches,
// read again whenever the lobby socket says a match started or stopped waiting for you
// (`your_turn`, which also arrives when you moved in another tab) and after each reconnect.
import { get, session } from "./api.js";
import { gameTitle } from "./catalog.js";
import { h, put, when } from "./dom.js";
import { recordSeatLabel } from "./seats.js";

const REREAD_MS = 150; // several notices at once (a hot seat, a reconnect) make one read

let matches = []; // the latest answer's matches, newest move first
let timer = null;
let asked = 0; // answers older than the latest question are dropped
const lists = new Set(); // the start page's list, while it is shown
const badge = h("a#turn-badge.turn-badge", { href: "/", "data-link": "", hidden: true });

const waiting = () => matches.filter((m) => m.awaiting_you);

function drawBadge() {
  const count = waiting().length;
  badge.hidden = count === 0;
  badge.title = count === 1 ? "a match waits for your move" : `${count} matches wait for your move`;
  badge.setAttribute("aria-label", `Your turn: ${count}`);
  put(badge, h("span.turn-word", "Your turn"), h("span.turn-dot", { "aria-hidden": "true" }, "·"), h("strong#turn-count", `${count}`));
}

function opponents(match) {
  const others = match.seats.filter((s) => !match.your_seats.includes(s.seat));
  return others.map(recordSeatLabel).join(", ") || "yourself";
}

// A practice match is played on its own page, with the guided steps beside the table.
const tablePath = (m) => (m.seats.some((s) => s.bot === "practice") ? `/practice/${m.game}/${m.match_id}` : `/table/${m.match_id}`);

function drawList(section) {
  const mine = waiting();
  section.hidden = !matches.length;
  const rows = mine.map((m) => h("li.turn-row", { "data-match": m.match_id },
    h("div.turn-info",
      h("strong", gameTitle(m.game)), h("span.muted", ` against ${opponents(m)}`),
      h("div.turn-when", m.deadline
        ? ["Move by ", h("time", { datetime: m.deadline }, when(m.deadline))]
        : h("span.muted", "No turn clock"))),
    h("a.btn.btn-primary", { href: tablePath(m), "data-link": "" }, "Play")));
  put(section, h("h2", "Your turn"), notifyButton(),
    rows.length ? h("ul#turn-list.turn-list", rows)
      : h("p#turn-none.muted", `Nothing waits for you: ${matches.length === 1 ? "your match waits" : "your matches wait"} for the others.`));
}

function draw() {
  drawBadge();
  for (const section of lists) drawList(section);
}

// Browser notifications: a match that starts waiting for you while this tab is hidden shows
// one (once you allowed them with the list's button). Each waiting match is announced once;
// those waiting at the first read, or while the tab is in view, are seen, not announced.
const notifying = () => "Notification" in window && Notification.permission === "granted";
const seen = new Set();
let primed = false;

function announce() {
  const now = waiting();
  for (const id of [...seen]) if (!now.some((m) => m.match_id === id)) seen.delete(id);
  for (const m of now) {
    if (seen.has(m.match_id)) continue;
    seen.add(m.match_id);
    if (!primed || !document.hidden || !notifying()) continue;
    const note = new Notification("Your turn", { body: `${gameTitle(m.game)} against ${opponents(m)}`, tag: `turn-${m.match_id}` });
    note.onclick = () => { window.focus(); location.assign(tablePath(m)); };
  }
  primed = true;
}

function notifyButton() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const button = h("button#turn-notify.btn", { type: "button" }, "Notify me in this browser");
  button.addEventListener("click", async () => { await Notification.requestPermission(); draw(); });
  return button;
}

async function reread() {
  const question = ++asked;
  if (!session.token) { matches = []; draw(); return; }
  try {
    const answer = await get("/api/accounts/me/matches");
    if (question === asked) {
      matches = answer.matches;
      draw();
      announce();
    }
  } catch {
    // Signed out or the server away: the next notice or reconnect reads again.
  }
}

function soon() {
  clearTimeout(timer);
  timer = setTimeout(reread, REREAD_MS);
}

/** Once, at start-up: the header's count, kept up to date from the lobby socket that
 * static/js/calls.js opens (its `rampart:lobby` and `rampart:lobby-open` events). */
export function startTurns() {
  const account = document.getElementById("account-badge");
  account.before(badge);
  window.addEventListener("rampart:lobby", (event) => { if (event.detail.type === "your_turn") soon(); });
  window.addEventListener("rampart:lobby-open", soon);
  window.addEventListener("rampart:account", soon);
  soon();
}

/** The start page's "Your turn" list, placed first in its left column; returns its stop. */
export function mountTurnList(root) {
  const section = h("section#your-turn.panel.turn-panel", { hidden: true, "aria-live": "polite" });
  const column = root.querySelector(".home-grid .col");
  if (!column) return () => {};
  column.prepend(section);
  lists.add(section);
  drawList(section);
  soon();
  return () => { lists.delete(section); };
}
