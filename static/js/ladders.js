// Rating ladders: the list with a custom-ladder form (/ladders) and one leaderboard
// (/ladders/{id}) with the 1500-point ledger beside Glicko-2 and OpenSkill ratings.
import { ensureGuest, fail, get, post, session } from "./api.js";
import { gameTitle } from "./catalog.js";
import { clear, h, put } from "./dom.js";
import { playerLink } from "./tournaments.js";

/** A skill rating cell: the display value, "?" while provisional. */
export function ratingCell(rating, system) {
  if (!rating) return h("td.rating.none", { "data-system": system }, "—");
  return h("td.rating", { "data-system": system, class: rating.provisional ? "provisional" : "", title: rating.provisional ? `provisional: ${rating.games} rated games so far` : `${rating.games} rated games` },
    `${rating.display}`, rating.provisional ? h("span.prov", { "aria-label": "provisional" }, "?") : null);
}

export function mountLadders(root, navigate) {
  const params = new URLSearchParams(location.search);
  const game = h("select#l-filter-game", { "aria-label": "game" }, h("option", { value: "" }, "All games"));
  // Real-time and correspondence (days per move) play are rated apart, each on its ladders.
  const poolOptions = () => [h("option", { value: "realtime" }, "Real time"), h("option", { value: "correspondence" }, "Correspondence")];
  const pool = h("select#l-filter-pool", { "aria-label": "rating pool" }, poolOptions());
  const newPool = h("select#l-pool", { "aria-label": "rating pool" }, poolOptions());
  const list = h("ul#ladder-list.tables");
  const newGame = h("select#l-game", { "aria-label": "game" });
  const newName = h("input#l-name", { type: "text", maxlength: 80, placeholder: "Friday club", "aria-label": "ladder name", required: true });

  async function load() {
    const search = new URLSearchParams();
    if (game.value) search.set("game", game.value);
    if (pool.value !== "realtime") search.set("pool", pool.value);
    const query = search.toString() ? `?${search}` : "";
    history.replaceState(history.state, "", `/ladders${query}`);
    try {
      const ladders = await get(`/api/ladders${query}`);
      clear(list);
      if (!ladders.length) list.append(h("li.muted", "No ladders yet."));
      for (const lad of ladders) {
        list.append(h("li.table-row", { "data-ladder": lad.id },
          h("div.table-info", h("strong", lad.name), h("div.tags", lad.kind === "game" ? null : h("span.tag", gameTitle(lad.game)), h("span.tag", { class: lad.kind === "game" ? "tag-gold" : "" }, lad.kind === "game" ? "every rated match" : "custom"),
            lad.pool === "correspondence" ? h("span.tag", "days per move") : null)),
          h("a.btn", { href: `/ladders/${lad.id}`, "data-link": "" }, "Leaderboard")));
      }
    } catch (err) { fail(err); }
  }
  async function create(ev) {
    ev.preventDefault();
    if (!newName.value.trim()) return;
    try {
      await ensureGuest(session.account ? session.account.name : "Wanderer");
      const lad = await post("/api/ladders", { game: newGame.value, name: newName.value.trim(), pool: newPool.value });
      navigate(`/ladders/${lad.id}`);
    } catch (err) { fail(err); }
  }
  game.addEventListener("change", load);
  pool.addEventListener("change", load);
  put(root, h("div.ladders-page",
    h("section.hero", h("h1", "Ladders"), h("p", "Every rated match moves the game's ladder: the 1500-point ledger you win and lose, with Glicko-2 (duels) and OpenSkill (3+ castles) skill beside it.")),
    h("div.home-grid",
      h("section.panel", h("h2", "Ladders"), h("div.filters", game, pool), list),
      h("form#create-ladder.panel", { onsubmit: create },
        h("h2", "Found a custom ladder"),
        h("p.muted", "A custom ladder moves when every player at a rated table has joined it."),
        h("div.grid-fields", h("label.field", h("span", "Game"), newGame), h("label.field", h("span", "Name"), newName),
          h("label.field", h("span", "Rated play"), newPool)),
        h("button#create-ladder-button.btn.btn-primary", { type: "submit" }, "Create ladder")))));
  get("/api/games", { auth: false }).then((games) => {
    for (const g of games) {
      game.append(h("option", { value: g.id }, g.title));
      newGame.append(h("option", { value: g.id }, g.title));
    }
    game.value = params.get("game") || "";
    pool.value = params.get("pool") === "correspondence" ? "correspondence" : "realtime";
    load();
  }).catch((err) => { fail(err); load(); });
  return () => {};
}

