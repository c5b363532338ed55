// Ambush! card data (the house deck of engines/ambush/cards.json) and card art drawn in SVG.

export const CARDS = {
  ambush: { name: "Ambush!", damage: 2, kind: "ambush", text: "Two of them on the battlefield make a call valid." },
  footman: { name: "Footman", damage: 2, kind: "attack", text: "" },
  knight: { name: "Knight", damage: 3, kind: "attack", text: "" },
  battering_ram: { name: "Battering Ram", damage: 5, kind: "attack", text: "" },
  dragon: { name: "Dragon", damage: 6, kind: "attack", text: "" },
  elven_archer: { name: "Elven Archer", damage: 1, kind: "magic", effect: "archer", text: "Then put the top 2 cards of the deck face down; you choose their cells." },
  fire_mage: { name: "Fire Mage", damage: 1, kind: "magic", text: "Then 1 damage to every other opponent castle." },
  healer: { name: "Healer", damage: 0, kind: "support", text: "Restore 3 HP to your castle." },
  shieldbearer: { name: "Shieldbearer", damage: 0, kind: "support", text: "Your castle ignores the next 3 damage." },
  scout: { name: "Scout", damage: 1, kind: "trick", effect: "look", text: "Then look at one face-down card." },
  trickster: { name: "Trickster", damage: 1, kind: "trick", effect: "swap", text: "Then swap two face-down cards." },
  thief: { name: "Thief", damage: 0, kind: "trick", effect: "steal", text: "Take a random card from an opponent's hand." },
  booby_trap: { name: "Booby Trap", damage: 1, kind: "trap", text: "Captured and kept: your castle takes 3 damage." },
  treasure: { name: "Treasure Chest", damage: 0, kind: "trap", text: "Captured and kept: restore 3 HP." },
};

export function cardName(id) {
  return (CARDS[id] && CARDS[id].name) || id;
}

/** Whether playing the card names an opponent castle (damage, or the Thief). */
export function needsTarget(id) {
  const card = CARDS[id];
  return !!card && (card.damage > 0 || card.effect === "steal");
}

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
  const card = CARDS[id] || { name: id, damage: 0, kind: "trick" };
  const [dark, light] = FRAMES[card.kind] || FRAMES.trick;
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

/** The back of a card: the Rampart crest on a dark pattern. */
export function cardBackSvg() {
  return `<svg class="card-art" viewBox="0 0 100 140" aria-hidden="true">
    <rect x="2" y="2" width="96" height="136" rx="9" fill="#2b2036" stroke="#b48b3c" stroke-width="2"/>
    <rect x="9" y="9" width="82" height="122" rx="6" fill="none" stroke="#b48b3c" stroke-width="1" stroke-dasharray="3 3"/>
    <path d="M30 86 V58 H36 V64 H44 V58 H56 V64 H64 V58 H70 V86 Z" fill="#b48b3c"/>
    <rect x="46" y="72" width="8" height="14" rx="4" fill="#2b2036"/>
    <path d="M50 30 L58 44 H42 Z" fill="#8e2f2f"/><path d="M50 30 V58" stroke="#b48b3c" stroke-width="2"/>
  </svg>`;
}
