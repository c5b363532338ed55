// The Castles battlefield: six zone rows (the viewer's Castle Zone at the bottom), rivers
// between them, terrain, and every card in play with its HP; highlights come from the caller.
import { h, svg } from "../../dom.js";
import { CARDS, SIDE_NAMES, ZONE_ROLES, faceSvg, title, typeLine } from "./cards.js";

const TERRAIN_WORDS = {
  plains: "Plains", hills: "Hills", high_hills: "High Hills", lake: "Lake", forest: "Forest", marsh: "Marsh",
};

export function zoneLabel(zone) {
  return `${SIDE_NAMES[zone.side]} ${ZONE_ROLES[zone.role] || zone.role}`;
}

/** The tooltip of a card: title, type, HP and its printed text. */
export function cardTitle(kind, hp, maxHp) {
  const card = CARDS[kind] || {};
  const life = maxHp ? ` — HP ${hp}/${maxHp}` : "";
  return `${title(kind)} (${typeLine(kind)})${life}\n${card.text || ""}`;
}

function hpBar(hp, max) {
  const fraction = max ? Math.max(0, Math.min(1, hp / max)) : 0;
  const tone = fraction > 0.6 ? "good" : fraction > 0.3 ? "mid" : "low";
  return h(`span.cs-hp.cs-hp-${tone}`, { "aria-label": `HP ${hp} of ${max}` },
    h("i", { style: { "--f": fraction } }), h("b", `${hp}/${max}`));
}

/** Whose a card is, in words: "Yours" or "Enemy" to a seated player, the side's name to a
 * spectator (``viewerSide`` null). */
export function ownerWord(side, viewerSide) {
  if (viewerSide === null || viewerSide === undefined) return SIDE_NAMES[side];
  return side === viewerSide ? "Yours" : "Enemy";
}

/**
 * One card in play. ``mark``: {selectable, selected, target, entered, spent, ready, onClick,
 * draggable, onDragStart, onDragEnd, canDrop, onDrop} (handlers optional); ``viewerSide``: the
 * seated viewer's side (null for a spectator), for the owner band across the card's top.
 */
export function playCardEl(card, mark, viewerSide = null) {
  const interactive = !!(mark.onClick && (mark.selectable || mark.target || mark.selected));
  const classes = ["cs-card", `cs-side-${card.side}`, `cs-kind-${card.kind}`];
  if (card.kind === "castle") classes.push("cs-castle");
  if (mark.selectable) classes.push("cs-selectable");
  if (mark.selected) classes.push("cs-selected");
  if (mark.target) classes.push("cs-target");
  if (mark.entered) classes.push("cs-entered");
  if (mark.spent) classes.push("cs-spent");
  if (card.charged) classes.push("cs-charged");
  const attrs = {
    id: `cs-card-${card.id}`, // an id lets the shell give focus back after a redraw
    class: classes.join(" "),
    "data-card": card.id, "data-kind": card.kind, "data-zone": card.zone, "data-side": card.side,
    title: cardTitle(card.kind, card.hp, card.max_hp),
    "aria-label": `${SIDE_NAMES[card.side]} ${title(card.kind)}, HP ${card.hp} of ${card.max_hp}${mark.target ? ", target" : ""}`,
  };
  if (interactive) {
    attrs.type = "button";
    attrs.onclick = (ev) => { ev.stopPropagation(); mark.onClick(card.id, ev); };
  }
  if (mark.draggable) {
    attrs.draggable = "true";
    attrs.ondragstart = (ev) => mark.onDragStart(card.id, ev);
    attrs.ondragend = () => mark.onDragEnd();
  }
  if (mark.canDrop) {
    attrs.ondragover = (ev) => { if (mark.canDrop({ card: card.id })) ev.preventDefault(); };
    attrs.ondrop = (ev) => { ev.preventDefault(); ev.stopPropagation(); mark.onDrop({ card: card.id }); };
  }
  const owner = h("span.cs-owner", { "aria-hidden": "true" }, ownerWord(card.side, viewerSide));
  const el = h(interactive ? "button" : "div", attrs, owner, svg(faceSvg(card.kind, card.side)), hpBar(card.hp, card.max_hp));
  if (mark.ready) el.append(h("span.cs-ready", { title: "can still move or act this turn" }));
  return el;
}