export function mountLadder(root, _navigate, id) {
  const ladderId = Number(id);
  const headBox = h("div.room-head");
  const body = h("tbody");
  const actions = h("div.room-actions");
  const pager = h("div.pager");
  const limit = 50;
  let offset = 0;
  let ladder = null;
  let entries = [];

  function drawActions() {
    const me = session.account && session.token ? session.account.id : null;
    const joined = entries.some((e) => e.account_id === me);
    put(actions, ladder && ladder.kind === "custom" && !joined
      ? h("button#l-join.btn.btn-primary", { onclick: join }, "Join this ladder")
      : null);
  }

  async function join() {
    try {
      await ensureGuest("Wanderer");
      await post(`/api/ladders/${ladderId}/join`);
      await load();
    } catch (err) { fail(err); }
  }

  async function load() {
    try {
      ladder = await get(`/api/ladders/${ladderId}`);
      entries = await get(`/api/ladders/${ladderId}/entries?limit=${limit + 1}&offset=${offset}`);
    } catch (err) { fail(err); put(headBox, h("h1", "No such ladder")); return; }
    const more = entries.length > limit;
    entries = entries.slice(0, limit);
    put(headBox, h("h1#l-title", ladder.name), h("div.tags", ladder.kind === "game" ? h("span.tag.tag-gold", "every rated match") : [h("span.tag", gameTitle(ladder.game)), h("span.tag", "custom")]));
    clear(body);
    const me = session.account && session.account.id;
    if (!entries.length) body.append(h("tr", h("td.muted", { colspan: 7 }, "Nobody has played a rated match on this ladder yet.")));
    for (const e of entries) {
      body.append(h("tr", { "data-entry": e.id, class: `${e.account_id !== null && e.account_id === me ? "mine" : ""} ${e.rank === 1 ? "top" : ""}` },
        h("td.rank", `${e.rank}`), h("td", playerLink(e.name, e.account_id, e.bot, e.bot_account)),
        h("td.points", `${e.points}`), h("td", `${e.played}`), h("td.wdl", `${e.wins}/${e.draws}/${e.losses}`),
        ratingCell(e.ratings.glicko2, "glicko2"), ratingCell(e.ratings.openskill, "openskill")));
    }
    pager.hidden = offset === 0 && !more;
    put(pager,
      h("button.btn.btn-quiet", { disabled: offset === 0, onclick: () => { offset = Math.max(0, offset - limit); load(); } }, "Higher"),
      h("span.muted", ` ranks ${offset + 1}–${offset + entries.length} `),
      h("button.btn.btn-quiet", { disabled: !more, onclick: () => { offset += limit; load(); } }, "Lower"));
    drawActions();
  }

  put(root, h("section.panel.ladder-page", headBox, actions,
    h("div.scroll", h("table#leaderboard.matches.leaderboard",
      h("thead", h("tr", h("th", "#"), h("th", "Player"), h("th", { title: "1500-point ledger" }, "Points"), h("th", "Played"),
        h("th", { title: "wins / draws / losses" }, "W/D/L"), h("th", { title: "Glicko-2, from duels" }, "Glicko-2"), h("th", { title: "OpenSkill, from tables of three or more" }, "OpenSkill"))),
      body)),
    h("p.muted.legend", h("span.prov", "?"), " provisional rating: too few rated games to trust yet."),
    pager));
  load();
  return () => {};
}
