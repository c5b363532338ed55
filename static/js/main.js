// The client's router: history-API routes to page modules; header and account badge.
import { session } from "./api.js";
import { refreshCalls, startCalls } from "./calls.js";
import { loadGames } from "./catalog.js";
import { h, icon, put } from "./dom.js";
import { mountHistory, mountMatch } from "./history.js";
import { mountHowto } from "./learn/howto.js";
import { mountPractice, mountPracticeStart } from "./learn/practice.js";
import { mountHome, mountJoin, mountLobby } from "./lobby.js";
import { mountQuickPlay } from "./quickplay.js";
import { mountTable } from "./table.js";
import { mountLadder, mountLadders } from "./ladders.js";
import { mountProfile } from "./profile.js";
import { mountAdmin } from "./admin.js";
import { mountTournament } from "./tournament.js";
import { mountTournaments } from "./tournaments.js";
import { mountTurnList, startTurns } from "./turns.js";

const root = document.getElementById("view");
let cleanup = () => {};

const ROUTES = [
  [/^\/$/, () => withQuickPlay(mountHome(root, navigate))],
  [/^\/lobby\/(\d+)$/, (id) => mountLobby(root, navigate, id)],
  [/^\/join\/(\d+)(?:\/([^/]+))?$/, (id, code) => mountJoin(root, navigate, id, code)],
  [/^\/table\/(\d+)$/, (id) => mountTable(root, Number(id))],
  [/^\/watch\/(\d+)$/, (id) => mountTable(root, Number(id), { spectate: true })],
  [/^\/matches$/, () => mountHistory(root)],
  [/^\/matches\/(\d+)$/, (id) => mountMatch(root, navigate, Number(id))],
  [/^\/tournaments$/, () => mountTournaments(root, navigate)],
  [/^\/tournaments\/(\d+)$/, (id) => mountTournament(root, navigate, id)],
  [/^\/ladders$/, () => mountLadders(root, navigate)],
  [/^\/ladders\/(\d+)$/, (id) => mountLadder(root, navigate, id)],
  [/^\/players\/(\d+)$/, (id) => mountProfile(root, navigate, id)],
  [/^\/admin$/, () => mountAdmin(root)],
  [/^\/howto(?:\/(\w+))?$/, (game) => mountHowto(root, game)],
  [/^\/practice\/(\w+)$/, (game) => mountPracticeStart(root, navigate, game)],
  [/^\/practice\/(\w+)\/(\d+)$/, (game, id) => mountPractice(root, navigate, game, Number(id))],
];

/** The start page with its quick-play panel (static/js/quickplay.js) after the account box
 * and the "Your turn" list (static/js/turns.js) atop the left column. */
function withQuickPlay(stopHome) {
  const stopQuickPlay = mountQuickPlay(root, navigate);
  const stopTurns = mountTurnList(root);
  return () => { stopTurns(); stopQuickPlay(); if (stopHome) stopHome(); };
}

export function navigate(path, { replace = false, state = null } = {}) {
  if (replace) history.replaceState(state, "", path);
  else history.pushState(state, "", path);
  route();
}

function route() {
  cleanup();
  cleanup = () => {};
  const path = location.pathname.replace(/\/+$/, "") || "/";
  document.body.dataset.page = path.split("/")[1] || "home";
  for (const [pattern, mount] of ROUTES) {
    const found = path.match(pattern);
    if (found) {
      cleanup = mount(...found.slice(1)) || (() => {});
      window.scrollTo(0, 0);
      refreshCalls();
      return;
    }
  }
  put(root, h("section.panel", h("h1", "Nothing here"), h("a.btn", { href: "/", "data-link": "" }, "Back to the lobby")));
}

function drawBadge() {
  const badge = document.getElementById("account-badge");
  const me = session.account;
  put(badge, me && session.token ? h("a#badge-profile", { href: `/players/${me.id}`, "data-link": "", title: "your profile" }, icon("castle"), " ", me.name) : h("span.muted", "not signed in"));
}

document.addEventListener("click", (ev) => {
  const link = ev.target.closest("a[data-link]");
  if (!link || ev.ctrlKey || ev.metaKey || ev.shiftKey || link.target) return;
  ev.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);
window.addEventListener("rampart:account", drawBadge);
drawBadge();
startCalls(navigate);
startTurns();
// Every page names games by the server's titles: the list is read first (a page still opens
// should it fail, naming games by their ids).
loadGames().catch(() => {}).then(route);
