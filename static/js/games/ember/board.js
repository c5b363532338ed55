// Ember table pieces: a player's area (mode card, emberscape, piles), the phase track, the
// stack, the hero choice and the final scoring. Pure builders: ember.js passes the marks.
import { h, svg } from "../../dom.js";
import { HEROES, MODES, cardFaceSvg, cardName, cardSummary, heroColor, heroName, modeIconSvg } from "./cards.js";

export const SCAPE_SIZE = 5;
export const HAND_LIMIT = 9;
export const PHASES = [
  { id: "collection", label: "Collection" },
  { id: "mode", label: "Mode" },
  { id: "draw", label: "Draw" },
  { id: "play", label: "Play" },
  { id: "end", label: "End" },
];

/**
 * One card as a button or figure. ``card`` is {uid, card?, face_down?}; marks: {target,
 * choice, selectable, selected, peek (owner sees a face-down card), onClick, small}.
 */
export function cardEl(card, marks = {}) {
  const cls = ["em-card",
    marks.small ? "em-small" : "", card.face_down ? "em-facedown" : "",
    marks.target ? "em-target" : "", marks.choice ? "em-choice" : "",
    marks.selectable ? "em-selectable" : "", marks.selected ? "em-selected" : "",
    marks.fresh ? "em-fresh" : ""].filter(Boolean).join(".");
  const title = card.face_down ? (marks.peek && card.card ? `Face down (only you know): ${cardSummary(card.card)}` : "A face-down card: opponents cannot touch it.") : cardSummary(card.card);
  const attrs = { "data-uid": card.uid, "data-card": card.face_down && !marks.peek ? "hidden" : card.card || "hidden", title };
  // A face-down card shows its back even to its owner, who reads its name on a label.
  const art = svg(cardFaceSvg(card.face_down ? null : card.card));
  const body = [art, card.face_down && marks.peek ? h("span.em-peek", cardName(card.card)) : null];
  if (marks.onClick) return h(`button.${cls}`, { ...attrs, type: "button", onclick: () => marks.onClick(card) }, body);
  return h(`div.${cls}`, attrs, body);
}

/** A pile of card backs with a count badge. */
function backs(count, label, cls = "") {
  const shown = Math.min(count, 6);
  return h(`div.em-pile${cls}`, { title: `${label}: ${count}` },
    h("div.em-backs", Array.from({ length: shown }, (_, k) => h("i", { style: { "--k": k } }))),
    h("span.em-pile-label", label, h("b", String(count))));
}

/** A player's area. opts: {me, names, view, marks(card, zone) -> marks, onSeat, seatTarget, stage} */
export function areaEl(player, opts) {
  const v = opts.view;
  const acting = (v.to_act || []).includes(player.seat) && !v.outcome;
  const onTurn = v.turn === player.seat && v.phase !== "hero" && !v.outcome;
  const mode = MODES[player.mode];
  const color = heroColor(player.hero);
  const status = player.resigned ? "resigned"
    : v.window && v.window.seat === player.seat ? "may respond"
      : onTurn ? `${phaseLabel(opts.stage)} phase` : "";
  const head = h("div.em-area-head",
    h("span.em-hero-dot", { style: { background: color } }),
    h("span.em-name", opts.names[player.seat]),
    opts.me ? h("span.you", "you") : null,
    h("span.em-hero", heroName(player.hero)),
    status ? h(`span.em-status${acting ? ".em-acting" : ""}`, status) : null,
    opts.seatTarget ? h("button.btn.em-seat-target", { type: "button", "data-seat": player.seat, onclick: () => opts.onSeat(player.seat) }, `Target ${opts.names[player.seat]}`) : null);
  const modeCard = player.mode_card
    ? cardEl({ uid: `mode-${player.seat}`, card: player.mode_card }, { small: true })
    : h("div.em-slot.em-small", "no mode");
  const modeBox = h("div.em-mode", { title: mode ? `${mode.label} mode: ${mode.rule}` : "No mode card yet." },
    modeCard,
    h("span.em-mode-label", mode ? svg(modeIconSvg(player.mode)) : null, mode ? mode.label : "—"),
    player.mode_pile > 1 ? h("span.em-count", `${player.mode_pile} in pile`) : null);
  const slots = [];
  for (const card of player.scape) slots.push(cardEl(card, opts.marks(card, "scape")));
  for (let k = player.scape.length; k < SCAPE_SIZE; k += 1) slots.push(h("div.em-slot"));
  const threshold = player.mode === "hasty" ? 3 : SCAPE_SIZE;
  const scape = h("div.em-scape-box",
    h("div.em-zone-label", "Emberscape", h("span.em-count", `${player.scape.length}/${threshold === 3 ? "3 (hasty)" : SCAPE_SIZE}`)),
    h("div.em-scape", { "data-seat": player.seat }, slots));
  const top = player.discard.length ? player.discard[player.discard.length - 1] : null;
  const discard = h("details.em-discard", { title: "Discard pile (face up)" },
    h("summary", top ? cardEl({ uid: `discard-${player.seat}`, card: top }, { small: true }) : h("div.em-slot.em-small", "empty"),
      h("span.em-pile-label", "Discard", h("b", String(player.discard.length)))),
    player.discard.length ? h("ol.em-discard-list", player.discard.slice().reverse().map((id) => h("li", cardName(id)))) : null);
  const collection = backs(player.collection, "Collection", ".em-collection");
  if (opts.me && player.stones !== undefined) collection.append(h("span.em-stones", { title: "ember stones in your collection (only you see this)" }, `${player.stones} stones`));
  const piles = h("div.em-piles",
    collection,
    // The revealed arcane card shows in the middle while it is declared, so it leaves the pile.
    backs(player.arcane - (v.phase === "arcane" && v.turn === player.seat ? 1 : 0), "Arcane", ".em-arcane"),
    opts.me ? null : backs(player.hand, "Hand", ".em-handcount"),
    backs(player.deck, "Deck", ".em-deck"),
    discard);
  const cls = ["em-area", opts.me ? "em-mine" : "", onTurn ? "em-on-turn" : "", acting ? "em-acting-area" : "", player.resigned ? "em-out" : "", opts.seatTarget ? "em-seat-targetable" : ""].filter(Boolean).join(".");
  return h(`section.${cls}`, { "data-seat": player.seat, style: { "--hero": color }, "aria-label": `${opts.names[player.seat]}'s area` },
    head, h("div.em-area-body", modeBox, scape, piles));
}

