// Match history: the filtered list, one match with its result and ledger, and a replay that
// steps and scrubs version by version (GET /api/matches/{id}/state?version=N), drawn by each
// game's own renderer in read-only mode (replay.js).
import { fail, get, session } from "./api.js";
import { gameIds, gameTitle } from "./catalog.js";
import { clear, h, put, signed, when } from "./dom.js";
import { loadRenderer } from "./games/index.js";
import { createReplay } from "./replay.js";
import { resultWords } from "./result.js";
import { botName, recordSeatLabel } from "./seats.js";

const seatName = (match, seat) => {
  const found = (match.seats || []).find((s) => s.seat === seat);
  return found ? recordSeatLabel(found) : `Seat ${seat + 1}`;
};

function winners(match) {
  const placings = match.result && match.result.placings;
  if (!placings || !placings.length) return "";
  return placings[0].map((seat) => seatName(match, seat)).join(" & ");
}

/** A running match: players rejoin their seat, everyone else watches. */
function liveLink(m) {
  const me = session.account && session.account.id;
  const seated = me && m.seats.some((s) => s.account_id === me);
  return seated
    ? h("a", { href: `/table/${m.id}`, "data-link": "" }, "rejoin")
    : h("a", { href: `/watch/${m.id}`, "data-link": "" }, "watch live");
}

export function mountHistory(root) {
  const params = new URLSearchParams(location.search);
  const game = h("select#filter-game", { "aria-label": "game" }, h("option", { value: "" }, "All games"),
    gameIds().map((g) => h("option", { value: g }, gameTitle(g))));
  const status = h("select#filter-status", { "aria-label": "status" }, h("option", { value: "" }, "Any status"),
    h("option", { value: "running" }, "Running"), h("option", { value: "finished" }, "Finished"));
  const mineOnly = h("input#filter-mine", { type: "checkbox" });
  const since = h("input#filter-since", { type: "date", "aria-label": "since" });
  game.value = params.get("game") || ""; status.value = params.get("status") || "";
  mineOnly.checked = params.get("mine") === "1";
  const table = h("tbody");
  const more = h("div.pager");
  let offset = 0;
  const limit = 25;

  async function load() {
    const query = new URLSearchParams({ limit, offset });
    if (game.value) query.set("game", game.value);
    if (status.value) query.set("status", status.value);
    // The server takes RFC 3339 instants (with an offset): the chosen day's local midnight.
    if (since.value) query.set("since", new Date(`${since.value}T00:00:00`).toISOString());
    if (mineOnly.checked && session.account) query.set("player", session.account.id);
    const shown = new URLSearchParams();
    if (game.value) shown.set("game", game.value);
    if (status.value) shown.set("status", status.value);
    if (mineOnly.checked) shown.set("mine", "1");
    history.replaceState(history.state, "", `/matches${shown.toString() ? `?${shown}` : ""}`);
    try {
      const data = await get(`/api/matches?${query}`);
      clear(table);
      if (!data.matches.length) table.append(h("tr", h("td.muted", { colspan: 6 }, "No matches yet.")));
      for (const m of data.matches) {
        table.append(h("tr", { "data-match": m.id },
          h("td", h("a", { href: `/matches/${m.id}`, "data-link": "" }, `#${m.id}`)),
          h("td", gameTitle(m.game)), h("td", m.seats.map(recordSeatLabel).join(" vs ")),
          h("td", h("span.tag", { class: `status-${m.status}` }, m.status)),
          h("td", winners(m) || (m.status === "running" ? liveLink(m) : "")),
          h("td.muted", when(m.started_at))));
      }
      put(more, 
        h("button.btn.btn-quiet", { disabled: offset === 0, onclick: () => { offset = Math.max(0, offset - limit); load(); } }, "Newer"),
        h("span.muted", ` ${offset + 1}–${Math.min(offset + limit, data.total)} of ${data.total} `),
        h("button.btn.btn-quiet", { disabled: offset + limit >= data.total, onclick: () => { offset += limit; load(); } }, "Older"));
    } catch (err) { fail(err); }
  }
  for (const el of [game, status, mineOnly, since]) el.addEventListener("change", () => { offset = 0; load(); });
  put(root, h("section.panel.history",
    h("h1", "Match history"),
    h("div.filters", game, status, h("label", "From ", since), session.account ? h("label", mineOnly, " only my matches") : null),
    h("table.matches", h("thead", h("tr", h("th", "Match"), h("th", "Game"), h("th", "Castles"), h("th", "Status"), h("th", "Winner"), h("th", "Started"))), table),
    more));
  load();
  return () => {};
}

