// One tournament's page, drawn from what was loaded (``page``: the tournament, its standings
// and rounds, who is looking): the heading, the entries, the standings and the rounds.
import { gameTitle, timeControlText } from "../catalog.js";
import { h, icon, put, signed, when } from "../dom.js";
import { FORMATS, STATUS_WORDS, playerLink, tidy } from "../tournaments.js";

const isMe = (page, accountId) => accountId !== null && accountId === page.me();

/** The name, status, format and settings, the round, and the winner once finished. */
export function drawHead(page) {
  const t = page.tournament;
  put(page.els.head,
    h("div.room-head",
      h("h1#t-title", t.name || `Tournament #${t.id}`),
      h("span#t-status.tag", { class: `status-${t.status}` }, STATUS_WORDS[t.status] || t.status)),
    h("div.tags",
      h("span.tag", gameTitle(t.game)), h("span.tag", FORMATS[t.format] || t.format),
      h("span.tag", `${t.table_size} per table`), h("span.tag", t.rated ? "rated" : "casual"),
      h("span.tag.allow-bots", t.allow_bots ? "bot accounts may register" : "no bot accounts"),
      h("span.tag", timeControlText(t.time_control)),
      h("span#t-round.tag.tag-gold", t.current_round ? `round ${t.current_round}${t.rounds ? ` of ${t.rounds}` : ""}` : t.rounds ? `${t.rounds} rounds` : "rounds set at start"),
      t.late_join_until !== null && t.late_join_until !== undefined ? h("span.tag", `late join until round ${t.late_join_until}`) : null),
    t.status === "finished" ? h("p#t-final.t-final", icon("star"), " Final standings — ", h("strong", winnerText(page.standings))) : null,
    h("p.muted.t-dates", t.started_at ? `Started ${when(t.started_at)}` : `Created ${when(t.created_at)}`, t.finished_at ? ` · finished ${when(t.finished_at)}` : ""));
}

function winnerText(standings) {
  const top = standings.filter((s) => s.rank === 1).map((s) => s.name);
  return top.length ? `${top.join(" & ")} ${top.length > 1 ? "share" : "wins"} the tournament` : "";
}

/** The entries by seed; the organiser may remove one (``onRemove(entryId)``). */
export function drawEntries(page, onRemove) {
  const t = page.tournament;
  const canRemove = page.isOrganiser() && t.status !== "finished";
  const sorted = [...t.entries].sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
  put(page.els.entries, h("h2", `Entries (${t.entries.length})`),
    sorted.length ? h("ol#t-entry-list.t-entries", sorted.map((e, i) => h("li.t-entry", { "data-entry": e.id, class: `${e.status === "withdrawn" ? "withdrawn" : ""} ${isMe(page, e.account_id) ? "mine" : ""}` },
      h("span.seat-no", { title: e.seed ? "seed" : "registration order" }, e.seed ?? i + 1), playerLink(e.name, e.account_id, e.bot, e.bot_account),
      e.status === "withdrawn" ? h("span.tag", "withdrawn") : null,
      e.joined_round ? h("span.tag", `joined round ${e.joined_round}`) : null,
      canRemove && e.status === "active" && !isMe(page, e.account_id) ? h("button.btn.btn-quiet.t-remove", { title: "withdraw this entry", onclick: () => onRemove(e.id) }, "Remove") : null)))
      : h("p.muted", "Nobody has registered yet."));
}

/** The standings with their tiebreaks, once the tournament has started. */
export function drawStandings(page) {
  const { tournament, standings } = page;
  const over = tournament.status === "finished";
  const rows = standings.map((s) => h("tr", { "data-entry": s.entry_id, class: `${s.withdrawn ? "withdrawn" : ""} ${isMe(page, s.account_id) ? "mine" : ""} ${over && s.rank === 1 ? "champion" : ""}` },
    h("td.rank", `${s.rank}`), h("td", playerLink(s.name, s.account_id, s.bot, s.bot_account), s.withdrawn ? h("span.tag", "withdrawn") : null),
    h("td.points", `${s.points}`), h("td", `${s.played}`),
    h("td.wdl", `${s.wins}/${s.draws}/${s.losses}`), h("td", `${s.byes}`),
    h("td", tidy(s.buchholz)), h("td", tidy(s.sonneborn_berger)), h("td", tidy(s.head_to_head))));
  put(page.els.standings, h("h2", over ? "Final standings" : "Standings"),
    standings.length && tournament.current_round ? h("div.scroll", h("table#t-standings-table.matches.standings",
      h("thead", h("tr", h("th", "#"), h("th", "Player"), h("th", { title: "1500-point ledger" }, "Points"), h("th", "Played"),
        h("th", { title: "wins / draws / losses" }, "W/D/L"), h("th", "Byes"), h("th", { title: "Buchholz: sum of opponents' scores" }, "Buchholz"),
        h("th", { title: "Sonneborn-Berger: scores of the opponents you beat" }, "S-B"), h("th", { title: "head-to-head among the tied" }, "H2H"))),
      h("tbody", rows))) : h("p.muted", "Standings appear once the tournament starts."));
}

/** Every round, the latest first: its tables, their results, and links to their matches. */
export function drawRounds(page) {
  const { rounds } = page;
  const box = page.els.rounds;
  if (!rounds.length) { put(box, h("h2", "Rounds"), h("p.muted", "Round 1 is paired when the organiser starts.")); return; }
  put(box, h("h2", "Rounds"), [...rounds].reverse().map((r) => h("div.t-round", { "data-round": r.number },
    h("h3", `Round ${r.number}`, h("span.tag", { class: `status-${r.status === "finished" ? "finished" : "running"}` }, r.status)),
    h("ol.t-tables", r.pairings.map((p) => h("li.t-table", { "data-table": p.table, "data-match": p.match_id ?? "" },
      h("span.seat-no", `${p.table}`),
      h("span.t-names", p.names.join(" vs ")),
      resultText(page, p), matchLink(page, p)))),
    r.bye_names && r.bye_names.length ? h("p.t-byes.muted", "Bye: ", r.bye_names.join(", ")) : null)));
}

function matchLink(page, p) {
  if (p.match_id === null || p.match_id === undefined) return h("span.muted", "—");
  if (p.status === "finished") return h("a.t-match", { href: `/matches/${p.match_id}`, "data-link": "" }, `match #${p.match_id}`);
  const seated = page.tournament.entries.some((e) => p.entries.includes(e.id) && isMe(page, e.account_id));
  return seated
    ? h("a.btn.btn-primary.t-match", { href: `/table/${p.match_id}`, "data-link": "" }, "Play")
    : h("a.t-match", { href: `/watch/${p.match_id}`, "data-link": "" }, "watch live");
}

function resultText(page, p) {
  if (p.status !== "finished" || !p.placings || !p.placings.length) return h("span.tag.status-running", "playing");
  const by = new Map(page.tournament.entries.map((e) => [e.id, e]));
  const first = p.placings[0].map((e) => (by.get(e) || {}).name || "?");
  const shared = p.placings.length === 1 && p.placings[0].length > 1;
  const changes = p.entries.map((e) => signed((p.changes || {})[e] ?? (p.changes || {})[String(e)] ?? 0)).join(" / ");
  return h("span.t-result", shared ? "draw" : `${first.join(" & ")} won`, h("span.muted", ` (${changes})`),
    p.forfeited && p.forfeited.length ? h("span.tag", "forfeit") : null);
}
