// Castle Rampage cards: the served card data (the engine's deck, by kind) and card art in SVG.
import { h, svg } from "../../dom.js";
import { cardBackSvg } from "../cardback.js";
import { cardData } from "../carddata.js";

// The deck by kind: {kind, name, count, gate, castle, purple, units, attack (null: none), star,
// cost, permanent, effect, amount, scheme, text}, as the engine plays it; empty until
// loadCards() has fetched it.
export const RAMPAGE_CARDS = {};
// The unit symbols a card may show ("knight", "archer", "warrior").
export const UNIT_TYPES = [];

/** Fill RAMPAGE_CARDS and UNIT_TYPES from the served card data. */
export function useCards(data) {
  for (const card of data.cards) RAMPAGE_CARDS[card.kind] = card;
  UNIT_TYPES.splice(0, UNIT_TYPES.length, ...data.unit_types);
}

/** Fetch the card data once (GET /api/games/rampage/cards); resolves when it is filled in. */
export const loadCards = () => cardData("rampage").then(useCards);

/** "knight#3" -> "knight". */
export const kindOf = (id) => String(id).split("#")[0];
export const cardInfo = (id) => RAMPAGE_CARDS[kindOf(id)] || { name: kindOf(id), gate: 0, castle: 0, text: "" };
export const cardName = (id) => cardInfo(id).name;
export const unitName = (unit) => unit[0].toUpperCase() + unit.slice(1);

/** Whether playing the card asks for discards (a cost or a Scheme's units). */
export const payCount = (id) => {
  const c = cardInfo(id);
  return c.scheme ? c.scheme.needs.length : c.cost || (c.effect === "ogre" ? 2 : 0);
};

const FRAMES = {
  purple: ["#3a1a55", "#9b59d0"],
  scheme: ["#5e4a12", "#d9a441"],
  permanent: ["#1f4a32", "#4fae7a"],
  attack: ["#6e1d1d", "#c0483a"],
  action: ["#1d4350", "#3fa0b8"],
};

function category(c) {
  if (c.purple) return "purple";
  if (c.scheme) return "scheme";
  if (c.permanent) return "permanent";
  if (typeof c.attack === "number") return "attack";
  return "action";
}

