// The back of an Ambush! or Castle Rampage card, shared by both games' card art.

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
