// Engine events turned into readable lines for the event feed (Ambush!, with a generic fallback).
import { eventLog } from "./api.js";
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
 * The event feed of one table: lines from live patches, and after a (re)load the match's
 * earlier lines from its event log, each kept once, in version order.
 */
export class Chronicle {
  constructor(listEl, viewer) {
    this.list = listEl;
    this.viewer = viewer; // () => ({names, seat})
    this.items = [];
    this.lastVersion = 0;
  }

  line(event) {
    const { names, seat } = this.viewer();
    return describeEvent(event, names, seat);
  }

  /** A patch's events; a version already told is skipped. */
  addEvents(version, events) {
    if (version <= this.lastVersion) return;
    this.lastVersion = version;
    for (const event of events || []) {
      const item = this.line(event);
      if (item) this.items.push({ ...item, version });
    }
    this.render();
  }

  /** A line that is not an engine event (chat). */
  say(item) {
    this.items.push({ ...item, version: this.lastVersion, said: true });
    this.render();
  }

  /** Everything up to ``upto`` from the event log (redacted for us while the match runs). */
  async loadHistory(matchId, upto, { anonymous = false } = {}) {
    this.lastVersion = Math.max(this.lastVersion, upto);
    if (upto === 0) return;
    let lines;
    try { lines = await eventLog(matchId, { anonymous }); } catch { return; }
    const older = [];
    for (const line of lines) {
      if (!line.events || !line.version || line.version > upto) continue;
      for (const event of line.events) {
        const item = this.line(event);
        if (item) older.push({ ...item, version: line.version });
      }
    }
    this.items = [...older, ...this.items.filter((item) => item.said || item.version > upto)];
    this.render();
  }

  render() {
    if (this.items.length > 300) this.items.splice(0, this.items.length - 300);
    const shown = this.items.slice(-150);
    const row = (item) => {
      const li = document.createElement("li");
      li.className = `feed-${item.kind}`;
      li.textContent = item.text;
      return li;
    };
    // Only new lines are added (and animate in); a rewritten history redraws the list.
    const drawn = this.drawn || [];
    const appended = drawn.length <= shown.length && drawn.every((item, i) => shown[i] === item);
    if (appended) {
      this.list.append(...shown.slice(drawn.length).map((item) => {
        const li = row(item);
        li.classList.add("fresh");
        return li;
      }));
    }
    else this.list.replaceChildren(...shown.map(row));
    this.drawn = shown;
    this.list.scrollTop = this.list.scrollHeight;
  }
}
