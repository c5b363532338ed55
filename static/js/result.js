// The end of a match: placings, how each castle ended, and the ledger changes.
import { h, signed } from "./dom.js";

/** The result dialog; ``record`` is GET /api/matches/{id} (null while it loads). */
export function resultEl({ view, names, seat, record, matchId }) {
  const outcome = view.outcome;
  const deltas = {};
  if (record && record.seats) for (const s of record.seats) deltas[s.seat] = s.ledger_delta;
  const won = seat !== null && outcome.placings.length > 1 && outcome.placings[0].includes(seat);
  const fate = (s) => {
    const entry = outcome.seats && outcome.seats[s];
    if (!entry) return "";
    return entry.destroyed ? "destroyed" : entry.resigned ? "resigned" : "standing";
  };
  const rows = outcome.placings.flatMap((group, place) => group.map((s) =>
    h("tr", { class: s === seat ? "mine" : "" },
      h("td", `${place + 1}.`), h("td", names[s] || `Seat ${s + 1}`), h("td", fate(s)),
      h("td.delta", { "data-seat": s }, record && record.seats ? signed(deltas[s]) : "…"))));
  const title = seat === null ? "Result" : won ? "Victory!" : outcome.placings.length === 1 ? "A draw" : "Defeat";
  return h("div.result", { role: "dialog", "aria-label": "result" },
    h("h2", title),
    h("p.muted", `Ended: ${outcome.reason.replace(/_/g, " ")}`),
    h("table.result-table",
      h("thead", h("tr", h("th", "#"), h("th", "Castle"), h("th", ""), h("th", "Ledger"))),
      h("tbody", rows)),
    h("div.result-actions",
      h("a.btn.btn-primary", { href: "/", "data-link": "" }, "Back to the lobby"),
      h("a.btn", { href: `/matches/${matchId}`, "data-link": "" }, "Replay this match"),
      h("button.btn.btn-quiet", { onclick: (ev) => ev.target.closest(".result").classList.add("minimised") }, "Look at the table")));
}
