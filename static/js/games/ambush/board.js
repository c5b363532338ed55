// Drawing an Ambush! view: castle dials, the battlefield grid around the deck, hands and cards.
// Pure rendering: the live table and the replay both call these with handlers or without.
import { cardBackSvg } from "../cardback.js";
import { CARDS, cardFaceSvg, cardName } from "./cards.js";
import { h, icon, seconds, svg } from "../../dom.js";

const key = (cell) => `${cell[0]},${cell[1]}`;
const NEIGHBOURS = [[1, 0], [0, 1], [-1, 0], [0, -1]];

/** Free cells as the engine counts them: empty, next to a card (next to the deck while the
 * battlefield is empty), never the deck or a reserved cell. */
export function freeCells(view) {
  const taken = new Set(view.battlefield.map((b) => key(b.cell)));
  const blocked = new Set(taken);
  blocked.add("0,0");
  if (view.reserved) blocked.add(key(view.reserved.cell));
  const anchors = view.battlefield.length ? view.battlefield.map((b) => b.cell) : [[0, 0]];
  const found = new Map();
  for (const [x, y] of anchors) {
    for (const [dx, dy] of NEIGHBOURS) {
      const cell = [x + dx, y + dy];
      if (!blocked.has(key(cell))) found.set(key(cell), cell);
    }
  }
  return [...found.values()];
}

/** A card as a DOM element: face up (id) or face down (null). */
export function cardEl(id, { small = false, extra = "" } = {}) {
  const el = h(`span.card${small ? ".card-small" : ""}${id ? ".face" : ".back"}${extra ? `.${extra}` : ""}`);
  el.append(svg(id ? cardFaceSvg(id) : cardBackSvg()));
  if (id) el.title = `${cardName(id)}${CARDS[id] && CARDS[id].text ? ` — ${CARDS[id].text}` : ""}`;
  return el;
}

/** A castle's dial: HP ring, ward, hand and captured counts, turn marker and clock. */
export function dialEl(castle, { view, names, mySeat, clockMs, targetable, onTarget, selectedTarget }) {
  const cap = (view.options && view.options.castle_hp) || 30;
  const ratio = Math.max(0, Math.min(1, castle.hp / cap));
  const circumference = 2 * Math.PI * 26;
  const hue = Math.round(120 * ratio);
  const onTurn = view.phase !== "over" && view.turn === castle.seat && castle.alive;
  const classes = ["dial"];
  if (!castle.alive) classes.push("out");
  if (onTurn) classes.push("on-turn");
  if (castle.seat === mySeat) classes.push("mine");
  if (targetable) classes.push("targetable");
  if (selectedTarget) classes.push("selected");
  const ring = svg(`<svg class="hp-ring" viewBox="0 0 64 64" aria-hidden="true">
      <circle cx="32" cy="32" r="26" fill="#1b1522" stroke="#3a2f45" stroke-width="7"/>
      <circle cx="32" cy="32" r="26" fill="none" stroke="hsl(${hue} 65% 50%)" stroke-width="7"
        stroke-dasharray="${(circumference * ratio).toFixed(1)} ${circumference.toFixed(1)}"
        transform="rotate(-90 32 32)" stroke-linecap="round"/>
      <text x="32" y="38" text-anchor="middle" font-size="18" font-weight="800" fill="#f3e6c8">${castle.hp}</text>
    </svg>`);
  const name = names[castle.seat] || castle.name;
  const status = !castle.alive ? (castle.resigned ? "resigned" : "destroyed") : onTurn ? "on turn" : "";
  const el = h(
    targetable ? "button.dial-button" : "div.dial-wrap",
    {
      class: classes.join(" "),
      "data-seat": castle.seat,
      "aria-label": `${name}: ${castle.hp} HP${castle.ward ? `, ward ${castle.ward}` : ""}${status ? `, ${status}` : ""}${targetable ? ". Choose as target" : ""}`,
      onclick: targetable ? () => onTarget(castle.seat) : null,
    },
    h("div.dial-ring", ring, castle.ward ? h("span.ward", { title: "ward" }, icon("shield"), String(castle.ward)) : null),
    h("div.dial-text",
      h("div.dial-name", name, castle.seat === mySeat ? h("span.you", "you") : null),
      h("div.dial-meta",
        h("span", { title: "cards in hand" }, icon("hand"), ` ${castle.hand_count}`),
        castle.captured_count ? h("span.captured", { title: "captured this race" }, icon("flag"), ` ${castle.captured_count}`) : null,
        castle.captured_count ? h("span.pile", { "aria-hidden": "true" }, Array.from({ length: Math.min(4, castle.captured_count) }, (_, i) => h("i", { style: { "--k": i } }))) : null,
        clockMs !== null && clockMs !== undefined ? h("span.clock", { title: "turn clock" }, icon("clock"), ` ${seconds(clockMs)}`) : null,
      ),
      status ? h("div.dial-status", status) : null,
    ),
  );
  return el;
}

