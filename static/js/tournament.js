// One tournament (/tournaments/{id}): entries, registration, organiser controls, rounds with
// their tables linking to matches, and standings with tiebreaks kept live by the lobby feed.
// The page's parts are in tournament/ (the sections drawn, the controls).
import { fail, get, session } from "./api.js";
import { h, put } from "./dom.js";
import { act, botChoices, drawControls } from "./tournament/controls.js";
import { drawEntries, drawHead, drawRounds, drawStandings } from "./tournament/sections.js";
import { watchTournaments } from "./tournamentfeed.js";

export function mountTournament(root, _navigate, id) {
  const page = tournamentPage(root, Number(id));
  put(page.els.head, h("p.muted", "Loading tournament…"));
  page.load();
  const stop = followNews(page);
  return () => { clearTimeout(page.timer); stop(); };
}

/** The page's boxes and what it knows: the tournament, its standings and rounds, who looks. */
function tournamentPage(root, tid) {
  const els = {
    head: h("section#t-head.panel.t-head"),
    controls: h("section#t-controls.panel.t-controls"),
    entries: h("section#t-entries.panel"),
    standings: h("section#t-standings.panel"),
    rounds: h("section#t-rounds.panel"),
  };
  put(root, h("div.tournament-page", els.head, els.controls,
    h("div.t-grid", h("div.col", els.standings, els.rounds), h("div.col", els.entries))));
  const page = {
    tid, els, tournament: null, standings: [], rounds: [], busy: false, timer: null, signIn: null,
    bots: botChoices(),
    me: () => (session.account && session.token ? session.account.id : null),
    isOrganiser: () => page.tournament && page.tournament.organiser_id === page.me(),
  };
  page.load = loader(page);
  return page;
}

function drawAll(page) {
  if (!page.tournament) return;
  drawHead(page);
  drawControls(page);
  drawEntries(page, (entryId) => act(page, "withdraw", { entry_id: entryId }));
  drawStandings(page);
  drawRounds(page);
}

/** Load the tournament, its standings and rounds, and draw them. Loads overlap (an action, the
 * feed's settle timer, a reconnect): only the latest started may draw, so an older answer
 * arriving last cannot put back what has changed since. */
function loader(page) {
  let loads = 0;
  return async () => {
    const mine = ++loads;
    const base = `/api/tournaments/${page.tid}`;
    try {
      const [t, s, r] = await Promise.all([get(base), get(`${base}/standings`), get(`${base}/rounds`)]);
      if (mine !== loads) return;
      page.tournament = t; page.standings = s; page.rounds = r;
      drawAll(page);
    } catch (err) {
      fail(err);
      if (!page.tournament) put(page.els.head, h("h1", "No such tournament"), h("a.btn", { href: "/tournaments", "data-link": "" }, "All tournaments"));
    }
  };
}

/** Live news from the lobby feed: standings come with the message and are drawn at once;
 * entries and rounds are reloaded once a burst of changes (a round's results) has settled. */
function followNews(page) {
  return watchTournaments((message) => {
    if (message.tournament.id !== page.tid) return;
    page.standings = message.standings;
    if (page.tournament) {
      page.tournament = { ...page.tournament, ...message.tournament, entries: page.tournament.entries };
      drawHead(page); drawStandings(page);
    }
    clearTimeout(page.timer);
    page.timer = setTimeout(page.load, 250);
  }, page.load);
}
