// Castle Rampage events as feed lines, and one attack's reveals gathered for the table.
import { cardName, unitName } from "./cards.js";

const list = (cards) => cards.map(cardName).join(", ");
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const STRUCTURE = { gate: "Gate", castle: "Castle" };
const REASONS = { cost: "to pay", ogre_cost: "to place the Ogre", archer: "to the Archer", priest: "to the Priest" };

/** One event as {text, kind} or null. */
export function describeRampageEvent(event, names, mySeat) {
  const who = (seat) => (seat === mySeat ? "you" : names[seat] || `Seat ${seat + 1}`);
  const verb = (seat, mine, theirs) => (seat === mySeat ? mine : theirs);
  const whose = (seat) => (seat === mySeat ? "your" : `${who(seat)}'s`);
  const at = (seat, structure) => `${whose(seat)} ${STRUCTURE[structure] || structure}`;
  switch (event.type) {
    case "match_started":
      return { kind: "turn", text: `The siege begins: ${(event.names || []).join(" against ")}.` };
    case "dealt":
      // Dealt cards end up face down in the stacks: the feed never names them, not even
      // to their owner (sizes only; the rulebook forbids looking at your own stacks).
      return { kind: "turn", text: `${event.round ? `Set-up round ${event.round}: ` : ""}${who(event.seat)} ${verb(event.seat, "were", "was")} dealt ${plural(event.count, "card")}.` };
    case "setup_chosen":
      return event.gate
        ? { kind: "secret", text: `You hid ${event.gate.length} cards under your Gate and ${event.castle.length} under your Castle; ${list(event.aside)} go${event.aside.length === 1 ? "es" : ""} to your hand.` }
        : { kind: "turn", text: `${who(event.seat)} ${verb(event.seat, "have", "has")} split the dealt cards.` };
    case "purple_returned":
      return { kind: "turn", text: `${plural(event.count, "purple card")} went back into the draw pile (purple cards are never dealt).` };
    case "setup_done":
      return { kind: "turn", text: "Set-up done: both castles stand; the siege starts." };
    case "turn_started":
      return { kind: "turn", text: `Turn ${event.turn}: ${who(event.seat)} ${verb(event.seat, "are", "is")} on turn.` };
    case "turn_ended":
      return null;
    case "drew":
      if (event.cards) return { kind: "secret", text: event.cards.length ? `You drew ${list(event.cards)}.` : "You drew nothing: both piles are empty." };
      return { kind: "turn", text: `${who(event.seat)} drew ${plural(event.count, "card")}.` };
    case "defended":
      return { kind: "heal", text: `${who(event.seat)} placed a card under ${event.seat === mySeat ? "your" : "their"} ${STRUCTURE[event.to]}.` };
    case "discarded": {
      if (!event.cards.length) return event.reason === "priest" ? { kind: "play", text: `The Priest named ${unitName(event.named)}: nothing to discard.` } : null;
      const named = event.named ? ` (${unitName(event.named)})` : "";
      return { kind: "turn", text: `${who(event.seat)} discarded ${list(event.cards)} ${REASONS[event.reason] || ""}${named}.` };
    }
    case "played":
      return { kind: "play", text: `${who(event.seat)} played ${cardName(event.card)}.` };
    case "attack":
      return { kind: "play", text: `${who(event.seat)} ${verb(event.seat, "attack", "attacks")} ${at(event.target, event.structure)} with ${cardName(event.card)}: strength ${event.strength}.` };
    case "revealed":
      return { kind: "reveal", text: `Revealed at ${at(event.seat, event.structure)}: ${cardName(event.card)}, defence ${event.defence} against ${event.strength}.` };
    case "destroyed":
      return { kind: "bad", text: `${at(event.seat, event.structure)} loses ${cardName(event.card)}${event.cause === "attack" ? "" : ` (${event.cause.replace(/_/g, " ")})`}.` };
    case "attack_ended":
      if (event.repelled_by) {
        const fate = event.result === "returned" ? "returns to the hand" : "is destroyed";
        return { kind: "heal", text: `The defence held: ${cardName(event.repelled_by)} stays on top; ${cardName(event.card)} ${fate}.` };
      }
      return { kind: "turn", text: `The attack is over; ${cardName(event.card)} goes to the discard pile.` };
    case "triggered": {
      const name = cardName(event.card);
      if (event.effect === "bomber") return { kind: "bad", text: `${name} explodes: the attack stops and the attacker's outer card falls.` };
      if (event.effect === "saboteur") return { kind: "bad", text: `${name}: ${who(event.victim)} ${verb(event.victim, "discard", "discards")} ${event.cards.length ? list(event.cards) : "nothing"}.` };
      if (event.effect === "spy") {
        const what = event.cards ? list(event.cards) : plural(event.count, "card");
        return { kind: "secret", text: `${name}: ${who(event.seat)} ${verb(event.seat, "take", "takes")} ${what} from ${who(event.victim)}.` };
      }
      return { kind: "bad", text: `${name} triggers.` };
    }
    case "stolen": {
      const what = event.cards ? (event.cards.length ? list(event.cards) : "nothing") : plural(event.count, "card");
      return { kind: "secret", text: `${who(event.seat)} stole ${what} from ${who(event.victim)}.` };
    }
    case "permanent_destroyed":
      return { kind: "bad", text: `${whose(event.seat)} ${cardName(event.card)} is destroyed (${event.cause.replace(/_/g, " ")}).` };
    case "bricklayer":
      return { kind: "heal", text: `${who(event.seat)} ${verb(event.seat, "add", "adds")} the top card of the draw pile under ${event.seat === mySeat ? "your" : "their"} Castle, unseen.` };
    case "reshuffled":
      return { kind: "turn", text: `The discard pile is shuffled into a new draw pile (${plural(event.count, "card")}).` };
    case "resigned":
      return { kind: "bad", text: `${who(event.seat)} resigned.` };
    case "game_over":
      if (event.winner === null || event.winner === undefined) return { kind: "result", text: `Game over: a draw (${event.reason.replace(/_/g, " ")}).` };
      return { kind: "result", text: `Game over: ${who(event.winner)} ${verb(event.winner, "win", "wins")} (${event.reason.replace(/_/g, " ")}).` };
    default:
      return { kind: "turn", text: event.type.replace(/_/g, " ") };
  }
}

/**
 * The last attack in a patch's events as {seat, card, strength, target, structure, steps,
 * result, repelledBy, over}, steps being [{card, structure, defence, strength, fate}], or null.
 */
export function lastAttack(events, previous) {
  let attack = null;
  for (const event of events) {
    if (event.type === "attack") {
      attack = { seat: event.seat, card: event.card, strength: event.strength, target: event.target, structure: event.structure, steps: [], result: null, repelledBy: null, notes: [] };
      continue;
    }
    if (!attack) continue;
    const step = attack.steps[attack.steps.length - 1];
    if (event.type === "revealed") attack.steps.push({ card: event.card, structure: event.structure, defence: event.defence, strength: event.strength, fate: "held" });
    else if (event.type === "destroyed" && event.cause === "attack" && step && step.card === event.card) step.fate = step.defence === step.strength ? "tie" : "destroyed";
    else if (event.type === "triggered") attack.notes.push(cardName(event.card));
    else if (event.type === "attack_ended") { attack.result = event.result; attack.repelledBy = event.repelled_by || null; }
    else if (event.type === "game_over") attack.over = true;
  }
  return attack || previous;
}
