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
    return seat === null ? `Ambush! race — ${left}` : `AMBUSH! Grab face-down cards! (${left} left)`;
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
  return `${card}: click a glowing cell to play it there. Esc to cancel.`;
}
