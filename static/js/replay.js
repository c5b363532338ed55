// A read-only replay stage: any game's renderer (games/) draws the view at one version with no
// legal actions and no send, and the feed tells every event up to it in the renderer's words.
import { h, put, toast } from "./dom.js";
import { keepFitted } from "./fit.js";
import { rendererFor } from "./games/index.js";
import { recordSeatLabel } from "./seats.js";

const FLASH_MS = 1800;
const FEED_LIMIT = 200; // older lines are summed up in one, as the live Chronicle keeps ~150

/** The form of ``event`` that ``seat`` may see (engines.base.event_for), or null. The log of a
 * finished match is complete; a seat's replay tells it as that seat saw it, so "you drew X"
 * lines stay true and a spectator's feed names no hidden card. */
export function eventFor(event, seat) {
  const visible = event.visible_to === undefined ? "all" : event.visible_to;
  if (visible === "all" || (seat !== null && seat !== undefined && visible.includes(seat))) {
    const { visible_to: _v, redacted: _r, ...shown } = event;
    return shown;
  }
  return event.redacted ? { ...event.redacted } : null;
}

function phaseText(view, names) {
  const name = (seat) => names[seat] || `Seat ${seat + 1}`;
  if (view.outcome) return "The game is over.";
  let text = `Phase: ${String(view.phase || "").replace(/_/g, " ")}`;
  if (view.game === "ambush" && view.phase === "turn") return `${text}, ${name(view.turn)} to ${view.step}`;
  const acting = (view.to_act || []).map(name);
  if (acting.length) text += ` · to act: ${acting.join(", ")}`;
  return text;
}

/**
 * A replay drawn into ``stage`` (board) and ``feed`` (an <ol>) for one match record and its
 * NDJSON log lines. draw(version, data) takes a GET /state reply. Stepping one version on
 * feeds the renderer that version's events as a live patch would (flashes, animations);
 * any other move starts its per-table state afresh and catches it up on every earlier event.
 */
