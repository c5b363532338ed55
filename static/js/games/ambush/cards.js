// Ambush! cards: the served card data (the engine's house deck) and card art drawn in SVG.
import { cardData } from "../carddata.js";

// The house deck by card id: {id, name, count, damage, effect, amount, trigger, text}, as the
// engine plays it; empty until loadCards() has fetched it.
export const CARDS = {};

/** Fill CARDS from the served card data. */
export function useCards(data) {
  for (const card of data.cards) CARDS[card.id] = card;
}

/** Fetch the card data once (GET /api/games/ambush/cards); resolves when CARDS is filled. */
export const loadCards = () => cardData("ambush").then(useCards);

export function cardName(id) {
  return (CARDS[id] && CARDS[id].name) || id;
}

/** Whether playing the card names an opponent castle (damage, or the Thief). */
export function needsTarget(id) {
  const card = CARDS[id];
  return !!card && (card.damage > 0 || card.effect === "steal");
}

// A card's frame colour by what it does: an attack, magic, support, a trick, a trap or Ambush!.
const FRAME_OF_EFFECT = { none: "attack", ambush: "ambush", archer: "magic", splash: "magic", heal: "support", ward: "support", look: "trick", swap: "trick", steal: "trick" };
const frameOf = (card) => (card.trigger ? "trap" : FRAME_OF_EFFECT[card.effect] || "trick");

const FRAMES = {
  attack: ["#7a1f1f", "#c0483a"],
  magic: ["#3b2a6e", "#7d5fd0"],
  support: ["#1f5a3a", "#4fae7a"],
  trick: ["#1d4d5e", "#3fa0b8"],
  trap: ["#5e4a12", "#c9a23b"],
  ambush: ["#1a1410", "#e0b040"],
};

