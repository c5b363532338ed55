// Ambush! in words: engine events as feed lines, and what the banner tells the player to do now
// (from the view and their half-made choice).
import { seconds } from "../../dom.js";
import { cardName } from "./cards.js";

const cellText = (cell) => (cell ? `(${cell[0]}, ${cell[1]})` : "");
const list = (cards) => cards.map(cardName).join(", ");

/** One event as {text, kind} or null when it is not worth a line. */
export function describeEvent(event, names, mySeat) {
  const line = eventLine(event, names, mySeat);
  if (line && line.text) line.text = line.text[0].toUpperCase() + line.text.slice(1);
  return line;
}

function eventLine(event, names, mySeat) {
  const who = (seat) => (seat === mySeat ? "You" : names[seat] || `Seat ${seat + 1}`);
  const whose = (seat) => (seat === mySeat ? "your castle" : names[seat] || `Seat ${seat + 1}`);
  switch (event.type) {
    case "turn_started":
      return { kind: "turn", text: `Turn ${event.number}: ${who(event.seat)} ${event.seat === mySeat ? "are" : "is"} on turn.` };
    case "turn_resumed":
      return { kind: "turn", text: `${who(event.seat)} ${event.seat === mySeat ? "continue" : "continues"} the turn.` };
    case "exposed":
      return { kind: "reveal", text: `${who(event.seat)} exposed ${cardName(event.card)} at ${cellText(event.cell)}.` };
    case "played": {
      const target = event.target === null || event.target === undefined ? "" : ` at ${whose(event.target)}`;
      const hits = (event.hits || [])
        .map((hit) => `${whose(hit.seat)} −${hit.hp_lost}${hit.absorbed ? ` (${hit.absorbed} warded)` : ""}`)
        .join(", ");
      return { kind: "play", text: `${who(event.seat)} played ${cardName(event.card)}${target}${hits ? `: ${hits}` : ""}.` };
    }
    case "healed":
      return { kind: "heal", text: `${who(event.seat)} healed ${event.amount} (HP ${event.hp}).` };
    case "warded":
      return { kind: "heal", text: `${who(event.seat)} raised a ward (${event.ward}).` };
    case "looked":
      return { kind: "secret", text: event.card ? `You looked at ${cellText(event.cell)}: ${cardName(event.card)}.` : `${who(event.seat)} looked at the card at ${cellText(event.cell)}.` };
    case "swapped":
      return { kind: "play", text: `${who(event.seat)} swapped ${cellText(event.cells[0])} and ${cellText(event.cells[1])}.` };
    case "stolen":
      return { kind: "secret", text: event.card ? `${who(event.thief)} stole ${cardName(event.card)} from ${whose(event.victim)}.` : `${who(event.thief)} stole a card from ${whose(event.victim)}.` };
    case "placed":
      return { kind: "play", text: `${who(event.seat)} placed a hidden card at ${cellText(event.cell)}.` };
    case "passed":
      return { kind: "turn", text: `${who(event.seat)} passed.` };
    case "ambush_called":
      return { kind: "ambush", text: `AMBUSH! called by ${who(event.seat)}. Grab!` };
    case "grabbed":
      return { kind: "grab", text: `${who(event.seat)} grabbed ${cellText(event.cell)}.` };
    case "race_ended":
      return { kind: "ambush", text: `The race is over (${event.grabs} grabbed${event.reason === "empty" ? ", battlefield empty" : ""}).` };
    case "check": {
      const counts = event.counts.map((n, seat) => `${who(seat)} ${n}`).join(", ");
      return {
        kind: event.valid ? "ambush" : "bad",
        text: event.valid
          ? `The check: a true call. Ambush! cards captured: ${counts}; ${event.left} left.`
          : `The check: a FALSE call! ${who(event.caller)} ${event.caller === mySeat ? "lose" : "loses"} ${event.penalty} captured card(s).`,
      };
    }
    case "captured":
      return { kind: "grab", text: event.cards ? `Your captures join your hand: ${list(event.cards) || "none"}.` : `${who(event.seat)} kept ${event.count} card(s).` };
    case "trigger":
      return {
        kind: event.effect === "damage" ? "bad" : "heal",
        text: event.effect === "damage"
          ? `${cardName(event.card)}! ${whose(event.seat)} takes ${event.hp_lost} damage.`
          : `${cardName(event.card)}! ${whose(event.seat)} restores ${event.hp_gained} HP.`,
      };
    case "shuffled_back":
      return event.count ? { kind: "turn", text: `${event.count} card(s) shuffled back into the deck.` } : null;
    case "hand_limit":
      return { kind: "ambush", text: `Hand limit: ${event.owed.map(([seat, n]) => `${who(seat)} ${n}`).join(", ")} card(s) to return.` };
    case "returned":
      return { kind: "turn", text: event.cards ? `You returned ${list(event.cards)}.` : `${who(event.seat)} returned ${event.count} card(s).` };
    case "destroyed":
      return { kind: "bad", text: `${whose(event.seat)} is destroyed!` };
    case "resigned":
      return { kind: "bad", text: `${who(event.seat)} resigned.` };
    case "game_over": {
      const first = (event.placings && event.placings[0]) || [];
      return { kind: "result", text: `Game over: ${first.map(who).join(" and ")} ${first.length > 1 ? "tie" : first[0] === mySeat ? "win" : "wins"}.` };
    }
    default:
      return { kind: "turn", text: event.type.replace(/_/g, " ") };
  }
}

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
