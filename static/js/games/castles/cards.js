// Castles deck cards: the served card data (titles, types, HP and texts, as the engine plays
// them) and the cards' SVG art: a frame coloured by type, a simple emblem per kind, the side's
// banner.
import { cardData } from "../carddata.js";

// Each card kind by id: {id, title, type, action_class, hp, count, text, ...}, as the engine plays
// it; empty until loadCards() has fetched it.
export const CARDS = {};

/** Fill CARDS from the served card data. */
export function useCards(data) {
  for (const card of data.cards) CARDS[card.id] = card;
}

/** Fetch the card data once (GET /api/games/castles/cards); resolves when CARDS is filled. */
export const loadCards = () => cardData("castles").then(useCards);

export const SIDE_NAMES = ["Red", "Blue"];
export const ZONE_ROLES = { castle: "Castle Zone", middle: "Middle Zone", front: "Front Zone" };

export function title(kind) {
  return (CARDS[kind] && CARDS[kind].title) || (kind ? kind.replace(/_/g, " ") : "a card");
}

/** "Soldier", "Building", "Spell" ...: the line under a card's title. */
export function typeLine(kind) {
  const card = CARDS[kind];
  if (!card) return "";
  if (card.type === "action") return { action: "Action", attack: "Special Attack", spell: "Spell", instant: "Instant" }[card.action_class] || "Action";
  return card.type[0].toUpperCase() + card.type.slice(1);
}

const FRAMES = {
  soldier: ["#5a1d1a", "#b8483a"],
  civilian: ["#1f4a30", "#4f9e6a"],
  special: ["#35245e", "#7d5fd0"],
  building: ["#3a3530", "#8d8272"],
  action: ["#1d3d5e", "#3f88b8"],
  attack: ["#5e3412", "#d08a3b"],
  spell: ["#3b1d5e", "#a05fd0"],
  instant: ["#5e4a12", "#c9a23b"],
};

export function frameOf(kind) {
  const card = CARDS[kind] || { type: "action" };
  return FRAMES[card.type === "action" ? card.action_class || "action" : card.type] || FRAMES.action;
}

