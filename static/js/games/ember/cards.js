// Ember cards: the served card data (the engine's cards and its four heroes), and the cards' SVG
// art: a frame coloured by mode, stones as gems, symbols, and one small picture per card (a
// 40x40 box, drawn with simple shapes that read at 50 px) so no two kinds share a picture.
import { cardData } from "../carddata.js";

// Each card kind by id: {id, name, mode, stones, play, effects, attack, choice, response,
// lasting, text}, and each hero by id: {id, name, color, strategy, deck}, as the engine plays
// them; empty until loadCards() has fetched them.
export const CARDS = {};
export const HEROES = {};

/** Fill CARDS and HEROES from the served card data. */
export function useCards(data) {
  for (const card of data.cards) CARDS[card.id] = card;
  for (const hero of data.heroes) HEROES[hero.id] = hero;
}

/** Fetch the card data once (GET /api/games/ember/cards); resolves when it is filled in. */
export const loadCards = () => cardData("ember").then(useCards);

export const MODES = {
  protection: { label: "Protection", color: "#3f7fc0", dark: "#16304a", rule: "Your cards may not be stolen, destroyed, captured or collected." },
  attack: { label: "Attack", color: "#c0483a", dark: "#4a1410", rule: "A full emberscape (5) is collected at once, earning an arcane card." },
  hasty: { label: "Hasty", color: "#e08a2e", dark: "#4a2a0c", rule: "Your emberscape is full with 3 cards." },
  greedy: { label: "Greedy", color: "#4fae7a", dark: "#143a26", rule: "Draw 2 cards in your draw phase." },
};

export const PLAYS = {
  emberscape: "into your emberscape",
  lasting: "into your emberscape (lasting)",
  face_down: "face down into your emberscape",
  discard: "then into the discard pile",
  collection: "into your collection pile",
  mode: "onto your mode pile",
};

export const HERO_COLORS = { blue: "#3f8fd0", yellow: "#e0b83a", green: "#4fae5a", red: "#d0503a" };

export const cardName = (id) => (CARDS[id] ? CARDS[id].name : "a hidden card");
export const heroName = (id) => (HEROES[id] ? HEROES[id].name.split(",")[0] : "no hero yet");
export const heroColor = (id) => (HEROES[id] ? HERO_COLORS[HEROES[id].color] : "#8a7a9a");

// Mode symbols in a 20x20 box: a shield, crossed blades, a lightning bolt, a gem bag.
const MODE_ICONS = {
  protection: '<path d="M10 1l8 3v6c0 5-4 8-8 9-4-1-8-4-8-9V4z"/>',
  attack: '<path d="M3 2l9 9-2 2-9-9V2zM17 2v2l-6 6-2-2 6-6zM4 14l2 2-3 3-2-2zM16 14l3 3-2 2-3-3z"/>',
  hasty: '<path d="M12 1L3 11h6l-2 8 10-11h-6z"/>',
  greedy: '<path d="M7 3h6l-2 3h-2zM5 7h10l2 9c0 2-2 3-7 3s-7-1-7-3z"/>',
};
// Play symbols in a 20x20 box.
const PLAY_ICONS = {
  emberscape: '<circle cx="10" cy="10" r="8" fill="none" stroke="currentColor" stroke-width="2"/><path d="M10 4c3 4 4 6 2 10-1 1-3 1-4 0-2-2 0-4 0-4s1 2 2 1c1-2-1-4 0-7z"/>',
  lasting: '<path d="M5 6a4 4 0 100 8c3 0 7-8 10-8a4 4 0 110 8c-3 0-7-8-10-8z" fill="none" stroke="currentColor" stroke-width="2"/>',
  face_down: '<path d="M2 10q8-8 16 0" fill="none" stroke="currentColor" stroke-width="2"/><path d="M4 12l-2 3M10 14v3M16 12l2 3" stroke="currentColor" stroke-width="2"/>',
  discard: '<path d="M4 4h12l-2 14H6z"/><path d="M3 3h14" stroke="currentColor" stroke-width="2"/>',
  collection: '<rect x="2" y="8" width="16" height="10" rx="2"/><path d="M2 8q8-8 16 0z"/>',
  mode: '<path d="M4 2h2v17H4z"/><path d="M6 3h11l-3 4 3 4H6z"/>',
};