export function phaseLabel(stage) {
  const p = PHASES.find((x) => x.id === stage);
  return p ? p.label : "";
}

/** The five phases of the turn, the current one lit. */
export function phaseTrack(v, stage, names) {
  if (v.phase === "hero" || v.outcome) return null;
  const at = PHASES.findIndex((p) => p.id === stage);
  return h("div.em-phases", { "aria-label": "turn phases" },
    h("span.em-round", `Round ${v.round}`, h("small", ` / ${v.max_rounds}`)),
    h("span.em-turn-of", `${names[v.turn]}'s turn`),
    h("ol.em-phase-list", PHASES.map((p, i) => h(`li.em-phase${i === at ? ".em-now" : i < at ? ".em-done" : ""}`, { "data-phase": p.id }, p.label))));
}

/** The played card and the responses answering it, bottom first. */
export function stackEl(v, names, known) {
  if (!v.stack || !v.stack.length) return null;
  const items = v.stack.map((item, i) => {
    const target = item.target_seat === null || item.target_seat === undefined ? null
      : item.target_card !== null && item.target_card !== undefined ? `→ ${names[item.target_seat]}'s ${cardName(known.get(item.target_card))}`
        : `→ ${names[item.target_seat]}`;
    const role = item.role === "response" ? `answers ${cardName(v.stack[item.answers].card)}` : target;
    return h(`div.em-stack-item${item.role === "response" ? ".em-response" : ""}`, { style: { "--i": i } },
      cardEl({ uid: item.uid, card: item.card, face_down: !item.card }, {}),
      h("div.em-stack-text", h("b", names[item.seat]), h("span", role || "no target")));
  });
  return h("div.em-stack", { "aria-label": "the stack" }, h("div.em-zone-label", "In play"), h("div.em-stack-items", items));
}

/** The arcane card being played, while its player declares. */
export function arcaneEl(v, names) {
  if (!v.arcane_card || v.phase !== "arcane") return null;
  return h("div.em-arcane-reveal", h("div.em-zone-label", `${names[v.turn]}'s arcane card`),
    cardEl({ uid: v.arcane_card.uid, card: v.arcane_card.card }, {}));
}

/** The four heroes; the seat choosing now may click a free one. */
export function heroPicker(v, names, chooser, onPick, legal) {
  const taken = new Map(v.players.filter((p) => p.hero).map((p) => [p.hero, p.seat]));
  const free = new Set(legal.filter((a) => a.type === "hero").map((a) => a.hero));
  return h("div.em-heroes",
    h("h2", chooser === null ? "Heroes are being chosen" : `${names[chooser]} ${free.size ? "— choose your hero" : "is choosing a hero"}`),
    h("div.em-hero-list", Object.entries(HEROES).map(([id, hero]) => {
      const by = taken.get(id);
      const attrs = { "data-hero": id, style: { "--hero": heroColor(id) } };
      const body = [h("span.em-hero-name", hero.name), h("span.em-hero-way", hero.strategy),
        by !== undefined ? h("span.em-hero-taken", `taken by ${names[by]}`) : null];
      return free.has(id)
        ? h("button.em-hero-card.em-hero-free", { ...attrs, type: "button", onclick: () => onPick(id) }, body)
        : h(`div.em-hero-card${by !== undefined ? ".em-hero-gone" : ""}`, attrs, body);
    })));
}

/** The final scoring: stones per seat from the game_over event (or what this seat knows). */
export function scoringEl(v, names, scores, mySeat) {
  const o = v.outcome;
  const place = {};
  o.placings.forEach((group, i) => { for (const s of group) place[s] = i + 1; });
  const rows = v.players.slice().sort((a, b) => place[a.seat] - place[b.seat]).map((p) => {
    const stones = scores ? scores[p.seat] : p.seat === mySeat ? p.stones : null;
    return h(`tr${p.seat === mySeat ? ".mine" : ""}`, { "data-seat": p.seat },
      h("td", `${place[p.seat]}.`), h("td", names[p.seat]), h("td", heroName(p.hero)),
      h("td", String(p.collection)), h("td.em-final-stones", stones === null || stones === undefined ? "?" : String(stones)));
  });
  return h("div.em-scoring", h("h2", "Final scoring"),
    h("table.em-score-table",
      h("thead", h("tr", h("th", "#"), h("th", "Player"), h("th", "Hero"), h("th", "Collected"), h("th", "Stones"))),
      h("tbody", rows)));
}