// Emblems in a 60x60 box: a few shapes that read at thumbnail size.
const UNIT_ICONS = {
  knight: '<path d="M14 52V28Q14 8 30 8T46 28V52Z" fill="#d8d8d8"/><rect x="20" y="26" width="20" height="5" fill="#333"/>',
  archer: '<path d="M16 6Q46 30 16 54" fill="none" stroke="#c8e6a0" stroke-width="4"/><path d="M16 6V54" stroke="#eee" stroke-width="1.5"/><path d="M10 30H54M48 24l6 6-6 6" stroke="#eee" stroke-width="3" fill="none"/>',
  warrior: '<path d="M30 6V56" stroke="#8a5a2b" stroke-width="5"/><path d="M30 10Q52 8 52 26Q40 20 30 24Z" fill="#ddd"/><path d="M30 10Q8 8 8 26Q20 20 30 24Z" fill="#bbb"/>',
};
const EMBLEMS = {
  dragon: '<path d="M6 40Q20 10 30 26Q40 4 56 14Q46 24 50 36Q40 30 34 44Q26 34 6 40Z" fill="#e35b3a"/><circle cx="44" cy="16" r="2.5" fill="#fff"/>',
  giant: '<circle cx="30" cy="14" r="9" fill="#c9a27a"/><path d="M12 56L16 26H44L48 56Z" fill="#8a6a4a"/>',
  ogre: '<circle cx="30" cy="22" r="16" fill="#6a8a3a"/><path d="M20 30l4 6 4-6M32 30l4 6 4-6" fill="#fff"/><circle cx="24" cy="18" r="3" fill="#ff4"/><circle cx="36" cy="18" r="3" fill="#ff4"/><path d="M14 56Q30 36 46 56Z" fill="#4a6a2a"/>',
  bomber: '<circle cx="28" cy="36" r="18" fill="#222" stroke="#aaa" stroke-width="2"/><path d="M38 20Q44 8 52 10" stroke="#d9a441" stroke-width="3" fill="none"/><circle cx="53" cy="9" r="4" fill="#ff8a3d"/>',
  saboteur: '<path d="M8 50L50 8M14 56L56 14" stroke="#ccc" stroke-width="5"/><circle cx="30" cy="30" r="8" fill="#e35b3a"/>',
  spy: '<path d="M4 30Q30 8 56 30Q30 52 4 30Z" fill="#eee"/><circle cx="30" cy="30" r="9" fill="#3a1a55"/><path d="M10 12H50L44 20H16Z" fill="#222"/>',
  jester: '<path d="M10 24L20 6L30 22L40 6L50 24Z" fill="#d9a441"/><circle cx="30" cy="36" r="14" fill="#f3e6c8"/><path d="M22 40Q30 48 38 40" stroke="#7a1f1f" stroke-width="3" fill="none"/>',
  summoner: '<circle cx="30" cy="30" r="22" fill="none" stroke="#9fd8e8" stroke-width="3"/><path d="M30 10L36 40H24Z" fill="#9fd8e8"/><circle cx="30" cy="46" r="4" fill="#fff"/>',
  priest: '<rect x="26" y="6" width="8" height="48" fill="#f0f0f0"/><rect x="14" y="18" width="32" height="8" fill="#f0f0f0"/>',
  battering_ram: '<rect x="6" y="26" width="44" height="10" rx="3" fill="#8a5a2b"/><circle cx="52" cy="31" r="7" fill="#bbb"/><path d="M14 36l-6 16M40 36l6 16M10 52H50" stroke="#5a3a1b" stroke-width="4"/>',
  trebuchet: '<path d="M10 54H50M18 54L30 24L42 54" stroke="#8a5a2b" stroke-width="4" fill="none"/><path d="M8 14L52 34" stroke="#a36a30" stroke-width="4"/><circle cx="8" cy="14" r="5" fill="#bbb"/>',
  banner: '<path d="M14 4H18V56H14Z" fill="#ddd"/><path d="M18 6H50L42 18L50 30H18Z" fill="#c0483a"/>',
  palisade: '<path d="M6 56V20L12 12L18 20V56ZM22 56V16L28 8L34 16V56ZM38 56V20L44 12L50 20V56Z" fill="#a36a30"/>',
  watchtower: '<path d="M18 56L22 18H38L42 56Z" fill="#9a8a7a"/><path d="M14 18V8H20V12H26V8H34V12H40V8H46V18Z" fill="#bbb"/><rect x="27" y="26" width="6" height="10" fill="#222"/>',
  barracks: '<path d="M6 56V28L30 10L54 28V56Z" fill="#8a6a4a"/><rect x="24" y="38" width="12" height="18" fill="#3a2a1a"/>',
  fire_arrows: '<path d="M8 52L46 14" stroke="#eee" stroke-width="3"/><path d="M46 14l-10 2 8 8Z" fill="#eee"/><path d="M44 8Q56 12 50 24Q48 16 44 18Q50 12 44 8Z" fill="#ff8a3d"/>',
  earthquake: '<path d="M4 30H16L22 18L30 42L38 22L44 34H56" stroke="#d9a441" stroke-width="4" fill="none"/><path d="M10 56L20 44L26 52L36 40L48 56Z" fill="#8a6a4a"/>',
  reinforcements: '<rect x="8" y="14" width="24" height="34" rx="3" fill="#eee" transform="rotate(-10 20 31)"/><rect x="28" y="12" width="24" height="34" rx="3" fill="#ddd" transform="rotate(10 40 29)"/>',
  quartermaster: '<rect x="10" y="22" width="40" height="30" rx="3" fill="#8a5a2b"/><path d="M10 30H50" stroke="#d9a441" stroke-width="3"/><path d="M22 22V12H38V22" stroke="#ddd" stroke-width="3" fill="none"/>',
  bricklayer: '<path d="M6 52H54V40H6ZM12 40H48V28H12ZM18 28H42V16H18Z" fill="#b5532e" stroke="#f3e6c8" stroke-width="1.5"/>',
  sapper: '<path d="M10 52L40 22" stroke="#8a5a2b" stroke-width="5"/><path d="M30 14Q48 8 52 26L44 30Q40 20 30 14Z" fill="#ccc"/>',
  thief: '<path d="M16 24Q30 14 44 24L50 50Q30 58 10 50Z" fill="#b08d57"/><text x="30" y="46" font-size="16" font-weight="800" text-anchor="middle" fill="#5e4a12">$</text>',
  squire: UNIT_ICONS.knight,
  scheme: '<rect x="10" y="10" width="40" height="40" rx="4" fill="#efe2c4"/><path d="M16 20H44M16 30H44M16 40H36" stroke="#5e4a12" stroke-width="3"/>',
};

