// Ember events as feed lines ({kind, text}), naming cards by the uids the views have shown.
import { cardName, heroName } from "./cards.js";

/** The table's memory of card uids -> card ids (uids are stable within a match). */
export function memory(ui) {
  if (!ui.emberKnown) ui.emberKnown = new Map();
  return ui.emberKnown;
}

/** Remember every card a view shows by uid. */
export function learn(view, ui) {
  const known = memory(ui);
  if (!view) return;
  for (const p of view.players || []) for (const c of p.scape || []) if (c.card) known.set(c.uid, c.card);
  for (const c of view.hand || []) known.set(c.uid, c.card);
  for (const item of view.stack || []) if (item.card) known.set(item.uid, item.card);
  if (view.arcane_card) known.set(view.arcane_card.uid, view.arcane_card.card);
}

function learnEvent(event, known) {
  if (event.uid !== undefined && event.card) known.set(event.uid, event.card);
  for (const c of [...(event.cards || []), event.to_arcane, event.to_hand]) if (c && c.uid !== undefined) known.set(c.uid, c.card);
}

const ATTACK_LINES = {
  steal_scape: (a, b, c) => `${a} stole ${c} from ${b} emberscape.`,
  destroy_scape: (a, b, c) => `${a} destroyed ${c} in ${b} emberscape.`,
  capture: (a, b, c) => `${a} captured ${c} from ${b} emberscape.`,
  collect_scape: (a, b, c) => `${a} collected ${c} from ${b} emberscape.`,
  return_scape: (a, b, c) => `${a} returned ${c} from ${b} emberscape to the hand.`,
  steal_hand: (a, b, c) => `${a} stole ${c === "a hidden card" ? "a card" : c} from ${b} hand.`,
  destroy_hand: (a, b, c) => `${a} destroyed ${c} from ${b} hand.`,
  hex: (a, b, c) => `${a} hexed ${b} mode pile with ${c}.`,
};

const ZONE_WORDS = { discard: "the discard pile", mode_pile: "the mode pile", collection: "the collection pile" };
export const REASONS = { last_arcane: "the last arcane card was played", round_limit: "the round limit was reached", exhausted: "nobody can play any more", resign: "resignation" };