const symbol = (paths, x, y, size, fill) => `<g transform="translate(${x} ${y}) scale(${size / 20})" fill="${fill}" color="${fill}">${paths}</g>`;

/** A card's face as SVG markup (viewBox 100x140); ``id`` null or unknown draws the back. */
export function cardFaceSvg(id) {
  const card = CARDS[id];
  if (!card) return cardBackSvg();
  const mode = MODES[card.mode];
  const words = card.name.split(" ");
  const lines = card.name.length > 11 && words.length > 1
    ? [words.slice(0, Math.ceil(words.length / 2)).join(" "), words.slice(Math.ceil(words.length / 2)).join(" ")]
    : [card.name];
  const size = lines.length > 1 ? 11 : card.name.length > 9 ? 11.5 : 13;
  const label = lines.map((line, i) => `<text x="50" y="${lines.length > 1 ? 108 + i * 12 : 114}" font-size="${size}" text-anchor="middle" fill="#2a1d10" font-weight="700" font-family="Georgia, serif">${line}</text>`).join("");
  const gems = Array.from({ length: card.stones }, (_, k) => `<path d="M${14 + k * 11} 10l5 5-5 7-5-7z" fill="#ff7a3a" stroke="#ffd0a0" stroke-width="1"/>`).join("");
  const tag = card.response ? "RESPONSE" : card.attack ? "ATTACK" : card.lasting ? "LASTING" : "";
  return `<svg class="em-art" viewBox="0 0 100 140" role="img" aria-label="${card.name}">
    <rect x="2" y="2" width="96" height="136" rx="9" fill="${mode.dark}" stroke="${mode.color}" stroke-width="3"/>
    <rect x="8" y="26" width="84" height="66" rx="6" fill="${mode.color}" opacity="0.35"/>
    ${gems}
    ${symbol(MODE_ICONS[card.mode], 74, 5, 18, mode.color)}
    <g class="em-picture" transform="translate(28 34) scale(1.1)">${cardArt(id)}</g>
    ${symbol(PLAY_ICONS[card.play], 10, 70, 16, "#f4d27a")}
    ${tag ? `<text x="90" y="88" font-size="8" font-weight="800" text-anchor="end" fill="#fff" letter-spacing="0.5">${tag}</text>` : ""}
    <rect x="8" y="96" width="84" height="36" rx="5" fill="#efe2c4"/>
    ${label}
  </svg>`;
}

/** The back of an Ember card (also a face-down card, an arcane card, a pile). */
export function cardBackSvg() {
  return `<svg class="em-art" viewBox="0 0 100 140" aria-hidden="true">
    <rect x="2" y="2" width="96" height="136" rx="9" fill="#24152e" stroke="#a5662a" stroke-width="3"/>
    <rect x="10" y="10" width="80" height="120" rx="6" fill="none" stroke="#a5662a" stroke-width="1" stroke-dasharray="3 3"/>
    <path d="M50 34c16 18 22 30 12 50-6 7-18 7-24 0-10-12 0-26 0-26s6 12 12 7c6-11-6-22 0-31z" fill="#d0602a"/>
    <path d="M50 66c6 8 8 13 4 20-3 3-7 3-10 0-3-5 1-10 1-10s2 4 4 3c2-4-1-9 1-13z" fill="#ffc060"/>
  </svg>`;
}

/** The mode symbol alone, for badges. */
export function modeIconSvg(mode) {
  const m = MODES[mode];
  if (!m) return '<svg class="em-icon" viewBox="0 0 20 20" aria-hidden="true"></svg>';
  return `<svg class="em-icon" viewBox="0 0 20 20" aria-hidden="true" fill="${m.color}">${MODE_ICONS[mode]}</svg>`;
}