function emblemFor(kind, c) {
  if (EMBLEMS[kind]) return EMBLEMS[kind];
  if (c.scheme) return EMBLEMS.scheme;
  return (c.units && UNIT_ICONS[c.units[0]]) || EMBLEMS.scheme;
}

const GATE_ICON = '<path d="M0 12V2h3v2h2V2h4v2h2V2h3v10z" fill="#5e4a32"/><rect x="5" y="6" width="4" height="6" rx="2" fill="#efe2c4"/>';
const CASTLE_ICON = '<path d="M0 12V5h2v2h2V3h2v2h2V3h2v4h2V5h2v7z" fill="#5e4a32"/>';

/** The face of a card as SVG markup (viewBox 100x140). */
export function faceSvg(id) {
  const kind = kindOf(id);
  const c = cardInfo(id);
  const [dark, light] = FRAMES[category(c)];
  const lines = c.name.length > 10 && c.name.includes(" ") ? c.name.split(" ") : [c.name];
  const size = lines.length > 1 ? 10.5 : c.name.length > 10 ? 10 : 12.5;
  const label = lines.map((line, i) => `<text x="50" y="${lines.length > 1 ? 101 + i * 11 : 106}" font-size="${size}" text-anchor="middle" fill="#2a1d10" font-weight="700" font-family="Georgia, serif">${line}</text>`).join("");
  const attack = c.scheme ? `${c.attack}` : c.attack ? String(c.attack) : c.star ? "★" : "";
  const badge = attack ? `<circle cx="16" cy="16" r="11" fill="#7a1f1f" stroke="#f4d27a" stroke-width="2"/><text x="16" y="21" font-size="${attack.length > 1 ? 11 : 14}" font-weight="800" text-anchor="middle" fill="#fff">${attack}</text>` : "";
  const pips = Array.from({ length: payCount(id) }, (_, i) => `<rect x="${86 - i * 9}" y="8" width="7" height="10" rx="1.5" fill="#15101b" stroke="#f4d27a" stroke-width="1"/>`).join("");
  const units = (c.units || []).map((u, i) => `<text x="${90 - i * 12}" y="88" font-size="9" font-weight="800" text-anchor="middle" fill="#f3e6c8">${u[0].toUpperCase()}</text>`).join("");
  return `<svg class="card-art" viewBox="0 0 100 140" role="img" aria-label="${c.name}">
    <defs><linearGradient id="rg-${kind}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
    <rect x="2" y="2" width="96" height="136" rx="9" fill="${dark}" stroke="#f4d27a" stroke-width="2"/>
    <rect x="8" y="8" width="84" height="82" rx="6" fill="url(#rg-${kind})"/>
    <g transform="translate(20 22)">${emblemFor(kind, c)}</g>
    <rect x="8" y="92" width="84" height="42" rx="5" fill="#efe2c4"/>
    ${label}
    <g transform="translate(13 118)">${GATE_ICON}</g><text x="36" y="129" font-size="12" font-weight="800" fill="#2a1d10">${c.gate}</text>
    <g transform="translate(56 118)">${CASTLE_ICON}</g><text x="79" y="129" font-size="12" font-weight="800" fill="#2a1d10">${c.castle}</text>
    ${badge}${pips}${units}
  </svg>`;
}

/** A card element: face up (an id) or face down (null). */
export function rampageCardEl(id, { extra = "" } = {}) {
  const el = h(`span.card.rp-card${id ? ".face" : ".back"}${extra ? `.${extra}` : ""}`);
  el.append(svg(id ? faceSvg(id) : cardBackSvg()));
  if (id) {
    const c = cardInfo(id);
    el.title = `${c.name} (Gate ${c.gate}, Castle ${c.castle}) — ${c.text}`;
    el.dataset.card = id;
  }
  return el;
}
