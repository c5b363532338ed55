// Tournaments: the filtered list and the organiser's create form (/tournaments); helpers the
// tournament, ladder and profile pages share.
import { ensureGuest, fail, get, post, session } from "./api.js";
import { daysPerMoveField, gameTitle, loadGames } from "./catalog.js";
import { clear, h, put } from "./dom.js";
import { gameOptions } from "./gameoptions.js";
import { watchTournaments } from "./tournamentfeed.js";

export const FORMATS = { swiss: "Swiss", round_robin: "Round robin", single_elimination: "Single elimination" };
export const STATUS_WORDS = { draft: "draft", registration: "registration open", running: "running", finished: "finished" };

/** A name that links to the player's profile when it belongs to an account; a server bot or
 * a bot account (``botAccount``) is labelled "bot" beside it. */
export function playerLink(name, accountId, bot, botAccount) {
  if (accountId === null || accountId === undefined) return h("span.bot-name", name, bot ? h("span.tag", "bot") : null);
  const link = h("a", { href: `/players/${accountId}`, "data-link": "" }, name);
  return botAccount ? h("span.bot-name", link, " ", h("span.tag.bot-account", "bot")) : link;
}

/** A number with at most two decimals (tiebreaks are fractions). */
export const tidy = (n) => (n === null || n === undefined ? "–" : String(Math.round(n * 100) / 100));

function roundText(t) {
  if (t.status === "draft" || t.status === "registration") return t.rounds ? `${t.rounds} rounds` : "rounds set at start";
  return `round ${t.current_round}${t.rounds ? ` of ${t.rounds}` : ""}`;
}

function createForm(games, onCreated) {
  const name = h("input#t-name", { type: "text", maxlength: 80, placeholder: "Winter Siege", "aria-label": "tournament name" });
  const game = h("select#t-game", { "aria-label": "game" }, games.map((g) => h("option", { value: g.id }, g.title)));
  const format = h("select#t-format", { "aria-label": "format" }, Object.entries(FORMATS).map(([v, t]) => h("option", { value: v }, t)));
  const size = h("input#t-size", { type: "number", min: 2, max: 4, value: 2, "aria-label": "players per table" });
  const rounds = h("input#t-rounds", { type: "number", min: 1, max: 64, placeholder: "auto", "aria-label": "rounds" });
  const late = h("input#t-late", { type: "number", min: 0, max: 64, placeholder: "default", "aria-label": "late join until round" });
  const turn = h("input#t-turn", { type: "number", min: 0, max: 3600, value: 60, "aria-label": "seconds per turn (0 = untimed)" });
  const timeout = h("select#t-timeout", { "aria-label": "on time-out" }, h("option", { value: "pass" }, "auto-play"), h("option", { value: "forfeit" }, "forfeit"));
  const grace = h("input#t-grace", { type: "number", min: 0, max: 3600, placeholder: "default", "aria-label": "grace seconds" });
  const days = daysPerMoveField("t-days", games);
  const rated = h("select#t-rated", { "aria-label": "rated or casual" }, h("option", { value: "rated" }, "Rated"), h("option", { value: "casual" }, "Casual"));
  const bots = h("select#t-allow-bots", { "aria-label": "bot accounts" }, h("option", { value: "no" }, "No bot accounts"), h("option", { value: "yes" }, "Bot accounts may register"));
  const rules = gameOptions("t-opt");
  const syncGame = () => {
    const g = games.find((x) => x.id === game.value);
    if (g) { size.min = g.min_seats; size.max = Math.min(4, g.max_seats); size.value = Math.min(Math.max(Number(size.value), g.min_seats), Number(size.max)); }
    rules.show(game.value);
    days.showFor(game.value);
  };
  // Only Swiss seats more than two at a table or takes late players; a bracket sets its rounds.
  const syncFormat = () => {
    const swiss = format.value === "swiss";
    if (!swiss) size.value = 2;
    size.disabled = !swiss; late.disabled = !swiss;
    rounds.disabled = format.value === "single_elimination";
    if (rounds.disabled) rounds.value = "";
    if (late.disabled) late.value = "";
  };
  game.addEventListener("change", () => { syncGame(); syncFormat(); });
  format.addEventListener("change", syncFormat);
  syncGame();
  syncFormat();
  async function submit(ev) {
    ev.preventDefault();
    const body = {
      name: name.value.trim() || null, game: game.value, format: format.value,
      table_size: Number(size.value), rated: rated.value === "rated", allow_bots: bots.value === "yes", options: rules.read(game.value),
      time_control: { on_timeout: timeout.value },
    };
    if (rounds.value !== "") body.rounds = Number(rounds.value);
    if (late.value !== "") body.late_join_until = Number(late.value);
    if (Number(turn.value) > 0) body.time_control.turn_ms = Number(turn.value) * 1000;
    if (grace.value !== "") body.time_control.grace_ms = Number(grace.value) * 1000;
    // Days per move is a time control of its own (the real-time fields go).
    if (days.select.value) body.time_control = { days_per_move: Number(days.select.value) };
    try {
      await ensureGuest(session.account ? session.account.name : "Organiser");
      onCreated(await post("/api/tournaments", body));
    } catch (err) { fail(err); }
  }
  const field = (label, el) => h("label.field", h("span", label), el);
  return h("form#create-tournament.panel.create", { onsubmit: submit },
    h("h2", "Proclaim a tournament"),
    h("div.grid-fields",
      field("Name", name), field("Game", game), field("Format", format), field("Players per table", size),
      field("Rounds (blank: auto)", rounds), field("Late join until round", late),
      field("Seconds per turn (0: none)", turn), field("On time-out", timeout),
      field("Disconnect grace (s)", grace), days.field, field("Ledger", rated), field("Bot accounts", bots)),
    rules.el,
    h("button#create-tournament-button.btn.btn-primary", { type: "submit" }, "Create tournament"));
}