// Emblems in a 60x60 box; bold, simple shapes that read at 60 px.
const C = "#f2e6c8";
const EMBLEMS = {
  castle: `<path d="M6 56V22h8v8h8v-8h16v8h8v-8h8v34z" fill="${C}"/><rect x="24" y="38" width="12" height="18" rx="6" fill="#3a3530"/><path d="M30 4v14M30 4l12 4-12 4" stroke="${C}" stroke-width="3" fill="none"/>`,
  general: `<path d="M10 40l8-24 12 12 12-12 8 24z" fill="#f4d27a"/><rect x="10" y="42" width="40" height="8" fill="#f4d27a"/><circle cx="30" cy="14" r="4" fill="#f4d27a"/>`,
  wizard: `<path d="M30 4L44 44H16z" fill="#6a4fc0" stroke="${C}" stroke-width="2"/><path d="M10 48h40" stroke="${C}" stroke-width="5" stroke-linecap="round"/><path d="M28 20l4 4-4 4 4 4" stroke="#ffe08a" stroke-width="2" fill="none"/>`,
  spy: `<path d="M4 30Q30 8 56 30Q30 52 4 30z" fill="${C}"/><circle cx="30" cy="30" r="9" fill="#35245e"/><path d="M8 14h44" stroke="${C}" stroke-width="4"/>`,
  assassin: `<path d="M30 2l6 36h-12z" fill="#ddd"/><rect x="18" y="38" width="24" height="5" fill="#c9a23b"/><rect x="27" y="43" width="6" height="14" fill="#7a4a2a"/>`,
  spearman: `<path d="M30 2l7 14h-5v42h-4V16h-5z" fill="${C}"/><path d="M14 34h32" stroke="${C}" stroke-width="3"/>`,
  archer: `<path d="M16 6Q46 30 16 54" fill="none" stroke="${C}" stroke-width="4"/><path d="M16 6V54" stroke="#ddd" stroke-width="1.5"/><path d="M10 30h44m-7-7 7 7-7 7" stroke="${C}" stroke-width="3" fill="none"/>`,
  builder: `<rect x="10" y="8" width="28" height="14" rx="2" fill="${C}"/><rect x="21" y="22" width="6" height="34" fill="#8a5a2b"/><rect x="32" y="40" width="20" height="14" fill="#b8a78a"/>`,
  mason: `<rect x="6" y="36" width="22" height="10" fill="#b8a78a"/><rect x="30" y="36" width="22" height="10" fill="#b8a78a"/><rect x="16" y="24" width="22" height="10" fill="#b8a78a"/><path d="M40 6l14 14-6 6L34 12z" fill="${C}"/>`,
  medic: `<rect x="24" y="8" width="12" height="44" rx="3" fill="${C}"/><rect x="8" y="24" width="44" height="12" rx="3" fill="${C}"/>`,
  catapult: `<path d="M8 48h44" stroke="#8a5a2b" stroke-width="6"/><path d="M14 46L44 12" stroke="#8a5a2b" stroke-width="5"/><circle cx="46" cy="10" r="6" fill="${C}"/><circle cx="14" cy="52" r="5" fill="#3a3530" stroke="${C}" stroke-width="2"/><circle cx="46" cy="52" r="5" fill="#3a3530" stroke="${C}" stroke-width="2"/>`,
  cannon: `<rect x="10" y="24" width="38" height="14" rx="6" transform="rotate(-15 30 31)" fill="#222" stroke="${C}" stroke-width="2"/><circle cx="22" cy="44" r="8" fill="#8a5a2b" stroke="${C}" stroke-width="2"/><circle cx="54" cy="14" r="3" fill="#ffb050"/>`,
  siege_tower: `<path d="M16 56V12h28v44z" fill="#8a5a2b"/><path d="M16 24h28M16 38h28" stroke="#5a3a1b" stroke-width="3"/><path d="M44 12l12 10" stroke="${C}" stroke-width="4"/>`,
  wall: `<path d="M2 54V20h8v6h8v-6h8v6h8v-6h8v6h8v-6h8v34z" fill="#b8a78a"/><path d="M2 36h56M2 46h56M16 26v10M30 36v10M44 26v10" stroke="#6a5f50" stroke-width="2"/>`,
  armoury: `<path d="M30 6l20 8v16c0 14-10 22-20 26-10-4-20-12-20-26V14z" fill="${C}"/><path d="M22 22l16 16M38 22L22 38" stroke="#5a1d1a" stroke-width="4"/>`,
  watchtower: `<path d="M20 56l4-38h12l4 38z" fill="#b8a78a"/><path d="M16 18h28l-4-10H20z" fill="#8a5a2b"/><circle cx="30" cy="30" r="3" fill="#ffe08a"/>`,
  repair: `<path d="M12 48L36 24" stroke="${C}" stroke-width="6" stroke-linecap="round"/><circle cx="40" cy="18" r="10" fill="none" stroke="${C}" stroke-width="5"/><text x="44" y="56" font-size="16" font-weight="900" fill="#ffe08a" text-anchor="middle">+5</text>`,
  medicine: `<rect x="20" y="14" width="20" height="40" rx="6" fill="${C}"/><rect x="24" y="6" width="12" height="10" fill="#8a5a2b"/><path d="M30 26v16M22 34h16" stroke="#b8483a" stroke-width="4"/>`,
  charge: `<path d="M6 40h30l-8-10 22 14-22 14 8-10H6z" fill="${C}"/><path d="M6 20h20M6 28h14" stroke="${C}" stroke-width="3"/>`,
  arrow_rain: `<path d="M12 6v36m-5-6 5 8 5-8M30 10v36m-5-6 5 8 5-8M48 6v36m-5-6 5 8 5-8" stroke="${C}" stroke-width="3" fill="none"/>`,
  rout: `<path d="M50 30H12m12-12-12 12 12 12" stroke="${C}" stroke-width="6" fill="none" stroke-linecap="round"/>`,
  trap: `<path d="M6 44l8-20 8 20 8-20 8 20 8-20 8 20z" fill="#ddd"/><path d="M4 46h52" stroke="${C}" stroke-width="4"/><circle cx="30" cy="12" r="6" fill="#b8483a"/>`,
  rally_forces: `<path d="M18 4v52" stroke="${C}" stroke-width="4"/><path d="M20 6h30l-8 10 8 10H20z" fill="#b8483a"/>`,
  ambush: `<path d="M8 52L44 16M16 52l36-36" stroke="#f4d27a" stroke-width="5" stroke-linecap="round"/><path d="M4 30q8-10 16 0t16 0 16 0" stroke="#4f9e6a" stroke-width="4" fill="none"/>`,
  incendiarism: `<path d="M30 56Q10 46 18 26q4 10 10 8-6-18 6-30 2 16 10 22 8 18-14 30z" fill="#ff8a3d"/><path d="M30 52q-8-6-4-16 4 6 8 4 6 8-4 12z" fill="#ffe08a"/>`,
  resurrection: `<path d="M30 4v52M14 20h32" stroke="${C}" stroke-width="6"/><circle cx="30" cy="20" r="16" fill="none" stroke="#ffe08a" stroke-width="2"/>`,
  plague: `<circle cx="30" cy="26" r="16" fill="#7a9a3a"/><circle cx="24" cy="24" r="4" fill="#2a3a10"/><circle cx="36" cy="24" r="4" fill="#2a3a10"/><path d="M20 46l4 10M30 46v10M40 46l-4 10" stroke="#7a9a3a" stroke-width="4"/>`,
  lightning_storm: `<path d="M10 20q0-14 20-12 8-8 18 2 10 4 4 12z" fill="#8d8272"/><path d="M32 24l-10 16h8l-6 16 16-22h-8l6-10z" fill="#ffe08a"/>`,
};

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// Each side's pennant in the art's corner: Red bears a sun, Blue a star, so a card shows whose
// it is by its picture, not only by its frame colour.
const DEVICES = [
  '<circle cx="7" cy="7" r="3" fill="#ffe08a"/><path d="M7 1v2M7 11v2M1 7h2M11 7h2M3 3l1.5 1.5M9.5 9.5L11 11M3 11l1.5-1.5M9.5 4.5L11 3" stroke="#ffe08a" stroke-width="1"/>',
  '<path d="M7 1.5l1.6 3.6 3.9.4-2.9 2.6.8 3.9L7 10l-3.4 2 .8-3.9-2.9-2.6 3.9-.4z" fill="#f2f6ff"/>',
];
const pennant = (side, colour) => `<rect x="9" y="82" width="82" height="7" fill="${colour}" opacity="0.75"/><g class="cs-pennant" transform="translate(74 10)"><path d="M0 0h14v18l-7-4-7 4z" fill="${colour}" stroke="#f2e6c8" stroke-width="1"/>${DEVICES[side]}</g>`;

