// A player's profile (/players/{id}): ladders (ledger and ratings), tournaments, recent
// matches, and the rating history drawn as an SVG chart per ladder.
import { fail, get, post, session } from "./api.js";
import { gameTitle } from "./catalog.js";
import { h, put, signed, toast, when } from "./dom.js";
import { emailBox } from "./email.js";
import { lineChart } from "./chart.js";
import { ratingCell } from "./ladders.js";
import { recordSeatLabel } from "./seats.js";
import { FORMATS, STATUS_WORDS } from "./tournaments.js";

const COLORS = { points: "#d9a441", glicko2: "#3fa0b8", openskill: "#c06ad8" };

/** The chart's series for one ladder's events: ledger points, and each skill system's rating. */
function seriesOf(events) {
  const points = [];
  const skill = { glicko2: [], openskill: [] };
  // Position 0 is where the ladder started the player: the first event's "before" values.
  if (events.length) {
    points.push({ x: 0, y: events[0].points_before, label: "start" });
    for (const system of Object.keys(skill)) {
      const first = events.find((ev) => ev.system === system && ev.rating_before);
      if (first) skill[system].push({ x: 0, y: first.rating_before.display, label: "start" });
    }
  }
  events.forEach((ev, i) => {
    const label = `match #${ev.match_id} (${signed(ev.points_change)})`;
    points.push({ x: i + 1, y: ev.points_after, label });
    const after = ev.rating_after || {};
    if (skill[ev.system] && after.display !== undefined) skill[ev.system].push({ x: i + 1, y: after.display, label: after.provisional ? "provisional" : "" });
  });
  return [
    { name: "Ledger points", color: COLORS.points, points },
    { name: "Glicko-2", color: COLORS.glicko2, points: skill.glicko2, dashed: true },
    { name: "OpenSkill", color: COLORS.openskill, points: skill.openskill, dashed: true },
  ];
}

/** A guest's own profile: register this name with a password, keeping its matches. */
function upgradeForm(done) {
  const password = h("input#upgrade-password", { type: "password", minlength: 8, maxlength: 200, required: true,
    placeholder: "Password (8+)", autocomplete: "new-password", "aria-label": "new password" });
  return h("form#upgrade-form.row.wrap", { onsubmit: async (ev) => {
    ev.preventDefault();
    try {
      session.save(await post("/api/accounts/me/register", { password: password.value }));
      toast("Registered: log in with your name and this password from now on.");
      done();
    } catch (err) { fail(err); }
  } },
  h("label", { for: "upgrade-password" }, "Keep this name: register it with a password (your matches stay yours)."),
  password, h("button#upgrade-button.btn.btn-primary", { type: "submit" }, "Register this name"));
}

