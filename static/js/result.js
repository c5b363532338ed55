// The end of a match: placings, how each seat ended (in the game's own words), and the ledger
// changes of a rated match.
import { h, signed } from "./dom.js";
import { rematchEl } from "./rematch.js";

// Column heading and fates per game: Ember has players and stones, not castles.
const WORDS = {
  ember: { who: "Player", standing: "in play", destroyed: "out", resigned: "resigned" },
  default: { who: "Player", standing: "standing", destroyed: "destroyed", resigned: "resigned" },
};

/** The words a result uses for ``game``. */
export function resultWords(game) {
  return WORDS[game] || WORDS.default;
}

/** The result dialog; ``record`` is GET /api/matches/{id} (null while it loads). Only a rated
 * match shows ledger changes: a casual one has none to show. ``rated`` comes with the match's
 * welcome, so the columns are right before the record arrives (without it, the record says).
 * ``score(seat)``: the seat's score in the game's words (HP, stones), ``ending``: how the
 * match ended in words (the game's renderer gives both; without them no score column, and the
 * bare reason). */
export function resultEl({ view, names, seat, record, rated: ratedKnown = null, matchId, score = null, ending = null }) {
  const outcome = view.outcome;
  const words = resultWords(view.game);
  const deltas = {};
  if (record && record.seats) for (const s of record.seats) deltas[s.seat] = s.ledger_delta;
  const rated = ratedKnown ?? (record ? record.rated !== false : null);
  const tournament = record ? record.tournament_id : null;
  const won = seat !== null && outcome.placings.length > 1 && outcome.placings[0].includes(seat);
  const fate = (s) => {
    const entry = outcome.seats && outcome.seats[s];
    if (!entry) return "";
    return entry.destroyed ? words.destroyed : entry.resigned ? words.resigned : words.standing;
  };
  const ledgerCell = (s) => (rated === false ? null
    : h("td.delta", { "data-seat": s }, record && record.seats ? signed(deltas[s]) : "…"));
  const rows = outcome.placings.flatMap((group, place) => group.map((s) =>
    h("tr", { class: s === seat ? "mine" : "" },
      h("td", `${place + 1}.`), h("td", names[s] || `Seat ${s + 1}`), h("td", fate(s)),
      score ? h("td.score", { "data-seat": s }, score(s)) : null, ledgerCell(s))));
  const title = seat === null ? "Result" : won ? "Victory!" : outcome.placings.length === 1 ? "A draw" : "Defeat";
  return h("div.result", { role: "dialog", "aria-label": "result" },
    h("h2", title),
    h("p.muted.result-ending", `Ended: ${ending || outcome.reason.replace(/_/g, " ")}${rated === false ? " · casual match, no ledger change" : ""}`),
    h("table.result-table",
      h("thead", h("tr", h("th", "#"), h("th", words.who), h("th", ""), score ? h("th", "Score") : null,
        rated === false ? null : h("th", "Ledger"))),
      h("tbody", rows)),
    // A tournament's table leads back to the tournament (its next round calls the player to
    // his next table: static/js/calls.js); any other table offers a rematch.
    seat === null || tournament ? null : rematchEl(matchId, names, seat),
    h("div.result-actions",
      tournament ? h("a#result-tournament.btn.btn-primary", { href: `/tournaments/${tournament}`, "data-link": "" }, "Back to the tournament") : null,
      h("a.btn", { class: tournament ? "" : "btn-primary", href: "/", "data-link": "" }, "Back to the lobby"),
      h("a.btn", { href: `/matches/${matchId}`, "data-link": "" }, "Replay this match"),
      h("button.btn.btn-quiet", { onclick: (ev) => ev.target.closest(".result").classList.add("minimised") }, "Look at the table")));
}