export function mountMatch(root, _navigate, matchId) {
  const summary = h("div.match-summary");
  const stage = h("div.replay-stage");
  const feed = h("ol.feed.replay-feed", { "aria-label": "events at this version", tabindex: 0 }); // scrolls: keys reach it
  const slider = h("input#replay-slider", { type: "range", min: 0, max: 0, value: 0, "aria-label": "replay version" });
  const label = h("span#replay-version", "v0");
  let match = null;
  let log = [];
  let version = 0;
  let playing = null;
  let request = 0;
  let replay = null;
  const cache = new Map();

  const controls = h("div.replay-controls",
    h("button#replay-first.btn", { onclick: () => go(0), title: "first version", "aria-label": "first version" }, "«"),
    h("button#replay-prev.btn", { onclick: () => go(version - 1), title: "previous version", "aria-label": "previous version" }, "‹"),
    h("button#replay-play.btn", { onclick: togglePlay, title: "play through" }, "Play"),
    h("button#replay-next.btn", { onclick: () => go(version + 1), title: "next version", "aria-label": "next version" }, "›"),
    h("button#replay-last.btn", { onclick: () => go(Number(slider.max)), title: "last version", "aria-label": "last version" }, "»"),
    slider, label);
  slider.addEventListener("input", () => go(Number(slider.value)));
  const onKey = (ev) => {
    if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
    if (ev.key === "ArrowRight") go(version + 1);
    else if (ev.key === "ArrowLeft") go(version - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(Number(slider.max));
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  put(root, h("div.match-page", h("section.panel", summary), h("section.panel.replay", h("h2", "Replay"), controls, h("div.replay-body", stage, feed))));

  function togglePlay() {
    if (playing) { clearInterval(playing); playing = null; root.querySelector("#replay-play").textContent = "Play"; return; }
    root.querySelector("#replay-play").textContent = "Pause";
    playing = setInterval(() => { if (version >= Number(slider.max)) togglePlay(); else go(version + 1); }, 700);
  }

  function drawSummary() {
    const m = match;
    const live = m.status === "running";
    const rows = m.seats.map((s) => h("tr", { "data-seat": s.seat },
      h("td", `${s.seat + 1}`), h("td", recordSeatLabel(s)), h("td", s.bot ? botName(s.bot, s.difficulty) : "player"),
      h("td", placeOf(m, s.seat)), h("td.delta", m.rated ? signed(s.ledger_delta) : "")));
    put(summary, 
      h("h1", `Match #${m.id} — ${gameTitle(m.game)}`),
      h("div.tags", h("span.tag", { class: `status-${m.status}` }, m.status), h("span.tag", m.rated ? "rated" : "casual"),
        h("span.tag", `${m.version} versions`), h("span.tag", when(m.started_at))),
      m.result ? h("p#match-result", `Winner: ${winners(m)} (${m.result.reason.replace(/_/g, " ")})`) : null,
      h("table.result-table", h("thead", h("tr", h("th", "#"), h("th", resultWords(m.game).who), h("th", ""), h("th", "Place"), h("th", m.rated ? "Ledger" : ""))), h("tbody", rows)),
      live ? h("div.row", liveLink(m)) : null);
  }

  function placeOf(m, seat) {
    const placings = m.result && m.result.placings;
    if (!placings) return "";
    const index = placings.findIndex((group) => group.includes(seat));
    return index < 0 ? "" : `${index + 1}.`;
  }

  async function go(target) {
    const max = Number(slider.max);
    version = Math.max(0, Math.min(max, target));
    slider.value = version;
    label.textContent = `v${version} / ${max}`;
    const mine = ++request;
    let data = cache.get(version);
    if (!data) {
      try { data = await get(`/api/matches/${matchId}/state?version=${version}`); } catch (err) { fail(err); return; }
      cache.set(version, data);
    }
    if (mine !== request) return;
    drawState(data);
  }

  function drawState(data) {
    if (!replay) replay = createReplay(stage, feed, { match, log });
    replay.draw(version, data);
  }

  (async () => {
    try {
      match = await get(`/api/matches/${matchId}`);
    } catch (err) { fail(err); put(summary, h("p", err.message)); return; }
    drawSummary();
    slider.max = match.version;
    // The replay draws the game's cards: their data first (fetched once per page).
    try { await loadRenderer(match.game); } catch (err) { fail(err); }
    try {
      const headers = session.token ? { authorization: `Bearer ${session.token}` } : {};
      const text = await (await fetch(`/api/matches/${matchId}/events`, { headers })).text();
      log = text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    } catch { log = []; }
    go(0); // a replay opens at the start; Play, the slider or End go forward
  })();
  return () => {
    if (playing) clearInterval(playing);
    if (replay) replay.dispose();
    document.removeEventListener("keydown", onKey);
  };
}