export function mountProfile(root, _navigate, id) {
  const playerId = Number(id);
  const head = h("section#p-head.panel", h("p.muted", "Loading player…"));
  const chartBox = h("section#p-chart.panel");
  const laddersBox = h("section#p-ladders.panel");
  const tournamentsBox = h("section#p-tournaments.panel");
  const matchesBox = h("section#p-matches.panel");
  put(root, h("div.profile-page", head, chartBox, h("div.home-grid", h("div.col", laddersBox, tournamentsBox), h("div.col", matchesBox))));
  let history = [];

  function drawChart(ladderId) {
    const ladders = [...new Map(history.map((ev) => [ev.ladder_id, { id: ev.ladder_id, name: ev.ladder, game: ev.game }])).values()];
    if (!ladders.length) { put(chartBox, h("h2", "Rating history"), lineChart([])); return; }
    const chosen = ladders.find((l) => l.id === ladderId) || ladders[0];
    const picker = h("select#p-chart-ladder", { "aria-label": "ladder", onchange: (ev) => drawChart(Number(ev.target.value)) },
      ladders.map((l) => h("option", { value: l.id, selected: l.id === chosen.id }, l.name === gameTitle(l.game) ? l.name : `${l.name} (${gameTitle(l.game)})`)));
    const events = history.filter((ev) => ev.ladder_id === chosen.id);
    // Drawn at the box's own width so the labels keep their size on any screen.
    const width = Math.max(320, Math.min(1200, (chartBox.clientWidth || 680) - 48));
    put(chartBox, h("div.room-head", h("h2", "Rating history"), picker),
      h("div.chart-wrap", lineChart(seriesOf(events), { xLabel: "rated games played", width, height: Math.round(Math.min(300, width * 0.45)) })),
      h("p.muted.legend", `${events.length} rated games on ${chosen.name}.`));
  }

  function draw(p) {
    const mine = session.account && session.account.id === p.id;
    put(head, h("div.room-head", h("h1#p-name", p.name), h("div.tags", p.guest ? h("span.tag", "guest") : h("span.tag.tag-gold", "registered"), p.bot ? h("span#p-bot.tag", "bot account") : null, mine ? h("span.tag.tag-gold", "you") : null, h("span.tag", `${p.matches_total} matches`))),
      mine && p.guest ? upgradeForm(() => draw({ ...p, guest: false })) : null, mine && !p.guest && !p.bot ? emailBox() : null);
    put(laddersBox, h("h2", "Ladders"), p.ladders.length
      ? h("div.scroll", h("table#p-ladder-table.matches", h("thead", h("tr", h("th", "Ladder"), h("th", "Points"), h("th", "W/D/L"), h("th", "Glicko-2"), h("th", "OpenSkill"))),
        h("tbody", p.ladders.map((e) => h("tr", { "data-ladder": e.ladder_id },
          h("td", h("a", { href: `/ladders/${e.ladder_id}`, "data-link": "" }, e.ladder.name)),
          h("td.points", `${e.points}`), h("td.wdl", `${e.wins}/${e.draws}/${e.losses}`),
          ratingCell(e.ratings.glicko2, "glicko2"), ratingCell(e.ratings.openskill, "openskill"))))))
      : h("p.muted", "No rated matches yet."));
    put(tournamentsBox, h("h2", "Tournaments"), p.tournaments.length
      ? h("ul.tables", p.tournaments.map((t) => h("li.table-row", { "data-tournament": t.id },
        h("div.table-info", h("a", { href: `/tournaments/${t.id}`, "data-link": "" }, t.name || `Tournament #${t.id}`),
          h("div.tags", h("span.tag", gameTitle(t.game)), h("span.tag", FORMATS[t.format] || t.format), h("span.tag", { class: `status-${t.status}` }, STATUS_WORDS[t.status] || t.status), t.entry_status === "withdrawn" ? h("span.tag", "withdrew") : null)))))
      : h("p.muted", "No tournaments yet."));
    put(matchesBox, h("h2", "Recent matches"), p.matches.length
      ? h("div.scroll", h("table#p-match-table.matches", h("thead", h("tr", h("th", "Match"), h("th", "Game"), h("th", "Against"), h("th", "Ledger"), h("th", "Started"))),
        h("tbody", p.matches.map((m) => h("tr", { "data-match": m.id },
          h("td", h("a", { href: `/matches/${m.id}`, "data-link": "" }, `#${m.id}`)), h("td", gameTitle(m.game)),
          h("td", (m.against ? m.against.map(recordSeatLabel) : m.opponents).join(", ")), h("td.delta", m.status === "running" ? h("span.tag.status-running", "running") : m.rated === false ? h("span.tag.casual", "casual") : signed(m.ledger_delta)),
          h("td.muted", when(m.started_at)))))))
      : h("p.muted", "No matches yet."));
  }

  (async () => {
    try {
      const [p, events] = await Promise.all([get(`/api/players/${playerId}`), get(`/api/players/${playerId}/ratings`)]);
      history = events;
      draw(p);
      drawChart(null);
    } catch (err) { fail(err); put(head, h("h1", "No such player")); }
  })();
  return () => {};
}