// Emblems in a 60x60 box; simple shapes so they read at thumbnail size.
const EMBLEMS = {
  ambush: `<path d="M8 52 L44 16 M16 52 L52 16" stroke="#f4d27a" stroke-width="5" stroke-linecap="round"/>
    <path d="M6 44 l10 10 M44 6 l10 10" stroke="#f4d27a" stroke-width="4"/>
    <text x="30" y="42" font-size="30" font-weight="900" text-anchor="middle" fill="#fff">!</text>`,
  footman: `<path d="M30 4 L36 18 L32 18 L32 56 L28 56 L28 18 L24 18 Z" fill="#eee"/>
    <circle cx="30" cy="40" r="10" fill="none" stroke="#eee" stroke-width="3"/>`,
  knight: `<path d="M14 52 V28 Q14 8 30 8 Q46 8 46 28 V52 Z" fill="#d8d8d8"/>
    <rect x="20" y="26" width="20" height="5" fill="#333"/><path d="M30 8 V2 M30 2 q10 2 12 10" stroke="#c0483a" stroke-width="4" fill="none"/>`,
  battering_ram: `<rect x="6" y="26" width="44" height="10" rx="3" fill="#8a5a2b"/>
    <circle cx="52" cy="31" r="7" fill="#bbb"/><path d="M14 36 l-6 16 M40 36 l6 16 M10 52 h40" stroke="#5a3a1b" stroke-width="4"/>`,
  dragon: `<path d="M6 40 Q20 10 30 26 Q40 4 56 14 Q46 24 50 36 Q40 30 34 44 Q26 34 6 40 Z" fill="#e35b3a"/>
    <circle cx="44" cy="16" r="2.5" fill="#fff"/>`,
  elven_archer: `<path d="M16 6 Q44 30 16 54" fill="none" stroke="#c8e6a0" stroke-width="4"/>
    <path d="M16 6 V54" stroke="#eee" stroke-width="1.5"/><path d="M10 30 H54 M48 24 l6 6 -6 6" stroke="#eee" stroke-width="3" fill="none"/>`,
  fire_mage: `<path d="M30 56 Q10 46 18 26 Q22 36 28 34 Q22 16 34 4 Q36 20 44 26 Q52 44 30 56 Z" fill="#ff8a3d"/>
    <path d="M30 52 Q22 46 26 36 Q30 42 34 40 Q40 48 30 52 Z" fill="#ffe08a"/>`,
  healer: `<rect x="24" y="8" width="12" height="44" rx="3" fill="#f0f0f0"/><rect x="8" y="24" width="44" height="12" rx="3" fill="#f0f0f0"/>`,
  shieldbearer: `<path d="M30 4 L52 12 V30 Q52 48 30 56 Q8 48 8 30 V12 Z" fill="#cfd8dc"/>
    <path d="M30 10 V50 M14 28 H46" stroke="#4fae7a" stroke-width="4"/>`,
  scout: `<path d="M4 30 Q30 6 56 30 Q30 54 4 30 Z" fill="#eee"/><circle cx="30" cy="30" r="9" fill="#1d4d5e"/><circle cx="33" cy="27" r="3" fill="#fff"/>`,
  trickster: `<path d="M10 20 H44 l-8 -8 M50 40 H16 l8 8" stroke="#eee" stroke-width="5" fill="none" stroke-linecap="round"/>`,
  thief: `<path d="M16 24 Q30 14 44 24 L50 50 Q30 58 10 50 Z" fill="#b08d57"/><path d="M22 22 Q30 28 38 22" stroke="#5e4a12" stroke-width="3" fill="none"/>
    <text x="30" y="46" font-size="16" font-weight="800" text-anchor="middle" fill="#5e4a12">$</text>`,
  booby_trap: `<path d="M6 52 L14 30 L22 52 L30 26 L38 52 L46 30 L54 52 Z" fill="#ddd"/><circle cx="30" cy="14" r="8" fill="#e35b3a"/><path d="M30 6 l4 -4" stroke="#ffd24a" stroke-width="3"/>`,
  treasure: `<rect x="8" y="24" width="44" height="28" rx="3" fill="#8a5a2b"/><path d="M8 24 Q30 6 52 24 Z" fill="#a36a30"/>
    <rect x="8" y="30" width="44" height="4" fill="#e0b040"/><rect x="26" y="30" width="8" height="10" fill="#e0b040"/>`,
};

/** The face of a card as SVG markup (viewBox 100x140). */
export function cardFaceSvg(id) {
  const card = CARDS[id] || { name: id, damage: 0, effect: "look" };
  const [dark, light] = FRAMES[frameOf(card)];
  const emblem = EMBLEMS[id] || "";
  // Long names wrap onto two lines; a long single word gets a smaller type instead.
  const lines = card.name.length > 10 && card.name.includes(" ") ? card.name.split(" ") : [card.name];
  const size = lines.length > 1 ? 11 : card.name.length > 10 ? 10.5 : 13;
  const label = lines
    .map((line, i) => `<text x="50" y="${lines.length > 1 ? 110 + i * 12 : 116}" font-size="${size}" text-anchor="middle" fill="#2a1d10" font-weight="700" font-family="Georgia, serif">${line}</text>`)
    .join("");
  const badge = card.damage > 0
    ? `<circle cx="84" cy="16" r="11" fill="#7a1f1f" stroke="#f4d27a" stroke-width="2"/><text x="84" y="21" font-size="14" font-weight="800" text-anchor="middle" fill="#fff">${card.damage}</text>`
    : "";
  return `<svg class="card-art" viewBox="0 0 100 140" role="img" aria-label="${card.name}">
    <defs><linearGradient id="g-${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
    <rect x="2" y="2" width="96" height="136" rx="9" fill="${dark}" stroke="#f4d27a" stroke-width="2"/>
    <rect x="8" y="8" width="84" height="84" rx="6" fill="url(#g-${id})"/>
    <g transform="translate(20 20)">${emblem}</g>
    <rect x="8" y="96" width="84" height="36" rx="5" fill="#efe2c4"/>
    ${label}${badge}
  </svg>`;
}
