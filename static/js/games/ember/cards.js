// Ember card data (names, modes, stones, play symbols and texts of engines/ember/cards.json),
// the four heroes, and the cards' SVG art: a frame coloured by mode, stones as gems, symbols.

import { cardArt } from "./art.js";

export const CARDS = {
  ember_shard: {"name": "Ember Shard", "mode": "hasty", "stones": 2, "play": "emberscape", "text": "No effect: its ember stones count once collected."},
  ember_cluster: {"name": "Ember Cluster", "mode": "greedy", "stones": 3, "play": "emberscape", "text": "No effect: its ember stones count once collected."},
  glimmer: {"name": "Glimmer", "mode": "greedy", "stones": 1, "play": "emberscape", "text": "Draw 1 card."},
  kindling: {"name": "Kindling", "mode": "hasty", "stones": 1, "play": "mode", "text": "Draw 1 card. Play into your mode pile."},
  ember_cache: {"name": "Ember Cache", "mode": "hasty", "stones": 2, "play": "collection", "text": "Play into your collection pile."},
  seductress: {"name": "Seductress", "mode": "attack", "stones": 1, "play": "emberscape", "text": "You may add a card from your hand to your emberscape; its effects are not activated."},
  thief_in_the_night: {"name": "Thief in the Night", "mode": "protection", "stones": 1, "play": "discard", "text": "Attack: steal a card from an opponent's emberscape. Play into the discard pile.", "attack": "steal_scape"},
  lethal_assassin: {"name": "Lethal Assassin", "mode": "attack", "stones": 1, "play": "emberscape", "text": "Attack: destroy a card in an opponent's emberscape.", "attack": "destroy_scape"},
  martyr: {"name": "Martyr", "mode": "protection", "stones": 1, "play": "emberscape", "text": "Response (from your hand) to an opponent's attack on you: the attack stops. Martyr goes to your discard pile.", "response": "martyr"},
  shrouded_snare: {"name": "Shrouded Snare", "mode": "protection", "stones": 1, "play": "face_down", "text": "Play face down. Response (while face down in your emberscape) to an opponent's attack on you: put it onto your mode pile; you are in protection mode.", "response": "ward"},
  veiled_cache: {"name": "Veiled Cache", "mode": "hasty", "stones": 2, "play": "face_down", "text": "Play face down. No effect: opponents cannot touch it while it stays face down."},
  dispel: {"name": "Dispel", "mode": "greedy", "stones": 0, "play": "emberscape", "text": "Response (from your hand) to an opponent's card or response aimed at you or at your card: cancel all its effects. Dispel goes to your discard pile.", "response": "dispel"},
  tidal_recall: {"name": "Tidal Recall", "mode": "greedy", "stones": 1, "play": "emberscape", "text": "Draw 1 card. You may return another card from your emberscape to your hand."},
  riptide: {"name": "Riptide", "mode": "greedy", "stones": 1, "play": "discard", "text": "Attack: return a card from an opponent's emberscape to that opponent's hand (protection mode does not stop it). Play into the discard pile.", "attack": "return_scape"},
  still_waters: {"name": "Still Waters", "mode": "protection", "stones": 1, "play": "lasting", "text": "Lasting: cards in your emberscape may not be stolen, destroyed, captured or collected by opponents.", "lasting": "ward_scape"},
  wellspring: {"name": "Wellspring", "mode": "greedy", "stones": 1, "play": "lasting", "text": "Lasting: draw 1 extra card in your draw phase.", "lasting": "extra_draw"},
  mist_veil: {"name": "Mist Veil", "mode": "protection", "stones": 1, "play": "emberscape", "text": "Response (from your hand) to an opponent's attack on you: put it onto your mode pile; you are in protection mode.", "response": "ward"},
  tidestone: {"name": "Tidestone", "mode": "greedy", "stones": 3, "play": "emberscape", "text": "No effect: its ember stones count once collected."},
  golden_arrow: {"name": "Golden Arrow", "mode": "attack", "stones": 1, "play": "discard", "text": "Attack: destroy a card in an opponent's emberscape. Play into the discard pile.", "attack": "destroy_scape"},
  pickpocket: {"name": "Pickpocket", "mode": "protection", "stones": 1, "play": "emberscape", "text": "Attack: steal a random card from an opponent's hand.", "attack": "steal_hand"},
  piercing_shot: {"name": "Piercing Shot", "mode": "attack", "stones": 1, "play": "discard", "text": "Attack: collect a card from an opponent's emberscape into your collection pile. Play into the discard pile.", "attack": "collect_scape"},
  eagle_eye: {"name": "Eagle Eye", "mode": "greedy", "stones": 1, "play": "lasting", "text": "Lasting: draw 1 extra card in your draw phase.", "lasting": "extra_draw"},
  archers_mark: {"name": "Archer's Mark", "mode": "protection", "stones": 1, "play": "emberscape", "text": "Attack: steal a card from an opponent's emberscape.", "attack": "steal_scape"},
  golden_hoard: {"name": "Golden Hoard", "mode": "protection", "stones": 2, "play": "emberscape", "text": "No effect: its ember stones count once collected."},
  war_cry: {"name": "War Cry", "mode": "attack", "stones": 1, "play": "mode", "text": "Draw 2 cards. Play into your mode pile."},
  cleave: {"name": "Cleave", "mode": "attack", "stones": 2, "play": "emberscape", "text": "Attack: destroy a card in an opponent's emberscape.", "attack": "destroy_scape"},
  whirlwind: {"name": "Whirlwind", "mode": "attack", "stones": 1, "play": "discard", "text": "Attack: destroy a random card from an opponent's hand. Play into the discard pile.", "attack": "destroy_hand"},
  vengeance: {"name": "Vengeance", "mode": "attack", "stones": 1, "play": "emberscape", "text": "Response (from your hand) to an opponent's attack on you: destroy the attacking card if it is in that opponent's emberscape (its effects still happen).", "response": "vengeance"},
  hidden_blade: {"name": "Hidden Blade", "mode": "attack", "stones": 1, "play": "face_down", "text": "Play face down. Response (while face down in your emberscape) to an opponent's attack on you: destroy the attacking card if it is in that opponent's emberscape (its effects still happen); Hidden Blade goes to your discard pile.", "response": "vengeance"},
  blade_dancer: {"name": "Blade Dancer", "mode": "attack", "stones": 2, "play": "emberscape", "text": "Draw 1 card."},
  warlords_banner: {"name": "Warlord's Banner", "mode": "attack", "stones": 2, "play": "lasting", "text": "Lasting: cards in your hand may not be stolen or destroyed by opponents.", "lasting": "ward_hand"},
  rune_swap: {"name": "Rune Swap", "mode": "greedy", "stones": 1, "play": "emberscape", "text": "Draw 1 card. You may swap a card from your hand with your next arcane card (face down)."},
  ensnare: {"name": "Ensnare", "mode": "attack", "stones": 1, "play": "emberscape", "text": "Attack: capture a card from an opponent's emberscape into yours (no effects; a lasting effect applies).", "attack": "capture"},
  hex: {"name": "Hex", "mode": "attack", "stones": 0, "play": "discard", "text": "Attack: put a card from your hand onto an opponent's mode pile (protection mode does not stop it). Play into the discard pile.", "attack": "hex"},
  transmute: {"name": "Transmute", "mode": "greedy", "stones": 1, "play": "discard", "text": "You may collect a card from your emberscape. Play into the discard pile."},
  stone_golem: {"name": "Stone Golem", "mode": "protection", "stones": 3, "play": "emberscape", "text": "No effect: its ember stones count once collected."},
  mana_well: {"name": "Mana Well", "mode": "greedy", "stones": 1, "play": "lasting", "text": "Lasting: draw 1 extra card in your draw phase.", "lasting": "extra_draw"},
};

export const HEROES = {
  yvera: {"name": "Yvera, the Water Master", "color": "blue", "strategy": "protection and returning cards"},
  serephene: {"name": "Serephene, the Golden Archer", "color": "yellow", "strategy": "stealing and sniping single cards"},
  rowl: {"name": "Rowl, Swordsman of the East", "color": "green", "strategy": "attack-mode aggression and destroying"},
  kaldoren: {"name": "Kaldoren, Archmage of the Mountain", "color": "red", "strategy": "arcane tricks, capture, mode changes"},
};

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
