// One tournament (/tournaments/{id}): entries, registration, organiser controls, rounds with
// their tables linking to matches, and standings with tiebreaks kept live by the lobby feed.
import { ensureGuest, get, post, session } from "./api.js";
import { h, icon, put, signed, when } from "./dom.js";
import { botLevelSelect } from "./gameoptions.js";
import { accountPanel } from "./lobby.js";
import { watchTournaments } from "./tournamentfeed.js";
import { FORMATS, STATUS_WORDS, fail, gameTitle, playerLink, timeControlText, tidy } from "./tournaments.js";

export function mountTournament(root, _navigate, id) {
  const tid = Number(id);
  let tournament = null;
  let standings = [];
  let rounds = [];
  let busy = false;
  let timer = null;
  let signIn = null;
  const head = h("section#t-head.panel.t-head");
  const controls = h("section#t-controls.panel.t-controls");
  const entriesBox = h("section#t-entries.panel");
  const standingsBox = h("section#t-standings.panel");
  const roundsBox = h("section#t-rounds.panel");
  // Kept across redraws: live news must not reset what the organiser is typing.
  const botKind = h("select#t-bot-kind", { "aria-label": "bot kind" }, h("option", { value: "heuristic" }, "Heuristic bots"), h("option", { value: "random" }, "Random bots"));
  const botLevel = botLevelSelect("t-bot-level");
  const botCount = h("input#t-bot-count", { type: "number", min: 1, max: 64, value: 1, "aria-label": "how many bots" });
  put(root, h("div.tournament-page", head, controls,
    h("div.t-grid", h("div.col", standingsBox, roundsBox), h("div.col", entriesBox))));

  const me = () => (session.account && session.token ? session.account.id : null);
  const isOrganiser = () => tournament && tournament.organiser_id === me();
  const myEntry = () => tournament && tournament.entries.find((e) => e.account_id === me() && e.status === "active");
  const names = () => new Map((tournament ? tournament.entries : []).map((e) => [e.id, e]));

  async function act(path, body) {
    if (busy) return;
    busy = true;
    try {
      await post(`/api/tournaments/${tid}/${path}`, body);
      await load();
    } catch (err) { fail(err); } finally { busy = false; drawControls(); }
  }

  function drawHead() {
    const t = tournament;
    put(head,
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
      t.status === "finished" ? h("p#t-final.t-final", icon("star"), " Final standings — ", h("strong", winnerText())) : null,
      h("p.muted.t-dates", t.started_at ? `Started ${when(t.started_at)}` : `Created ${when(t.created_at)}`, t.finished_at ? ` · finished ${when(t.finished_at)}` : ""));
  }

  function winnerText() {
    const top = standings.filter((s) => s.rank === 1).map((s) => s.name);
    return top.length ? `${top.join(" & ")} ${top.length > 1 ? "share" : "wins"} the tournament` : "";
  }

  function drawControls() {
    const t = tournament;
    if (!t) return;
    const parts = [];
    if (!me()) {
      const open = t.status === "registration" || t.status === "running";
      // One panel for the page's life: live redraws must not wipe a name being typed.
      if (open && !signIn) signIn = accountPanel(() => { load(); });
      put(controls, open ? signIn : null);
      controls.hidden = !open;
      return;
    }
    const mine = myEntry();
    const row = h("div.room-actions");
    if (mine) {
      row.append(h("span.t-you", icon("shield"), ` You are entered${mine.seed ? ` (seed ${mine.seed})` : ""}.`));
      if (t.status !== "finished") row.append(h("button#t-withdraw.btn.btn-quiet", { disabled: busy, onclick: () => { if (confirm("Withdraw from this tournament?")) act("withdraw", {}); } }, "Withdraw"));
    } else if (t.status === "registration" || t.status === "running") {
      row.append(h("button#t-register.btn.btn-primary", { disabled: busy, onclick: async () => {
        try { await ensureGuest("Wanderer"); } catch (err) { fail(err); return; }
        act("register", {});
      } }, t.status === "running" ? "Join late" : "Register"));
    } else if (t.status === "draft") {
      row.append(h("span.muted", "Registration has not opened yet."));
    }
    parts.push(row);
    if (isOrganiser() && t.status !== "finished") {
      const org = h("div.room-actions.t-organiser", h("span.tag.tag-gold", "organiser"));
      if (t.status === "draft") org.append(h("button#t-open.btn.btn-primary", { disabled: busy, onclick: () => act("open", {}) }, "Open registration"));
      if (t.status === "registration" || t.status === "running") {
        org.append(botCount, botKind, botLevel, h("button#t-add-bots.btn", { disabled: busy, onclick: () => act("bots", { kind: botKind.value, difficulty: botLevel.value, count: Number(botCount.value) || 1 }) }, "Add bots"));
      }
      if (t.status === "registration") {
        org.append(h("button#t-start.btn.btn-primary", { disabled: busy || t.entries.length < 2, onclick: () => act("start", {}) }, "Start the tournament"));
      }
      parts.push(org);
    }
    put(controls, parts);
    controls.hidden = !controls.querySelector("button, input, .t-you");
  }

  function drawEntries() {
    const t = tournament;
    const canRemove = isOrganiser() && t.status !== "finished";
    const sorted = [...t.entries].sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9) || a.id - b.id);
    put(entriesBox, h("h2", `Entries (${t.entries.length})`),
      sorted.length ? h("ol#t-entry-list.t-entries", sorted.map((e, i) => h("li.t-entry", { "data-entry": e.id, class: `${e.status === "withdrawn" ? "withdrawn" : ""} ${e.account_id !== null && e.account_id === me() ? "mine" : ""}` },
        h("span.seat-no", { title: e.seed ? "seed" : "registration order" }, e.seed ?? i + 1), playerLink(e.name, e.account_id, e.bot, e.bot_account),
        e.status === "withdrawn" ? h("span.tag", "withdrawn") : null,
        e.joined_round ? h("span.tag", `joined round ${e.joined_round}`) : null,
        canRemove && e.status === "active" && e.account_id !== me() ? h("button.btn.btn-quiet.t-remove", { title: "withdraw this entry", onclick: () => act("withdraw", { entry_id: e.id }) }, "Remove") : null)))
        : h("p.muted", "Nobody has registered yet."));
  }

  function drawStandings() {
    const over = tournament.status === "finished";
    const rows = standings.map((s) => h("tr", { "data-entry": s.entry_id, class: `${s.withdrawn ? "withdrawn" : ""} ${s.account_id !== null && s.account_id === me() ? "mine" : ""} ${over && s.rank === 1 ? "champion" : ""}` },
      h("td.rank", `${s.rank}`), h("td", playerLink(s.name, s.account_id, s.bot, s.bot_account), s.withdrawn ? h("span.tag", "withdrawn") : null),
      h("td.points", `${s.points}`), h("td", `${s.played}`),
      h("td.wdl", `${s.wins}/${s.draws}/${s.losses}`), h("td", `${s.byes}`),
      h("td", tidy(s.buchholz)), h("td", tidy(s.sonneborn_berger)), h("td", tidy(s.head_to_head))));
    put(standingsBox, h("h2", tournament.status === "finished" ? "Final standings" : "Standings"),
      standings.length && tournament.current_round ? h("div.scroll", h("table#t-standings-table.matches.standings",
        h("thead", h("tr", h("th", "#"), h("th", "Player"), h("th", { title: "1500-point ledger" }, "Points"), h("th", "Played"),
          h("th", { title: "wins / draws / losses" }, "W/D/L"), h("th", "Byes"), h("th", { title: "Buchholz: sum of opponents' scores" }, "Buchholz"),
          h("th", { title: "Sonneborn-Berger: scores of the opponents you beat" }, "S-B"), h("th", { title: "head-to-head among the tied" }, "H2H"))),
        h("tbody", rows))) : h("p.muted", "Standings appear once the tournament starts."));
  }

  function matchLink(p) {
    if (p.match_id === null || p.match_id === undefined) return h("span.muted", "—");
    if (p.status === "finished") return h("a.t-match", { href: `/matches/${p.match_id}`, "data-link": "" }, `match #${p.match_id}`);
    const seated = tournament.entries.some((e) => p.entries.includes(e.id) && e.account_id !== null && e.account_id === me());
    return seated
      ? h("a.btn.btn-primary.t-match", { href: `/table/${p.match_id}`, "data-link": "" }, "Play")
      : h("a.t-match", { href: `/watch/${p.match_id}`, "data-link": "" }, "watch live");
  }

  function resultText(p) {
    if (p.status !== "finished" || !p.placings || !p.placings.length) return h("span.tag.status-running", "playing");
    const by = names();
    const first = p.placings[0].map((e) => (by.get(e) || {}).name || "?");
    const shared = p.placings.length === 1 && p.placings[0].length > 1;
    const changes = p.entries.map((e) => signed((p.changes || {})[e] ?? (p.changes || {})[String(e)] ?? 0)).join(" / ");
    return h("span.t-result", shared ? "draw" : `${first.join(" & ")} won`, h("span.muted", ` (${changes})`),
      p.forfeited && p.forfeited.length ? h("span.tag", "forfeit") : null);
  }

  function drawRounds() {
    if (!rounds.length) { put(roundsBox, h("h2", "Rounds"), h("p.muted", "Round 1 is paired when the organiser starts.")); return; }
    put(roundsBox, h("h2", "Rounds"), [...rounds].reverse().map((r) => h("div.t-round", { "data-round": r.number },
      h("h3", `Round ${r.number}`, h("span.tag", { class: `status-${r.status === "finished" ? "finished" : "running"}` }, r.status)),
      h("ol.t-tables", r.pairings.map((p) => h("li.t-table", { "data-table": p.table, "data-match": p.match_id ?? "" },
        h("span.seat-no", `${p.table}`),
        h("span.t-names", p.names.join(" vs ")),
        resultText(p), matchLink(p)))),
      r.bye_names && r.bye_names.length ? h("p.t-byes.muted", "Bye: ", r.bye_names.join(", ")) : null)));
  }

  function drawAll() {
    if (!tournament) return;
    drawHead(); drawControls(); drawEntries(); drawStandings(); drawRounds();
  }

  // Loads overlap (an action, the feed's settle timer, a reconnect): only the latest started
  // may draw, so an older answer arriving last cannot put back what has changed since.
  let loads = 0;
  async function load() {
    const mine = ++loads;
    try {
      const [t, s, r] = await Promise.all([
        get(`/api/tournaments/${tid}`), get(`/api/tournaments/${tid}/standings`), get(`/api/tournaments/${tid}/rounds`)]);
      if (mine !== loads) return;
      tournament = t; standings = s; rounds = r;
      drawAll();
    } catch (err) {
      fail(err);
      if (!tournament) put(head, h("h1", "No such tournament"), h("a.btn", { href: "/tournaments", "data-link": "" }, "All tournaments"));
    }
  }

  put(head, h("p.muted", "Loading tournament…"));
  load();
  const stop = watchTournaments((message) => {
    if (message.tournament.id !== tid) return;
    // Standings come with the message: draw them at once, then refresh entries and rounds
    // once a burst of changes (a round's results) has settled.
    standings = message.standings;
    if (tournament) {
      tournament = { ...tournament, ...message.tournament, entries: tournament.entries };
      drawHead(); drawStandings();
    }
    clearTimeout(timer);
    timer = setTimeout(load, 250);
  }, load);
  return () => { clearTimeout(timer); stop(); };
}