/** A card face as SVG markup (viewBox 100x140); ``side`` 0/1 adds that side's banner. */
export function faceSvg(kind, side = -1) {
  const card = CARDS[kind] || { title: kind, type: "action" };
  const [dark, light] = frameOf(kind);
  const name = card.title;
  const size = name.length > 9 ? 11.5 : 13;
  // Long titles are squeezed to the label's width rather than clipped.
  const fit = name.length > 11 ? ' textLength="80" lengthAdjust="spacingAndGlyphs"' : "";
  const banner = side === 0 ? "#c0392b" : side === 1 ? "#2e6fd0" : null;
  const stroke = banner || "#d9b86a";
  return `<svg class="cs-art" viewBox="0 0 100 140" role="img" aria-label="${esc(name)}">
    <defs><linearGradient id="cs-g-${kind}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
    <rect x="2" y="2" width="96" height="136" rx="9" fill="${dark}" stroke="${stroke}" stroke-width="${banner ? 5 : 2}"/>
    <rect x="9" y="9" width="82" height="80" rx="6" fill="url(#cs-g-${kind})"/>
    <g transform="translate(20 18)">${EMBLEMS[kind] || ""}</g>
    ${banner ? pennant(side, banner) : ""}
    <rect x="8" y="94" width="84" height="38" rx="5" fill="#efe2c4"/>
    <text x="50" y="111" font-size="${size}"${fit} text-anchor="middle" fill="#2a1d10" font-weight="700" font-family="Georgia, serif">${esc(name)}</text>
    <text x="50" y="125" font-size="8.5" text-anchor="middle" fill="#6a5a40" font-family="sans-serif">${esc(typeLine(kind))}</text>
  </svg>`;
}
