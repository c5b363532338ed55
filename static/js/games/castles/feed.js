// Castles events as feed lines ({kind, text}); card ids are named from what the views showed.
import { SIDE_NAMES, title } from "./cards.js";

// Card id -> kind, learnt from every view drawn at this table (ids are stable in a match).
const known = new Map();
const sides = new Map(); // card id -> side, for cards in play (shared cards change hands)
let knownFor = null;

/** Remember the kinds of every card a view shows; a new table starts a fresh memory. */
export function learn(view, table) {
  if (table !== knownFor) { known.clear(); sides.clear(); knownFor = table; }
  if (!view) return;
  for (const c of view.in_play || []) { known.set(c.id, c.kind); sides.set(c.id, c.side); }
  for (const c of [...(view.hand || []), ...(view.discard || [])]) known.set(c.id, c.kind);
  for (const cards of Object.values(view.known || {})) for (const c of cards) known.set(c.id, c.kind);
}

export const kindOf = (id) => known.get(id);
/** "Blue Spearman": a card's side (when it was last seen in play) and title. */
export function cardText(id) {
  if (!known.has(id)) return "a card";
  const side = sides.get(id);
  return `${side === 0 || side === 1 ? `${SIDE_NAMES[side]} ` : ""}${title(known.get(id))}`;
}

const ZONE_NAMES = ["Red Castle", "Red Middle", "Red Front", "Blue Front", "Blue Middle", "Blue Castle"];
export const zoneName = (z) => `${ZONE_NAMES[z] || `zone ${z}`} Zone`;

/** One event as {kind, text}, or null for events not worth a line. */
export function describeEvent(event, ctx) {
  const seat = ctx ? ctx.seat : null;
  const names = (ctx && ctx.names && ctx.names.length ? ctx.names : (ctx && ctx.view && ctx.view.names)) || [];
  const who = (s) => (s === seat ? "You" : names[s] || `Seat ${s + 1}`);
  const verb = (s, you, other) => (s === seat ? you : other);
  switch (event.type) {
    case "setup":
      return { kind: "turn", text: `The armies muster: ${event.seats} seats, ${who(event.first_seat)} first.` };
    case "turn_started":
      return { kind: "turn", text: `Turn ${event.turn}: ${who(event.seat)} ${verb(event.seat, "have", "has")} the field.` };
    case "turn_ended":
      return null;
    case "drew":
      return event.card && event.card.kind
        ? { kind: "secret", text: `You drew ${title(event.card.kind)}.` }
        : { kind: "turn", text: `${who(event.seat)} drew ${event.count} card${event.count === 1 ? "" : "s"}.` };
    case "played": {
      let where = "";
      if (event.zone !== undefined && event.zone !== null) where = ` into the ${zoneName(event.zone)}`;
      if (event.target !== undefined && event.target !== null) where = ` on ${cardText(event.target)}`;
      if (event.targets) where = ` (${event.targets.map(cardText).join(", ")})`;
      const kind = event.card_kind === "trap" ? "ambush" : "play";
      return { kind, text: `${who(event.seat)} played ${title(event.card_kind)}${where}.` };
    }
    case "moved":
      return { kind: "turn", text: `${cardText(event.card)} moved from the ${zoneName(event.start)} to the ${zoneName(event.to)}.` };
    case "attacked":
      return { kind: "play", text: `${cardText(event.card)} attacks ${cardText(event.target)}.` };
    case "damaged":
      return { kind: "bad", text: `${cardText(event.card)} takes ${event.amount} damage (HP ${event.hp}).` };
    case "healed":
      return { kind: "heal", text: `${cardText(event.card)} regains ${event.amount} HP (HP ${event.hp}).` };
    case "destroyed": {
      const side = SIDE_NAMES[event.side] ? `${SIDE_NAMES[event.side]} ` : "";
      return { kind: "bad", text: `${side}${title(event.card_kind)} is destroyed!` };
    }
    case "volley":
      return { kind: "play", text: `Arrow Rain: ${event.archers.length} Archer(s) may shoot again.` };
    case "restored":
      return { kind: "heal", text: `${event.cards.length} Soldier(s) rise again in the ${zoneName(event.zone)}.` };
    case "window_opened": {
      const mine = seat !== null && (event.seats || []).includes(seat);
      const what = (event.entered || []).map(cardText).join(", ");
      return { kind: "ambush", text: mine ? `${what || "An enemy"} entered your lands: answer now!` : `The defenders may answer${what ? ` ${what}` : ""}…` };
    }
    case "window_closed":
      return null;
    case "passed":
      return { kind: "turn", text: `${who(event.seat)} let it pass.` };
    case "revealed":
      return event.cards
        ? { kind: "secret", text: `The Spy reveals from ${who(event.seat)}'s hand: ${event.cards.map((c) => title(c.kind)).join(", ")}.` }
        : { kind: "secret", text: `A Spy looked at ${event.count} card(s) of ${who(event.seat)}'s hand.` };
    case "resigned":
      return { kind: "bad", text: `${who(event.seat)} resigned.` };
    case "game_over": {
      const reason = (event.reason || "").replace(/_/g, " ");
      if (event.winner_side === null || event.winner_side === undefined) return { kind: "result", text: `Game over (${reason}): a draw.` };
      return { kind: "result", text: `Game over (${reason}): ${SIDE_NAMES[event.winner_side]} wins.` };
    }
    default:
      return { kind: "turn", text: String(event.type || "event").replace(/_/g, " ") };
  }
}