/**
 * The whole field. ``ui``: {viewerSide, marks(card) -> mark, zoneTarget(z) -> bool,
 * onZone(z), canDrop(where) and onDrop(where) with where = {zone} or {card}}.
 */
export function fieldEl(view, ui) {
  const order = ui.viewerSide === 1 ? [0, 1, 2, 3, 4, 5] : [5, 4, 3, 2, 1, 0];
  const byZone = [[], [], [], [], [], []];
  for (const card of view.in_play || []) if (card.zone >= 0 && card.zone < 6) byZone[card.zone].push(card);
  const viewer = ui.seated ? ui.viewerSide : null;
  // The legend of the owner bands and zone colours.
  const rows = [h("div.cs-legend", [0, 1].map((side) => h(`span.cs-legend-item.cs-side-${side}`,
    h("i.cs-swatch", { "aria-hidden": "true" }),
    viewer === null ? `${SIDE_NAMES[side]} side` : `${SIDE_NAMES[side]}: ${side === viewer ? "your side" : "the enemy"}`)))];
  order.forEach((z, i) => {
    const zone = view.zones[z];
    const target = ui.zoneTarget(z);
    const attrs = {
      class: `cs-zone cs-zone-${zone.role} cs-zside-${zone.side} cs-terrain-${zone.terrain}${target ? " cs-drop" : ""}`,
      "data-zone": z,
    };
    // A zone to choose takes a click anywhere on it; keys and screen readers use the button
    // its label becomes (the zone itself holds card buttons, so it cannot be a button).
    if (target) attrs.onclick = () => ui.onZone(z);
    if (ui.canDrop) {
      Object.assign(attrs, {
        ondragover: (ev) => { if (ui.canDrop({ zone: z })) { ev.preventDefault(); ev.currentTarget.classList.add("cs-over"); } },
        ondragleave: (ev) => ev.currentTarget.classList.remove("cs-over"),
        ondrop: (ev) => { ev.preventDefault(); ev.currentTarget.classList.remove("cs-over"); ui.onDrop({ zone: z }); },
      });
    }
    const terrain = zone.terrain !== "plains" ? h("span.cs-terrain-tag", TERRAIN_WORDS[zone.terrain] || zone.terrain) : null;
    const label = [target ? h("span.sr-only", "Choose the ") : null, h("b", zoneLabel(zone)), terrain];
    rows.push(h("div", attrs,
      target
        ? h("button.cs-zone-label.cs-zone-pick", { type: "button", onclick: (ev) => { ev.stopPropagation(); ui.onZone(z); } }, label)
        : h("div.cs-zone-label", label),
      h("div.cs-zone-cards", byZone[z].map((card) => playCardEl(card, ui.marks(card), viewer)))));
    const next = order[i + 1];
    if (next !== undefined && (view.rivers || []).includes(Math.min(z, next))) {
      rows.push(h("div.cs-river", { "aria-label": "river" }, "River"));
    }
  });
  return h("div.cs-field", { "data-viewer-side": ui.viewerSide }, rows);
}

/** A card in hand (or revealed from an enemy hand): a face with its text as tooltip. */
export function handCardEl(card, { selectable, selected, target, onClick, draggable, onDragStart, onDragEnd, index }) {
  const classes = ["cs-hand-card"];
  if (selectable) classes.push("cs-selectable");
  if (selected) classes.push("cs-selected");
  if (target) classes.push("cs-target");
  const attrs = {
    id: `cs-hand-${card.id}`, class: classes.join(" "), "data-card": card.id, "data-kind": card.kind,
    title: cardTitle(card.kind, 0, 0), "aria-label": `${title(card.kind)} in hand${index !== undefined ? `, key ${index + 1}` : ""}`,
  };
  if (onClick) { attrs.type = "button"; attrs.onclick = () => onClick(card.id); }
  if (draggable) {
    attrs.draggable = "true";
    attrs.ondragstart = (ev) => onDragStart(card.id, ev);
    attrs.ondragend = () => onDragEnd();
  }
  const art = svg(faceSvg(card.kind));
  const text = h("span.cs-card-text", (CARDS[card.kind] || {}).text || "");
  return h(onClick ? "button" : "div", attrs, art, text);
}
