// What the table does with each message of its match socket: the welcome and patches (a new
// state, its events in the chronicle), the clock, errors, chat, who is away; and the wait for
// the game's card data before the first of them is handled.
import { toast } from "../dom.js";
import { describe } from "../errors.js";
import { loadRenderer, rendererFor } from "../games/index.js";
import { seatLabels } from "../seats.js";
import { rendererContext, setClock } from "./context.js";
import { loadResult, render, renderHead, tick } from "./draw.js";

/**
 * A socket's onMessage for ``table``. The first view names the game: its card data is fetched
 * (once per page) before any message is handled; messages meanwhile wait, in order. Should the
 * fetch fail, the table still plays, naming cards by their ids.
 */
export function tableInbox(table) {
  const waiting = [];
  let loading = null;
  return (message) => {
    if (table.t.ready) { receive(table, message); return; }
    waiting.push(message);
    if (loading || !message.view) return;
    loading = loadRenderer(message.view.game)
      .catch(() => toast("The cards of this game could not be loaded.", "error"))
      .then(() => {
        if (table.closed) return;
        table.t.ready = true;
        for (const held of waiting.splice(0)) receive(table, held);
      });
  };
}

/** An event as a chronicle line in the renderer's words; strings become plain turn lines. */
export function feedLine(table, event) {
  const { t } = table;
  if (!t.renderer) return null;
  const line = t.renderer.describeEvent(event, rendererContext(table));
  if (!line) return null;
  const item = typeof line === "string" ? { kind: "turn", text: line } : { ...line };
  if (item.text) item.text = item.text[0].toUpperCase() + item.text.slice(1);
  return item;
}

function receive(table, message) {
  const { t, chronicle } = table;
  switch (message.type) {
    case "welcome":
      t.welcomes = (t.welcomes || 0) + 1;
      t.resumed = !!message.resumed;
      t.seat = message.seat; t.names = seatLabels(message); t.status = message.status;
      t.rated = message.rated;
      t.clockBase.rate = message.clock_rate || 1; setClock(t, message.at_ms);
      applyState(table, message);
      // A fresh page, or a gap too old to resume: tell the story so far from the log;
      // a resume brings what was missed in the welcome.
      if (!message.resumed) chronicle.loadHistory(t.matchId, message.version, { anonymous: t.spectate });
      else for (const missed of message.missed || []) chronicle.addEvents(missed.version, missed.events);
      break;
    case "patch":
      if (message.version <= t.version) return;
      setClock(t, message.at_ms);
      if (!t.renderer && message.view) t.renderer = rendererFor(message.view.game);
      chronicle.addEvents(message.version, message.events);
      if (t.renderer && t.renderer.onEvents) t.renderer.onEvents(message.events || [], rendererContext(table, message));
      applyState(table, message);
      break;
    case "clock":
      setClock(t, message.now_ms);
      t.deadlines = message.deadlines || {};
      t.days = message.days_per_move || null;
      tick(table);
      if (t.days) renderHead(table);
      break;
    case "error":
      toast(describe(message.code, message.message), "error");
      if (t.renderer && t.renderer.onError) t.renderer.onError(message, rendererContext(table, message));
      break;
    case "chat":
      // A seat's line under its player's name (the server names the castle); a spectator's as sent.
      chronicle.say({ kind: "chat", text: `${(message.seat !== null && t.names[message.seat]) || message.name}: ${message.text}` });
      break;
    case "presence":
      presence(table, message);
      break;
    default:
      if (t.renderer && t.renderer.onMessage) t.renderer.onMessage(message, rendererContext(table, message));
      break;
  }
  if (table.observe) table.observe(message, t); // e.g. the practice coach (learn/practice.js)
}

/** Another seat's link went or came back (the server noticed a dead link or a return). A first
 * arrival is no news: only a return after "disconnected" gets a line. */
function presence(table, message) {
  const { t, chronicle } = table;
  if (message.seat === t.seat || (message.connected && !t.away.has(message.seat))) return;
  const name = t.names[message.seat] || `Seat ${message.seat + 1}`;
  if (message.connected) t.away.delete(message.seat); else t.away.add(message.seat);
  chronicle.say({ kind: "turn", text: message.connected ? `${name} is back.` : `${name} is disconnected.` });
  renderHead(table);
}

/** A new state (welcome or patch): the model, the renderer's update, a redraw, the result. */
function applyState(table, message) {
  const { t, section } = table;
  t.version = message.version;
  t.view = message.view;
  t.legal = message.legal || [];
  const renderer = rendererFor(t.view && t.view.game);
  if (renderer !== t.renderer) { t.renderer = renderer; t.ui = {}; }
  section.dataset.game = t.renderer.id;
  if (t.view && t.view.outcome) t.status = "finished";
  if (t.renderer.update) t.renderer.update(rendererContext(table, message), message);
  render(table);
  if (t.view.outcome && !t.result) loadResult(table);
}
