// Castle Rampage card data (engines/rampage/cards.json, by kind) and its card art in SVG.
import { h, svg } from "../../dom.js";
import { cardBackSvg } from "../ambush/cards.js";

export const RAMPAGE_CARDS = {
  bomber: { name: "Bomber", gate: 2, castle: 2, purple: true, effect: "bomber", text: "Purple. When destroyed in an attack: the attack stops, the attacking card is destroyed, and so is the top card of the attacker's Gate (of the attacker's Castle if that Gate is empty)." },
  saboteur: { name: "Saboteur", gate: 2, castle: 3, purple: true, effect: "saboteur", text: "Purple. When destroyed in an attack: the attacking player discards 2 random cards from their hand." },
  spy: { name: "Spy", gate: 1, castle: 2, purple: true, effect: "spy", text: "Purple. When destroyed in an attack: its owner takes 1 random card from the attacking player's hand." },
  ogre: { name: "Ogre", gate: 4, castle: 6, purple: true, effect: "ogre", text: "Purple. To place the Ogre under your Gate or Castle as your defence, discard 2 cards." },
  dragon: { name: "Dragon", gate: 2, castle: 3, attack: 7, cost: 2, text: "Discard 2 cards. Attack 7." },
  axe_man: { name: "Axe man", gate: 2, castle: 1, attack: 2, units: ["warrior"], effect: "draw", amount: 1, text: "Attack 2. Draw 1 card." },
  veteran: { name: "Veteran", gate: 2, castle: 2, attack: 3, units: ["knight"], effect: "veteran", text: "Attack 3. If the defence is higher, the Veteran returns to your hand instead of the discard pile. One Veteran a turn." },
  tunnel_digger: { name: "Tunnel Digger", gate: 1, castle: 2, attack: 3, units: ["warrior"], effect: "digger", text: "Attack 3 against the Castle directly, past the Gate." },
  jester: { name: "Jester", gate: 1, castle: 1, attack: 0, effect: "jester", text: "Destroy the top card of your own Castle, then attack with twice its Castle defence value. If that was your Castle's last card, you lose." },
  summoner: { name: "Summoner", gate: 2, castle: 2, cost: 1, effect: "summoner", text: "Discard 1 card. Destroy the top card of both Castles. If both Castles fall, you lose." },
  giant: { name: "Giant", gate: 3, castle: 4, attack: 5, cost: 1, units: ["knight", "warrior"], text: "Discard 1 card. Attack 5. Counts as a Knight or a Warrior (one of them) when discarded for a Scheme." },
  mercenary: { name: "Mercenary", gate: 2, castle: 2, attack: 2, units: ["knight", "archer", "warrior"], text: "Attack 2. Counts as a Knight, an Archer or a Warrior (one of them) when discarded for a Scheme." },
  siege_scheme: { name: "Siege Scheme", gate: 1, castle: 2, attack: 9, scheme: {"needs": ["knight", "archer"], "bonus": "archer", "bonus_strength": 5}, text: "Attack Scheme. Discard a Knight and an Archer: attack 9. Discard one more Archer: +5." },
  priest: { name: "Priest", gate: 1, castle: 2, effect: "priest", text: "Name a unit type: your opponent discards every unit showing that symbol from their hand." },
  archer: { name: "Archer", gate: 1, castle: 1, attack: 1, units: ["archer"], effect: "archer", text: "Point at one face-down card in your opponent's hand: they discard it. Then attack 1." },
  knight: { name: "Knight", gate: 3, castle: 4, attack: 3, units: ["knight"], text: "Attack 3." },
  footman: { name: "Footman", gate: 2, castle: 3, attack: 2, units: ["warrior"], text: "Attack 2." },
  crossbowman: { name: "Crossbowman", gate: 2, castle: 2, attack: 2, units: ["archer"], effect: "castle_bonus", amount: 2, text: "Attack 2. +2 if the attack starts at the Castle (the opposing Gate is empty)." },
  squire: { name: "Squire", gate: 2, castle: 3, units: ["knight"], effect: "draw", amount: 1, text: "Draw 1 card." },
  berserker: { name: "Berserker", gate: 1, castle: 1, attack: 4, cost: 1, units: ["warrior"], text: "Discard 1 card. Attack 4." },
  battering_ram: { name: "Battering Ram", gate: 2, castle: 3, attack: 4, cost: 1, effect: "gate_bonus", amount: 2, text: "Discard 1 card. Attack 4. +2 if the attack starts at the Gate." },
  trebuchet: { name: "Trebuchet", gate: 1, castle: 2, attack: 8, cost: 2, text: "Discard 2 cards. Attack 8." },
  warband_scheme: { name: "Warband Scheme", gate: 1, castle: 2, attack: 7, scheme: {"needs": ["warrior", "warrior"], "bonus": "knight", "bonus_strength": 4}, text: "Attack Scheme. Discard 2 Warriors: attack 7. Discard one more Knight: +4." },
  volley_scheme: { name: "Volley Scheme", gate: 1, castle: 1, attack: 6, scheme: {"needs": ["archer", "archer"], "bonus": "archer", "bonus_strength": 4}, text: "Attack Scheme. Discard 2 Archers: attack 6. Discard one more Archer: +4." },
  cavalry_scheme: { name: "Cavalry Scheme", gate: 1, castle: 2, attack: 7, scheme: {"needs": ["knight", "knight"], "bonus": "warrior", "bonus_strength": 4}, text: "Attack Scheme. Discard 2 Knights: attack 7. Discard one more Warrior: +4." },
  grand_assault: { name: "Grand Assault", gate: 2, castle: 2, attack: 10, scheme: {"needs": ["knight", "archer", "warrior"], "bonus": "knight", "bonus_strength": 5}, text: "Attack Scheme. Discard a Knight, an Archer and a Warrior: attack 10. Discard one more Knight: +5." },
  banner: { name: "War Banner", gate: 1, castle: 2, permanent: true, effect: "banner", amount: 1, text: "Permanent. Your attacks get +1 strength." },
  palisade: { name: "Palisade", gate: 2, castle: 2, permanent: true, effect: "palisade", amount: 1, text: "Permanent. Every card of your Gate defends with +1." },
  watchtower: { name: "Watchtower", gate: 2, castle: 2, permanent: true, effect: "watchtower", amount: 1, text: "Permanent. Every card of your Castle defends with +1." },
  barracks: { name: "Barracks", gate: 1, castle: 2, cost: 2, permanent: true, effect: "barracks", amount: 1, text: "Discard 2 cards. Permanent. At the start of your turn, draw 1 more card." },
  fire_arrows: { name: "Fire Arrows", gate: 1, castle: 1, units: ["archer"], effect: "fire_arrows", text: "Destroy 1 permanent card of your opponent." },
  earthquake: { name: "Earthquake", gate: 2, castle: 2, cost: 1, effect: "earthquake", text: "Discard 1 card. Destroy every permanent card in play, yours too." },
  reinforcements: { name: "Reinforcements", gate: 2, castle: 2, effect: "draw", amount: 2, text: "Draw 2 cards." },
  quartermaster: { name: "Quartermaster", gate: 1, castle: 2, cost: 1, effect: "draw", amount: 3, text: "Discard 1 card. Draw 3 cards." },
  bricklayer: { name: "Bricklayer", gate: 2, castle: 3, effect: "bricklayer", text: "Place the top card of the draw pile face down under your Castle, unseen." },
  sapper: { name: "Sapper", gate: 1, castle: 2, cost: 2, units: ["warrior"], effect: "sapper", text: "Discard 2 cards. Destroy the top card of your opponent's Gate (of their Castle if the Gate is empty). This is not an attack." },
  thief: { name: "Thief", gate: 1, castle: 1, effect: "thief", text: "Take 1 random card from your opponent's hand." },
};

export const UNIT_TYPES = ["knight", "archer", "warrior"];

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
  if (c.attack !== undefined) return "attack";
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
  const attack = c.scheme ? `${c.attack}` : c.attack ? String(c.attack) : c.effect === "jester" ? "★" : "";
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
