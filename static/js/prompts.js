// What the banner tells the player to do now, from the view and their half-made choice.
import { cardName } from "./cards.js";
import { seconds } from "./dom.js";

/**
 * ctx: {view, seat, names, now (match ms), owed (cards to return), picked (chosen so far),
 *       stage (null|"target"|"look"|"swap"|"cell"), selection}
 */
export function promptText({ view, seat, names, now, owed, picked, stage, selection }) {
  if (!view) return "";
  if (view.outcome) return "The game is over.";
  const name = (s) => (s === seat ? "You" : names[s] || `Seat ${s + 1}`);
  const mine = seat !== null && view.turn === seat;
  if (view.phase === "ambush") {
    const left = view.race ? seconds(view.race.ends_at - now) : "";
    const castle = seat === null ? null : (view.castles || []).find((c) => c.seat === seat);
    if (seat === null || !castle || !castle.alive) {
      return seat === null ? `Ambush! race — ${left}` : `Ambush! race — ${left} left; you are out of the game and do not grab.`;
    }
    return `AMBUSH! Grab face-down cards! (${left} left)`;
  }
  if (view.phase === "returning") {
    return owed ? `Hand limit: choose ${owed} card(s) to return (${picked}/${owed}).` : "Waiting for hands over the limit…";
  }
  if (view.phase === "placing") {
    return mine ? `Elven Archer: click a glowing cell for a hidden card (${view.placing_left} left).` : `${name(view.turn)} is placing hidden cards…`;
  }
  if (!mine) return `${name(view.turn)} is on turn.`;
  if (view.step === "expose") return "Your turn: click a glowing cell to expose the top card of the deck.";
  if (!stage) return "Your turn: choose a card to play (keys 1-9), or pass (P).";
  const card = cardName(selection.card);
  if (stage === "target") return `${card}: choose an opponent castle.`;
  if (stage === "look") return `${card}: choose a face-down card to look at.`;
  if (stage === "swap") return `${card}: choose two face-down cards to swap (${selection.swap.length}/2).`;
  if (selection.onlyLook) {
    // One face-down card only: the Scout's look needs no choice (it may be the card just
    // exposed, which everyone saw; "choose a face-down card" would name a card shown face up).
    const exposed = view.exposed && selection.look && view.exposed.cell.join() === selection.look.join();
    const which = exposed ? `the card just exposed (${cardName(view.exposed.card)}), the only face-down card` : "the only face-down card";
    return `${card} looks at ${which}: click a glowing cell to play it there. Esc to cancel.`;
  }
  return `${card}: click a glowing cell to play it there. Esc to cancel.`;
}