/**
 * The battlefield: every card down, the deck in the middle, free cells where a card may go.
 * opts: {clickFree, clickCards, onCell(cell, kind, event), selected:Set, lifted:Map(key->state),
 *        seenByMe:Map(key->card)}
 */
export function battlefieldEl(view, opts = {}) {
  const cells = new Map();
  for (const b of view.battlefield) cells.set(key(b.cell), { cell: b.cell, kind: "card", card: b.card || null });
  if (view.exposed) {
    const entry = cells.get(key(view.exposed.cell));
    if (entry) { entry.exposed = view.exposed.card; }
  }
  if (view.reserved) cells.set(key(view.reserved.cell), { cell: view.reserved.cell, kind: "reserved", card: view.reserved.card });
  const free = opts.clickFree || opts.showFree ? freeCells(view) : [];
  for (const cell of free) if (!cells.has(key(cell))) cells.set(key(cell), { cell, kind: "free" });
  for (const [k, info] of opts.lifted || []) {
    // A grabbed card stays drawn (lifted) until the server says whether it was won.
    if (!cells.has(k)) cells.set(k, { cell: info.cell, kind: "card", card: null, ghost: true });
  }
  cells.set("0,0", { cell: [0, 0], kind: "deck" });
  let minX = 0, maxX = 0, minY = 0, maxY = 0;
  for (const { cell } of cells.values()) {
    minX = Math.min(minX, cell[0]); maxX = Math.max(maxX, cell[0]);
    minY = Math.min(minY, cell[1]); maxY = Math.max(maxY, cell[1]);
  }
  // Free cells already frame a live board; a replay gets a spare ring so it does not look cramped.
  if (!free.length) { minX -= 1; maxX += 1; minY -= 1; maxY += 1; }
  const cols = maxX - minX + 1;
  const rows = maxY - minY + 1;
  // A group of cards laid out on a grid (not an ARIA grid: it has no rows to step through).
  const grid = h("div.grid", { role: "group", "aria-label": "battlefield", style: { "--cols": cols, "--rows": rows } });
  const sorted = [...cells.values()].sort((a, b) => (b.cell[1] - a.cell[1]) || (a.cell[0] - b.cell[0]));
  for (const info of sorted) {
    const [x, y] = info.cell;
    const k = key(info.cell);
    const style = { gridColumn: x - minX + 1, gridRow: maxY - y + 1 };
    const data = { x, y, kind: info.kind };
    if (info.kind === "deck") {
      grid.append(h("div.cell.deck", { role: "img", style, dataset: data, title: "central deck", "aria-label": `central deck, ${view.deck_count} cards` },
        h("span.deck-stack", cardEl(null, { small: true })), h("span.deck-count", String(view.deck_count))));
      continue;
    }
    if (info.kind === "free") {
      const clickable = !!opts.clickFree;
      grid.append(h(clickable ? "button.cell.free.placeable" : "div.cell.free", {
        role: clickable ? null : "img", style, dataset: data, "aria-label": `free cell ${x}, ${y}`,
        onclick: clickable ? (ev) => opts.onCell(info.cell, "free", ev) : null,
      }));
      continue;
    }
    const lifted = opts.lifted && opts.lifted.get(k);
    const selected = opts.selected && opts.selected.has(k);
    const seen = info.card || (opts.seenByMe && opts.seenByMe.get(k)) || null;
    const classes = ["cell", "occupied", `kind-${info.kind}`];
    if (info.exposed) classes.push("exposed");
    if (lifted) classes.push(lifted.state === "lost" ? "snapback" : "lifted");
    if (selected) classes.push("selected");
    if (opts.fresh && opts.fresh.has(k)) classes.push("fresh");
    const clickable = !!opts.clickCards && info.kind === "card" && !info.ghost;
    const face = info.kind === "reserved" ? info.card : info.exposed || null;
    const label = face ? `${cardName(face)} at ${x}, ${y}` : `face-down card at ${x}, ${y}${seen ? ` (you saw ${cardName(seen)})` : ""}`;
    const el = h(clickable ? "button" : "div", {
      role: clickable ? null : "img", class: classes.join(" "), style, dataset: { ...data, ...(face ? { face } : {}) }, "aria-label": label,
    }, cardEl(face, { small: true }), seen && !face ? h("span.peek", { title: `you saw: ${cardName(seen)}` }, cardName(seen)) : null);
    if (clickable) {
      // Grabs go on pointerdown (no wait for the click's release); keyboard uses click.
      el.addEventListener("pointerdown", (ev) => { if (ev.button === 0) opts.onCell(info.cell, "card", ev); });
      el.addEventListener("click", (ev) => { if (ev.detail === 0) opts.onCell(info.cell, "card", ev); });
    }
    grid.append(el);
  }
  return grid;
}