/** One line of a card's rules for tooltips and the detail panel. */
export function cardSummary(id) {
  const card = CARDS[id];
  if (!card) return "A face-down card.";
  return `${card.name} — ${MODES[card.mode].label} mode, ${card.stones} stone${card.stones === 1 ? "" : "s"}, played ${PLAYS[card.play]}. ${card.text}`;
}

// ----- each card's picture -------------------------------------------------------------------
const GOLD = "#ffd88a";
const FIRE = "#ff8a3d";
const PALE = "#f2e6c8";
const STEEL = "#d8dde6";
const DARK = "#2a1d10";

const gem = (x, y, s = 1, fill = FIRE) =>
  `<path d="M${x} ${y - 6 * s}l${5 * s} ${5 * s}-${5 * s} ${8 * s}-${5 * s}-${8 * s}z" fill="${fill}" stroke="${GOLD}" stroke-width="1"/>`;
const blade = (angle, fill = STEEL) =>
  `<g transform="rotate(${angle} 20 20)"><path d="M20 2l4 24h-8z" fill="${fill}"/><rect x="13" y="26" width="14" height="3" fill="${GOLD}"/><rect x="18" y="29" width="4" height="9" fill="#7a4a2a"/></g>`;
const cardShape = (x, y, angle, fill = PALE) =>
  `<rect x="${x}" y="${y}" width="14" height="20" rx="2" transform="rotate(${angle} ${x + 7} ${y + 10})" fill="${fill}" stroke="${DARK}" stroke-width="1"/>`;
const hand = `<path d="M10 38V22q0-3 3-3t3 3v-9q0-3 3-3t3 3v8-11q0-3 3-3t3 3v11-7q0-3 3-3t3 3v16q0 10-9 10z" fill="${PALE}"/>`;
const flame = (x, y, s = 1) =>
  `<g transform="translate(${x} ${y}) scale(${s})"><path d="M0-14c7 8 9 13 5 21-2 3-7 3-10 0-4-5 0-10 0-10s2 5 5 3c2-5-2-9 0-14z" fill="${FIRE}"/><path d="M0-2c3 3 3 6 2 8-1 1-3 1-4 0-1-2 0-4 0-4z" fill="${GOLD}"/></g>`;

