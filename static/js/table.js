// The live table shell: one match over its websocket (header, clocks, feed, errors, result,
// reconnect, chat); the game's own drawing comes from its renderer in games/ (index.js).
import { get } from "./api.js";
import { add, clear, h, put, rememberFocus, restoreFocus, toast } from "./dom.js";
import { describe } from "./errors.js";
import { Chronicle } from "./feed.js";
import { keepFitted } from "./fit.js";
import { rendererFor } from "./games/index.js";
import { howtoLink } from "./learn/howto.js";
import { resultEl } from "./result.js";
import { seatLabels } from "./seats.js";
import { MatchSocket } from "./socket.js";

/**
 * Renderer contract (static/js/games/<game>/index.js, default export):
 *   { id, title, render(ctx), describeEvent(event, ctx) -> string | {text, kind} | null }
 * and optionally
 *   prompt(ctx) -> banner text; bannerClass(ctx) -> extra banner class;
 *   update(ctx, message) before a render for a new state; onEvents(events, ctx) for a patch;
 *   onMessage(message, ctx) for message types the shell does not know;
 *   onError(message, ctx); onKey(ev, ctx) (inputs and modifier keys are filtered out); tick(ctx) every 250 ms;
 *   onResize(ctx); castleNames(view) for the result table.
 * ctx: view, legal, seat (null: spectator), send(action), els {board, me, others, banner,
 *   spotlight, actions}, names, toast(text, kind), ui (the renderer's own per-table state),
 *   rerender(), flash(text, kind), matchNow(), clockFor(seat), deadlines, socket, message,
 *   version, spectate.
 */
