// The live table's page, empty: header, opponents, board, the instruction and buttons, the hand,
// the chronicle with the chat form, and the slot of the result.
import { h, put } from "../dom.js";

/**
 * Draw the table into ``root``; returns {section, els}. ``onChat(text)`` sends a chat line
 * (a spectator gets no chat form).
 */
export function tableLayout(root, matchId, { spectate, onChat }) {
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
    if (chatInput.value.trim()) onChat(chatInput.value.trim());
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
  return { section, els };
}