/** One event as {kind, text}, or null for events not worth a line. */
export function describeEvent(event, ctx) {
  const seat = ctx ? ctx.seat : null;
  const ui = (ctx && ctx.ui) || {};
  const known = memory(ui);
  learnEvent(event, known);
  const view = ctx && ctx.view;
  const names = (ctx && ctx.names) || [];
  const nameOf = (s) => names[s] || (view && view.players && view.players[s] && view.players[s].name) || `Seat ${s + 1}`;
  const who = (s) => (s === seat ? "you" : nameOf(s));
  const whose = (s) => (s === seat ? "your" : `${nameOf(s)}'s`);
  const is = (s, you, other) => (s === seat ? you : other);
  const card = (uid, id) => cardName(id || known.get(uid));
  switch (event.type) {
    case "hero_chosen":
      return { kind: "turn", text: `${who(event.seat)} ${is(event.seat, "choose", "chooses")} ${heroName(event.hero)}.` };
    case "dealt":
      return { kind: "turn", text: `The decks are dealt: 4 arcane cards and 5 in hand each; ${who(event.first_seat)} ${is(event.first_seat, "begin", "begins")}.` };
    case "turn_started":
      return { kind: "turn", text: `Round ${event.round}: ${whose(event.seat)} turn.` };
    case "collected": {
      const n = (event.cards || []).length + (event.hidden || 0);
      return { kind: "reveal", text: `${who(event.seat)} ${is(event.seat, "collect", "collects")} ${n} card${n === 1 ? "" : "s"} from the emberscape.` };
    }
    case "arcane_revealed":
      return { kind: "reveal", text: `${whose(event.seat)} arcane card is revealed: ${card(event.uid, event.card)}!` };
    case "mode_set":
      return { kind: "turn", text: `${who(event.seat)} ${is(event.seat, "take", "takes")} ${card(event.uid, event.card)} as mode card${event.forced ? " (from the deck)" : ""}.` };
    case "mode_kept":
      return { kind: "turn", text: `${who(event.seat)} ${is(event.seat, "keep", "keeps")} the mode.` };
    case "drew":
      if (!event.count) return null;
      if (event.cards) return { kind: "secret", text: `You drew ${event.cards.map((c) => cardName(c.card)).join(", ")}.` };
      return { kind: "turn", text: `${who(event.seat)} drew ${event.count} card${event.count === 1 ? "" : "s"}.` };
    case "reshuffled":
      return { kind: "turn", text: `${whose(event.seat)} discard pile becomes the deck (${event.count}).` };
    case "played": {
      const what = event.card && !(event.face_down && event.from === "hand" && event.seat !== seat) ? card(event.uid, event.card) : "a card face down";
      const at = event.target_seat === null || event.target_seat === undefined ? ""
        : event.target_card !== null && event.target_card !== undefined ? ` at ${whose(event.target_seat)} ${card(event.target_card)}`
          : ` at ${who(event.target_seat)}`;
      const from = event.from === "arcane" ? " (arcane)" : event.face_down && event.card ? " face down" : "";
      return { kind: "play", text: `${who(event.seat)} ${is(event.seat, "play", "plays")} ${what}${from}${at}.` };
    }
    case "window_opened":
      return { kind: "ambush", text: `${who(event.seat)} may respond…` };
    case "responded":
      return { kind: "ambush", text: `${who(event.seat)} ${is(event.seat, "respond", "responds")} with ${card(event.uid, event.card)}!` };
    case "window_closed":
      return event.reason === "timeout" ? { kind: "turn", text: `${whose(event.seat)} time to respond ran out.` } : null;
    case "resolved":
      return null;
    case "placed":
      return event.to === "discard" ? null : { kind: "turn", text: `${card(event.uid, event.card)} goes onto ${whose(event.seat)} ${ZONE_WORDS[event.to].replace("the ", "")}.` };
    case "added":
      return { kind: "play", text: `${who(event.seat)} ${is(event.seat, "add", "adds")} ${card(event.uid, event.card)} to the emberscape.` };
    case "return_own":
      return { kind: "play", text: `${who(event.seat)} ${is(event.seat, "return", "returns")} ${event.card ? card(event.uid, event.card) : "a face-down card"} to the hand.` };
    case "collect_own":
      return { kind: "play", text: `${who(event.seat)} ${is(event.seat, "collect", "collects")} ${event.card ? card(event.uid, event.card) : "a face-down card"}.` };
    case "rune_swap":
      return event.to_arcane
        ? { kind: "secret", text: `You swapped ${cardName(event.to_arcane.card)} with your next arcane card (${cardName(event.to_hand.card)}).` }
        : { kind: "turn", text: `${who(event.seat)} swapped a card with an arcane card.` };
    case "attack_stopped":
      return { kind: "heal", text: `The attack on ${who(event.target_seat)} is stopped${event.why === "protected" ? " by protection" : ""}.` };
    case "no_target": {
      // An attack played with nobody it could hit: who was protected, and how.
      const shielded = event.protected || [];
      if (!shielded.length) return { kind: "turn", text: "The attack finds no target: no opponent has a card it could hit." };
      const why = shielded.map(([s, how]) => `${who(s)} ${is(s, "are", "is")} ${how === "mode" ? "in protection mode" : "warded by a lasting card"}`);
      return { kind: "heal", text: `The attack finds no target: ${why.join(", ")}.` };
    }
    case "attack_missed":
      return { kind: "turn", text: "The attack misses: its target is gone." };
    case "no_room":
      return { kind: "turn", text: `No room in ${whose(event.seat)} emberscape: that effect does not happen.` };
    case "cancelled":
      return { kind: "bad", text: `${card(event.uid)} is cancelled.` };
    case "hand_shown":
      return { kind: "reveal", text: `${who(event.seat)} cannot play and ${is(event.seat, "show", "shows")} the hand: ${(event.cards || []).map((c) => cardName(c.card)).join(", ")}.` };
    case "discarded":
      return { kind: "turn", text: `${who(event.seat)} ${is(event.seat, "discard", "discards")} ${card(event.uid, event.card)} (hand limit).` };
    case "resigned":
      return { kind: "bad", text: `${who(event.seat)} resigned.` };
    case "game_over": {
      // A reloaded page learns the scores from the history, after its first drawing.
      if (event.scores && !ui.emberScores) {
        ui.emberScores = event.scores;
        if (ctx && ctx.rerender) setTimeout(ctx.rerender, 0);
      }
      const scores = (event.scores || []).map((n, s) => `${nameOf(s)} ${n}`).join(", ");
      return { kind: "result", text: `The game is over (${REASONS[event.reason] || event.reason}). Ember stones: ${scores}.` };
    }
    default: {
      const line = ATTACK_LINES[event.type];
      if (!line) return { kind: "turn", text: event.type.replace(/_/g, " ") };
      return { kind: event.type.startsWith("destroy") ? "bad" : "play", text: line(who(event.seat), whose(event.target_seat), card(event.uid, event.card)) };
    }
  }
}