const ART = {
  ember_shard: `${gem(20, 16, 2.2)}<path d="M20 4v30" stroke="${GOLD}" stroke-width="1"/>`,
  ember_cluster: `${gem(12, 22, 1.4)}${gem(28, 22, 1.4)}${gem(20, 12, 1.6)}`,
  glimmer: `<circle cx="20" cy="20" r="5" fill="${GOLD}"/><path d="M20 4v8M20 28v8M4 20h8M28 20h8M9 9l5 5M26 26l5 5M9 31l5-5M26 14l5-5" stroke="${GOLD}" stroke-width="2"/>`,
  kindling: `<path d="M6 34l28-8M8 26l26 10" stroke="#8a5a2b" stroke-width="4" stroke-linecap="round"/>${flame(20, 22, 0.9)}`,
  ember_cache: `<path d="M10 16h20l4 20H6z" fill="#8a5a2b"/><path d="M14 16q6-10 12 0" fill="none" stroke="${PALE}" stroke-width="2"/>${gem(20, 28, 1)}`,
  seductress: `<path d="M20 36c-10-7-16-12-16-19a8 8 0 0116-3 8 8 0 0116 3c0 7-6 12-16 19z" fill="#e0567a"/><path d="M4 8l6 4M36 8l-6 4" stroke="${PALE}" stroke-width="2"/>`,
  thief_in_the_night: `<path d="M28 6a12 12 0 100 28 15 15 0 010-28z" fill="${GOLD}"/><path d="M6 24h14l-4-4M20 24l-4 4" stroke="${PALE}" stroke-width="2" fill="none"/>`,
  lethal_assassin: `${blade(0)}<path d="M8 30q12 8 24 0" stroke="#c0392b" stroke-width="2" fill="none"/>`,
  martyr: `<ellipse cx="20" cy="8" rx="9" ry="3" fill="none" stroke="${GOLD}" stroke-width="2"/><circle cx="20" cy="17" r="5" fill="${PALE}"/><path d="M11 38q0-14 9-14t9 14z" fill="${PALE}"/>`,
  shrouded_snare: `<circle cx="20" cy="20" r="15" fill="none" stroke="${PALE}" stroke-width="2" stroke-dasharray="4 3"/><path d="M8 28l6-10 6 10 6-10 6 10" stroke="${STEEL}" stroke-width="2" fill="none"/>`,
  veiled_cache: `<path d="M10 18h20l4 18H6z" fill="#5a3a6b"/><path d="M4 14q16-12 32 0v8q-16-10-32 0z" fill="#8a7a9a" opacity="0.9"/>`,
  dispel: `<circle cx="20" cy="20" r="14" fill="none" stroke="#9fd8e8" stroke-width="3"/><path d="M10 30L30 10" stroke="#9fd8e8" stroke-width="3"/>${flame(20, 24, 0.5)}`,
  tidal_recall: `<path d="M4 26q6-6 12 0t12 0 12 0" stroke="#7ab8e8" stroke-width="3" fill="none"/><path d="M20 22V6m-6 6 6-6 6 6" stroke="${PALE}" stroke-width="3" fill="none"/>`,
  riptide: `<path d="M20 20m-3 0a3 3 0 116 0 7 7 0 01-14 0 11 11 0 0122 0 15 15 0 01-30 0" stroke="#7ab8e8" stroke-width="3" fill="none"/>`,
  still_waters: `<path d="M4 22h32M8 28h24M12 34h16" stroke="#7ab8e8" stroke-width="2"/><path d="M20 4l3 8h-6z" fill="${PALE}"/><circle cx="20" cy="16" r="2" fill="${PALE}"/>`,
  wellspring: `<path d="M20 36V18M20 18q-10-4-12-12M20 18q10-4 12-12M20 22q-6 0-8 6M20 22q6 0 8 6" stroke="#7ab8e8" stroke-width="3" fill="none" stroke-linecap="round"/>`,
  mist_veil: `<path d="M6 16q7-6 14 0t14 0M6 24q7-6 14 0t14 0M6 32q7-6 14 0t14 0" stroke="${PALE}" stroke-width="3" fill="none" opacity="0.85"/>`,
  tidestone: `<ellipse cx="20" cy="24" rx="14" ry="10" fill="#4a6a8a"/><path d="M8 24q6-5 12 0t12 0" stroke="#9fd8e8" stroke-width="2" fill="none"/>${gem(20, 12, 1)}`,
  golden_arrow: `<path d="M4 36L32 8" stroke="${GOLD}" stroke-width="3"/><path d="M32 8l-10 2 8 8z" fill="${GOLD}"/><path d="M4 36l2-8M4 36l8-2" stroke="${PALE}" stroke-width="2"/>`,
  pickpocket: `${hand}<circle cx="30" cy="10" r="4" fill="${GOLD}"/>`,
  piercing_shot: `<circle cx="24" cy="20" r="10" fill="none" stroke="#c0392b" stroke-width="2"/><circle cx="24" cy="20" r="4" fill="#c0392b"/><path d="M2 34L24 20" stroke="${GOLD}" stroke-width="3"/>`,
  eagle_eye: `<path d="M2 20q18-16 36 0-18 16-36 0z" fill="${PALE}"/><circle cx="20" cy="20" r="7" fill="${GOLD}"/><circle cx="20" cy="20" r="3" fill="${DARK}"/>`,
  archers_mark: `<path d="M10 4q24 16 0 32" fill="none" stroke="${PALE}" stroke-width="3"/><path d="M10 4v32" stroke="${STEEL}" stroke-width="1"/><path d="M6 20h28m-6-5 6 5-6 5" stroke="${GOLD}" stroke-width="2" fill="none"/>`,
  golden_hoard: `<rect x="6" y="18" width="28" height="16" rx="2" fill="#8a5a2b"/><path d="M6 18q14-14 28 0z" fill="#a8702b"/><rect x="17" y="20" width="6" height="6" fill="${GOLD}"/>${gem(12, 14, 0.8, GOLD)}${gem(28, 14, 0.8, GOLD)}`,
  war_cry: `<path d="M6 16h8l12-8v24l-12-8H6z" fill="${PALE}"/><path d="M30 12q4 8 0 16M34 8q7 12 0 24" stroke="${PALE}" stroke-width="2" fill="none"/>`,
  cleave: `<path d="M10 36L26 10" stroke="#7a4a2a" stroke-width="4" stroke-linecap="round"/><path d="M22 6q14 2 12 16l-10-8z" fill="${STEEL}"/>`,
  whirlwind: `<path d="M6 10h28M10 18h22M14 26h14M18 34h6" stroke="${PALE}" stroke-width="3" stroke-linecap="round"/>`,
  vengeance: `${blade(-30, "#e0a0a0")}${blade(30, "#e0a0a0")}`,
  hidden_blade: `<rect x="6" y="8" width="28" height="26" rx="3" fill="#5a3a6b"/>${blade(45)}`,
  blade_dancer: `${blade(-40)}<circle cx="20" cy="8" r="4" fill="${PALE}"/><path d="M20 12v12l-6 10M20 24l6 10M12 16h16" stroke="${PALE}" stroke-width="2" fill="none"/>`,
  warlords_banner: `<path d="M10 4v34" stroke="#7a4a2a" stroke-width="3"/><path d="M12 6h22l-6 8 6 8H12z" fill="#c0392b"/><path d="M18 10l4 4-4 4" stroke="${GOLD}" stroke-width="2" fill="none"/>`,
  rune_swap: `${cardShape(6, 10, -12, "#5a3a6b")}${cardShape(20, 10, 12)}<path d="M12 6q8-6 16 0M28 36q-8 6-16 0" stroke="${GOLD}" stroke-width="2" fill="none"/>`,
  ensnare: `<path d="M6 6l28 28M34 6L6 34M20 2v36M2 20h36" stroke="${PALE}" stroke-width="1.5"/><circle cx="20" cy="20" r="8" fill="none" stroke="${PALE}" stroke-width="1.5"/><circle cx="20" cy="20" r="15" fill="none" stroke="${PALE}" stroke-width="1.5"/>`,
  hex: `<circle cx="20" cy="20" r="15" fill="none" stroke="#b070e0" stroke-width="2"/><path d="M20 5l9 27-23-17h28L11 32z" fill="none" stroke="#b070e0" stroke-width="2"/>`,
  transmute: `<path d="M12 4h16M16 4v10l-10 20h28L24 14V4" fill="#4a6a5a" stroke="${PALE}" stroke-width="2"/>${gem(20, 28, 0.9)}`,
  stone_golem: `<rect x="12" y="4" width="16" height="12" rx="2" fill="#8d8272"/><rect x="8" y="16" width="24" height="14" rx="2" fill="#8d8272"/><rect x="10" y="30" width="8" height="8" fill="#8d8272"/><rect x="22" y="30" width="8" height="8" fill="#8d8272"/><circle cx="17" cy="10" r="1.5" fill="${FIRE}"/><circle cx="23" cy="10" r="1.5" fill="${FIRE}"/>`,
  mana_well: `<ellipse cx="20" cy="30" rx="14" ry="5" fill="#5a4a6b"/><path d="M6 30V20h28v10" fill="#6a5a7b"/><ellipse cx="20" cy="20" rx="14" ry="5" fill="#7ab8e8"/><path d="M20 16V4" stroke="#9fd8e8" stroke-width="2" stroke-dasharray="2 2"/>`,
};

/** The picture for card ``id`` (an ember flame for a card this list does not know). */
function cardArt(id) {
  return ART[id] || flame(20, 22, 1.2);
}
