// The live table shell: one match over its websocket, put together from its parts in table/
// (the page, the model and clock, the messages, the drawing around the game); the game's own
// drawing comes from its renderer in games/ (index.js).
import { Chronicle } from "./feed.js";
import { keepFitted } from "./fit.js";
import { MatchSocket } from "./socket.js";
import { rendererContext, tableModel } from "./table/context.js";
import { flash, render, renderHead, tick } from "./table/draw.js";
import { tableLayout } from "./table/layout.js";
import { feedLine, tableInbox } from "./table/messages.js";

/**
 * Renderer contract (static/js/games/<game>/index.js, default export):
 *   { id, render(ctx), describeEvent(event, ctx) -> string | {text, kind} | null }
 * and optionally
 *   load() -> a promise: the game's card data is in (called once before the first view);
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
  const t = tableModel(matchId, spectate);
  // The table's hub: what its parts share (model, page, socket, chronicle, drawing).
  const table = { t, root, observe, closed: false };
  Object.assign(table, tableLayout(root, matchId, { spectate, onChat: (text) => table.socket.chat(text) }));
  table.render = () => render(table);
  table.flash = (text, kind) => flash(table, text, kind);
  table.chronicle = new Chronicle(table.els.feed, (event) => feedLine(table, event));
  table.socket = new MatchSocket(matchId, {
    spectate,
    onMessage: tableInbox(table),
    onStatus: (status) => { t.connection = status; renderHead(table); },
  });
  // The board and the card preview zoom out to fit their boxes (never a scroll inside them);
  // the opponents take at most a third of the table's height.
  table.fitted = keepFitted([table.els.board, table.els.spotlight], [[table.els.others, 0.34]]);
  window.__rampart = t; // for tests and curious players: the client's own model
  t.flash = table.flash; // a flash beside the instruction (tests show one)
  t.rerender = table.render;
  t.socket = table.socket;
  table.socket.connect();
  const stopInput = listen(table);
  return () => {
    table.closed = true;
    table.socket.close();
    stopInput();
    table.fitted.stop();
    if (window.__rampart === t) delete window.__rampart;
  };
}

/** Keys to the renderer (not while typing, nor with a modifier), the 250 ms ticker, resizes. */
function listen(table) {
  const { t } = table;
  const onKey = (ev) => {
    if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (t.view && t.renderer && t.renderer.onKey) t.renderer.onKey(ev, rendererContext(table));
  };
  const onResize = () => { if (t.renderer && t.renderer.onResize) t.renderer.onResize(rendererContext(table)); };
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", onResize);
  const ticker = setInterval(() => tick(table), 250);
  return () => {
    clearInterval(ticker);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
  };
}