export function mountTournaments(root, navigate) {
  const params = new URLSearchParams(location.search);
  const status = h("select#t-filter-status", { "aria-label": "status" }, h("option", { value: "" }, "Any status"),
    Object.entries(STATUS_WORDS).map(([v, t]) => h("option", { value: v }, t)));
  const game = h("select#t-filter-game", { "aria-label": "game" }, h("option", { value: "" }, "All games"));
  status.value = params.get("status") || "";
  const body = h("tbody");
  let timer = null;

  async function load() {
    const query = new URLSearchParams();
    if (status.value) query.set("status", status.value);
    if (game.value) query.set("game", game.value);
    history.replaceState(history.state, "", `/tournaments${query.toString() ? `?${query}` : ""}`);
    try {
      const list = await get(`/api/tournaments?${query}`);
      clear(body);
      if (!list.length) body.append(h("tr", h("td.muted", { colspan: 6 }, "No tournaments yet. Proclaim one!")));
      for (const t of list) {
        body.append(h("tr", { "data-tournament": t.id },
          h("td", h("a", { href: `/tournaments/${t.id}`, "data-link": "" }, t.name || `Tournament #${t.id}`)),
          h("td", gameTitle(t.game)), h("td", FORMATS[t.format] || t.format),
          h("td", h("span.tag", { class: `status-${t.status}` }, STATUS_WORDS[t.status] || t.status)),
          h("td", `${t.players ?? 0}`), h("td.muted", roundText(t))));
      }
    } catch (err) { fail(err); }
  }
  for (const el of [status, game]) el.addEventListener("change", load);
  const createSlot = h("div.create-slot", h("p.muted", "Loading games…"));
  put(root, h("div.tournaments-page",
    h("section.hero", h("h1", "Tournaments"), h("p", "Swiss, round robin and knock-out events: the ledger decides, Buchholz and Sonneborn-Berger break the ties.")),
    h("div.home-grid",
      h("section.panel",
        h("h2", "Events"),
        h("div.filters", status, game),
        h("table.matches.tournament-list", h("thead", h("tr", h("th", "Name"), h("th", "Game"), h("th", "Format"), h("th", "Status"), h("th", "Players"), h("th", "Rounds"))), body)),
      createSlot)));
  // The game filter lists the server's games; the list loads once it is set.
  loadGames().then((games) => {
    game.append(...games.map((g) => h("option", { value: g.id }, g.title)));
    game.value = params.get("game") || "";
    put(createSlot, createForm(games, (t) => navigate(`/tournaments/${t.id}`)));
  }).catch(fail).finally(load);
  // A change anywhere may move a row; coalesce bursts (a round's results arrive together).
  const stop = watchTournaments(() => { clearTimeout(timer); timer = setTimeout(load, 300); }, load);
  return () => { clearTimeout(timer); stop(); };
}