/** A hand of cards; opts.onCard(card, index) makes them buttons; opts.selected: Set of indices. */
export function handEl(cards, opts = {}) {
  const row = h("div.hand", { role: "group", "aria-label": "your hand" });
  cards.forEach((id, index) => {
    const card = cardEl(id);
    const selected = opts.selected && opts.selected.has(index);
    if (opts.onCard) {
      const button = h("button.hand-card", {
        class: selected ? "selected" : "",
        "data-card": id,
        "aria-pressed": selected ? "true" : "false",
        "aria-label": `${cardName(id)}${CARDS[id] && CARDS[id].damage ? `, ${CARDS[id].damage} damage` : ""}${index < 9 ? ` (key ${index + 1})` : ""}`,
        onclick: () => opts.onCard(id, index),
        style: { "--i": index, "--n": cards.length },
      }, card);
      row.append(button);
    } else {
      row.append(h("span.hand-card", { "data-card": id, style: { "--i": index, "--n": cards.length } }, card));
    }
  });
  if (!cards.length) row.append(h("span.muted", "No cards in hand."));
  return row;
}

/** Fit the grid's cells to the space around it (called after it is in the document). */
export function fitGrid(grid) {
  if (!grid || !grid.parentElement) return;
  const cols = Number(grid.style.getPropertyValue("--cols")) || 3;
  const rows = Number(grid.style.getPropertyValue("--rows")) || 3;
  const box = grid.parentElement.getBoundingClientRect();
  const gap = 4;
  // Cells are 1.18 times as tall as wide (cards stand upright); gaps count too, and so do the
  // frame (border + padding) and the deck's stacked shadow and counter, which overhang a cell.
  const frame = 28;
  const byWidth = (box.width - frame - (cols - 1) * gap) / cols;
  const byHeight = (Math.max(240, box.height) - frame - (rows - 1) * gap) / (rows * 1.18);
  const cell = Math.max(28, Math.min(84, byWidth, byHeight));
  grid.style.setProperty("--cell", `${Math.floor(cell)}px`);
}