export function mountTable(root, matchId, { spectate = false, observe = null } = {}) {
  const t = {
    matchId, spectate, seat: null, names: [], view: null, legal: [], version: 0,
    status: "running", clockBase: { ms: 0, t: performance.now(), rate: 1 }, deadlines: {},
    result: null, connection: "connecting", banner: null, ui: {}, renderer: null,
    away: new Set(), // seats whose player's link is down
  };
  const els = {
    head: h("header.table-head"),
    actions: h("div.game-actions"),
    banner: h("div.banner", { "aria-live": "polite" }),
    others: h("div.opponents"),
    board: h("div.board-wrap"),
    spotlight: h("div.spotlight"),
    // Focusable: a long chronicle scrolls, and keys must reach it too.
    feed: h("ol.feed", { "aria-live": "polite", "aria-label": "event feed", tabindex: 0 }),
    me: h("div.me"),
    overlay: h("div.overlay-slot"),
  };
  const chatInput = h("input", { type: "text", maxlength: 200, placeholder: "Say something…", "aria-label": "chat message" });
  const chatForm = h("form.chat", { onsubmit: (ev) => {
    ev.preventDefault();
    if (chatInput.value.trim()) socket.chat(chatInput.value.trim());
    chatInput.value = "";
    chatInput.blur(); // hand the keys back to the table (Ambush! is called with A at once)
  } }, chatInput);
  // One screen: opponents on top, the board flexing to fill, the instruction and the buttons
  // right above the hand. The chronicle is a column on wide screens, a drawer on narrow ones.
  els.controls = h("div.table-controls", els.banner,
    h("div.head-actions", els.actions, h("span.resign-slot")));
  const side = h("aside#chronicle.side", h("h2", "Chronicle"), els.feed, spectate ? null : chatForm);
  const section = h("section.table", { "data-match": matchId },
    els.head,
    h("div.table-main", els.others, h("div.board-area", els.board, els.spotlight), els.controls, els.me),
    side,
    els.overlay);
  put(root, section);

  const socket = new MatchSocket(matchId, {
    spectate,
    onMessage: (message) => receive(message),
    onStatus: (status) => { t.connection = status; renderHead(); },
  });
  // The game's renderer tells the feed lines; strings become plain turn lines.
  const chronicle = new Chronicle(els.feed, (event) => {
    if (!t.renderer) return null;
    const line = t.renderer.describeEvent(event, ctx());
    if (!line) return null;
    const item = typeof line === "string" ? { kind: "turn", text: line } : { ...line };
    if (item.text) item.text = item.text[0].toUpperCase() + item.text.slice(1);
    return item;
  });
  window.__rampart = t; // for tests and curious players: the client's own model
  t.flash = flash; // a flash beside the instruction (tests show one)
  t.rerender = () => render();
  t.socket = socket;
  socket.connect();

  // ----- the renderer's context ----------------------------------------------------------
  const matchNow = () => t.clockBase.ms + (performance.now() - t.clockBase.t) * t.clockBase.rate;
  const clockFor = (seat) => {
    const at = t.deadlines[String(seat)];
    return at === undefined || (t.view && t.view.outcome) ? null : at - matchNow();
  };
  function ctx(message = null) {
    return {
      view: t.view, legal: t.legal, seat: t.seat, names: t.names, version: t.version,
      send: (action) => socket.act(action), socket, els, ui: t.ui, toast, message,
      rerender: render, flash, matchNow, clockFor, deadlines: t.deadlines, spectate,
    };
  }

  // ----- messages ---------------------------------------------------------------------
  function setClock(ms) {
    if (typeof ms === "number") t.clockBase = { ms, t: performance.now(), rate: t.clockBase.rate };
  }

  function receive(message) {
    switch (message.type) {
      case "welcome":
        t.welcomes = (t.welcomes || 0) + 1;
        t.resumed = !!message.resumed;
        t.seat = message.seat; t.names = seatLabels(message); t.status = message.status;
        t.clockBase.rate = message.clock_rate || 1; setClock(message.at_ms);
        applyState(message);
        // A fresh page, or a gap too old to resume: tell the story so far from the log;
        // a resume brings what was missed in the welcome.
        if (!message.resumed) chronicle.loadHistory(matchId, message.version, { anonymous: spectate });
        else for (const missed of message.missed || []) chronicle.addEvents(missed.version, missed.events);
        break;
      case "patch":
        if (message.version <= t.version) return;
        setClock(message.at_ms);
        if (!t.renderer && message.view) t.renderer = rendererFor(message.view.game);
        chronicle.addEvents(message.version, message.events);
        if (t.renderer && t.renderer.onEvents) t.renderer.onEvents(message.events || [], ctx(message));
        applyState(message);
        break;
      case "clock":
        setClock(message.now_ms);
        t.deadlines = message.deadlines || {};
        tick();
        break;
      case "error":
        toast(describe(message.code, message.message), "error");
        if (t.renderer && t.renderer.onError) t.renderer.onError(message, ctx(message));
        break;
      case "chat":
        // A seat's line under its player's name (the server names the castle); a spectator's as sent.
        chronicle.say({ kind: "chat", text: `${(message.seat !== null && t.names[message.seat]) || message.name}: ${message.text}` });
        break;
      case "presence": {
        // Another seat's link went or came back (the server noticed a dead link or a return).
        // A first arrival is no news: only a return after "disconnected" gets a line.
        if (message.seat === t.seat || (message.connected && !t.away.has(message.seat))) break;
        const name = t.names[message.seat] || `Seat ${message.seat + 1}`;
        if (message.connected) t.away.delete(message.seat); else t.away.add(message.seat);
        chronicle.say({ kind: "turn", text: message.connected ? `${name} is back.` : `${name} is disconnected.` });
        renderHead();
        break;
      }
      default:
        if (t.renderer && t.renderer.onMessage) t.renderer.onMessage(message, ctx(message));
        break;
    }
    if (observe) observe(message, t); // e.g. the practice coach (learn/practice.js)
  }

  function applyState(message) {
    t.version = message.version;
    t.view = message.view;
    t.legal = message.legal || [];
    const renderer = rendererFor(t.view && t.view.game);
    if (renderer !== t.renderer) { t.renderer = renderer; t.ui = {}; }
    section.dataset.game = t.renderer.id;
    if (t.view && t.view.outcome) t.status = "finished";
    if (t.renderer.update) t.renderer.update(ctx(message), message);
    render();
    if (t.view.outcome && !t.result) loadResult();
  }

  async function loadResult() {
    t.result = { loading: true };
    try { t.result = await get(`/api/matches/${matchId}`); } catch { t.result = { failed: true }; }
    renderOverlay();
  }

  function flash(text, kind) {
    t.banner = { text, kind, until: performance.now() + 1800 };
    renderBanner();
  }

  function resign() {
    if (confirm("Resign this match? Your castle will be out.")) socket.act({ type: "resign" });
  }

  // ----- drawing -----------------------------------------------------------------------
  function render() {
    if (!t.view || !t.renderer) return;
    const focus = rememberFocus(root);
    clear(els.actions);
    t.renderer.render(ctx());
    fitted.fit();
    renderHead();
    renderBanner();
    renderOverlay();
    restoreFocus(root, focus);
  }

  function renderHead() {
    const v = t.view;
    const title = !t.renderer ? "Table" : t.renderer.id === "generic" && v ? v.game : t.renderer.title;
    const conn = { open: "", connecting: "Connecting…", closed: "Connection lost — reconnecting…", gone: "This match does not exist." }[t.connection] || "";
    const canResign = v && t.seat !== null && !v.outcome && t.legal.some((a) => a.type === "resign");
    const open = section.classList.contains("chronicle-open");
    put(els.head,
      h("div.head-title", h("h1", title), h("span.match-id", `match #${matchId}`),
        t.seat === null ? h("span.tag.tag-watch", "spectating") : null,
        h("span.version", { title: "version" }, `v${t.version}`),
        v ? howtoLink(v.game, { newTab: true, cls: "btn btn-quiet howto-table" }) : null),
      conn ? h("div.conn", { role: "status" }, conn) : null,
      !conn && t.away.size && !(v && v.outcome) ? h("div.conn.away", { role: "status" },
        [...t.away].map((s) => `${t.names[s] || `Seat ${s + 1}`} is disconnected`).join(" · ")) : null,
      h("button#chronicle-toggle.btn.btn-quiet", {
        type: "button", "aria-controls": "chronicle", "aria-expanded": String(open),
        onclick: () => { section.classList.toggle("chronicle-open"); renderHead(); },
      }, open ? "Close" : "Chronicle"),
    );
    put(els.controls.querySelector(".resign-slot"),
      canResign ? h("button#resign-button.btn.btn-quiet", { onclick: resign }, "Resign") : null);
  }

  function renderBanner() {
    const b = t.banner && t.banner.until > performance.now() ? t.banner : null;
    const r = t.renderer;
    const extra = r && r.bannerClass && t.view ? r.bannerClass(ctx()) : "";
    els.banner.className = `banner${extra ? ` ${extra}` : ""}`;
    const text = !t.view ? "" : t.view.outcome ? "The game is over."
      : r && r.prompt ? r.prompt(ctx()) : "";
    // A flash ("AMBUSH!", "True call!") shows beside the instruction, never instead of it.
    // Both parts are updated in place: the ticker redraws every 250 ms.
    if (!els.bannerPrompt) {
      els.bannerPrompt = h("span.banner-prompt");
      els.bannerBurst = h("span.banner-burst", { role: "status" });
      els.banner.append(els.bannerPrompt, els.bannerBurst);
    }
    if (els.bannerPrompt.textContent !== text) els.bannerPrompt.textContent = text;
    const burst = b ? b.text : "";
    const burstClass = b ? `banner-burst banner-flash banner-${b.kind}` : "banner-burst";
    if (els.bannerBurst.textContent !== burst || els.bannerBurst.className !== burstClass) {
      els.bannerBurst.textContent = burst;
      els.bannerBurst.className = burstClass;
    }
  }

  function renderOverlay() {
    clear(els.overlay);
    const v = t.view;
    if (!v || !v.outcome) return;
    const fallback = t.renderer && t.renderer.castleNames ? t.renderer.castleNames(v) : [];
    const names = t.names.length ? t.names : fallback;
    const record = t.result && t.result.seats ? t.result : null;
    const r = t.renderer;
    const score = r && r.resultScore ? (s) => r.resultScore(v, s) : null;
    const ending = r && r.resultReason ? r.resultReason(v.outcome.reason) : null;
    add(els.overlay, resultEl({ view: v, names, seat: t.seat, record, matchId, score, ending }));
  }

  function tick() {
    if (!t.view || !t.renderer) return;
    renderBanner();
    if (t.renderer.tick) {
      const focus = rememberFocus(root);
      t.renderer.tick(ctx());
      restoreFocus(root, focus);
    }
  }

  // ----- keyboard and timers ------------------------------------------------------------
  function onKey(ev) {
    if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (t.view && t.renderer && t.renderer.onKey) t.renderer.onKey(ev, ctx());
  }
  document.addEventListener("keydown", onKey);
  const ticker = setInterval(tick, 250);
  const onResize = () => { if (t.renderer && t.renderer.onResize) t.renderer.onResize(ctx()); };
  window.addEventListener("resize", onResize);
  // The board and the card preview zoom out to fit their boxes (never a scroll inside them);
  // the opponents take at most a third of the table's height.
  const fitted = keepFitted([els.board, els.spotlight], [[els.others, 0.34]]);

  return () => {
    socket.close();
    clearInterval(ticker);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    fitted.stop();
    if (window.__rampart === t) delete window.__rampart;
  };
}