export function createReplay(stage, feed, { match, log }) {
  const names = (match.seats || []).slice().sort((a, b) => a.seat - b.seat).map(recordSeatLabel);
  const lines = new Map(log.filter((line) => typeof line.version === "number").map((line) => [line.version, line]));
  const els = {
    board: h("div.board-wrap"), others: h("div.opponents"), me: h("div.me"),
    spotlight: h("div.spotlight"), banner: h("div.banner", { "aria-live": "polite" }),
    actions: h("div.game-actions"), // never shown: a replay offers no actions
  };
  let phaseLine = "";
  // The live table's layout and per-game CSS hang off section.table[data-game]; one column here.
  const table = h("section.table.replay-table",
    els.banner,
    h("div.table-main", els.others, h("div.board-area", els.board, els.spotlight), els.me));
  // Read-only: no click or drag reaches the renderer's controls (only <summary> lists open).
  const block = (ev) => {
    if (ev.target.closest && ev.target.closest("summary")) return;
    ev.stopPropagation();
    ev.preventDefault();
  };
  for (const type of ["click", "dblclick", "dragstart", "drop", "pointerdown"]) table.addEventListener(type, block, true);
  put(stage, table);
  // As at a live table, the board and the card preview zoom out to fit their boxes.
  const fitted = keepFitted([els.board, els.spotlight], [[els.others, 0.34]]);

  const ui = {};
  let renderer = null;
  let shown = null; // {version, seat, view}
  let flashTimer = null;

  const eventsAt = (version, seat) => {
    const line = lines.get(version);
    return ((line && line.events) || []).map((e) => eventFor(e, seat)).filter(Boolean);
  };
  const eventsUpTo = (version, seat) => {
    const out = [];
    for (let v = 1; v <= version; v += 1) out.push(...eventsAt(v, seat));
    return out;
  };

  // The banner tells the phase and who is to act; a renderer's flash takes it for a moment.
  function banner(text, kind = null) {
    els.banner.className = kind ? `banner banner-flash banner-${kind}` : "banner phase-line";
    els.banner.textContent = text;
  }

  function flash(text, kind) {
    banner(text, kind || "info");
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => { flashTimer = null; banner(phaseLine); }, FLASH_MS);
  }

  function ctxFor(version, seat, view, { quiet = false, message = null } = {}) {
    const line = lines.get(version);
    const atMs = line && typeof line.at_ms === "number" ? line.at_ms : 0;
    return {
      view, legal: [], seat, names, version, els, ui, message, deadlines: {}, socket: null,
      spectate: true, replay: true,
      send: () => toast("This is a replay: nothing is sent."),
      toast: quiet ? () => {} : toast,
      flash: quiet ? () => {} : flash,
      rerender: () => { if (shown) paint(ctxFor(shown.version, shown.seat, shown.view, { quiet: true })); },
      matchNow: () => atMs, // the match clock as it stood at this version
      clockFor: () => null,
    };
  }

  function paint(ctx) {
    els.actions.replaceChildren();
    renderer.render(ctx);
    fitted.fit();
  }

  function describe(event, ctx) {
    let item = null;
    try { item = renderer.describeEvent(event, ctx); } catch (err) { console.warn("replay feed", err); }
    if (!item) return null;
    const line = typeof item === "string" ? { kind: "turn", text: item } : { ...item };
    if (line.text) line.text = line.text[0].toUpperCase() + line.text.slice(1);
    return line.text ? line : null;
  }

  function drawFeed(version, seat, ctx) {
    const items = [];
    for (let v = 1; v <= version; v += 1) {
      const current = v === version;
      if (current) {
        const line = lines.get(v) || {};
        const who = line.seat === null || line.seat === undefined ? (line.cause || "the clock") : names[line.seat] || `Seat ${line.seat + 1}`;
        const action = line.action && line.action.type ? ` — ${line.action.type.replace(/_/g, " ")}` : "";
        items.push({ kind: "turn", text: `v${v}: ${who}${action}`, version: v, head: true });
      }
      for (const event of eventsAt(v, seat)) {
        const item = describe(event, ctx);
        if (item) items.push({ ...item, version: v, current });
      }
    }
    const row = (item) => h(`li.feed-${item.kind}`, {
      "data-version": item.version,
      class: item.head ? "replay-now" : item.current ? "replay-current" : null,
      style: item.head || item.current ? { background: "rgba(217, 164, 65, 0.12)" } : null,
    }, item.text);
    const older = items.length - FEED_LIMIT;
    put(feed,
      version === 0 ? h("li.feed-turn.replay-now", "The match is set up.") : null,
      older > 0 ? h("li.feed-turn.muted", `… ${older} earlier line${older === 1 ? "" : "s"}`) : null,
      items.slice(Math.max(0, older)).map(row));
    feed.scrollTop = feed.scrollHeight;
  }

  /** Draw the reply of GET /api/matches/{id}/state?version=N. */
  function draw(version, data) {
    const view = data.view;
    const seat = data.seat === undefined ? null : data.seat;
    const next = rendererFor(view && view.game);
    const stepOn = shown && renderer === next && shown.seat === seat && version === shown.version + 1;
    if (!stepOn) {
      // Same object, emptied: renderers key card memories by its identity (castles/feed.js).
      for (const key of Object.keys(ui)) delete ui[key];
    }
    renderer = next;
    clearTimeout(flashTimer); // a flash belongs to the version that raised it
    flashTimer = null;
    table.dataset.game = renderer.id;
    stage.dataset.version = String(version);
    if (stepOn) {
      const events = eventsAt(version, seat);
      const ctx = ctxFor(version, seat, view, { message: { type: "patch", version, events, view } });
      if (renderer.onEvents) renderer.onEvents(events, ctx);
      if (renderer.update) renderer.update(ctx, ctx.message);
    } else {
      // Catch up quietly: as if the page had opened at this version and lived through it.
      const events = eventsUpTo(version, seat);
      const ctx = ctxFor(version, seat, view, { quiet: true });
      if (renderer.update) renderer.update(ctx, { type: "welcome", version, view, events: [] });
      if (renderer.onEvents) renderer.onEvents(events, ctx);
      if (renderer.update && events.length) renderer.update(ctx, { type: "patch", version, events, view });
    }
    shown = { version, seat, view };
    phaseLine = phaseText(view, names);
    if (!flashTimer) banner(phaseLine);
    const ctx = ctxFor(version, seat, view);
    paint(ctx);
    drawFeed(version, seat, ctxFor(version, seat, view, { quiet: true }));
  }

  return {
    draw,
    dispose() { clearTimeout(flashTimer); fitted.stop(); },
  };
}
