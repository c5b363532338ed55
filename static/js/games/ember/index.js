// The Ember table: every player's emberscape, mode card and piles, the five turn phases, the
// hero choice, declaring targets and choices, response prompts, the hand limit and the scoring.
// Every highlight comes from the seat's legal actions: pick a card (click or keys 1-9), then a
// glowing target or own card; Enter confirms, P passes, Esc cancels.
import { h, put, svg } from "../../dom.js";
import { areaEl, arcaneEl, cardEl, HAND_LIMIT, heroPicker, phaseLabel, phaseTrack, scoringEl, stackEl } from "./board.js";
import { CARDS, cardFaceSvg, cardName, cardSummary, loadCards, MODES } from "./cards.js";
import { REASONS, describeEvent, learn, memory } from "./feed.js";

const SOURCE_TYPES = new Set(["play", "mode", "discard", "respond"]);
// What a card's own-card choice does, for the buttons that declare it.
const CHOICE_VERBS = { seductress: "Add", tidal_recall: "Return", transmute: "Collect", rune_swap: "Swap in", hex: "Hex with" };

/** This table's own UI state (the shell keeps ctx.ui per table and renderer). */
function tableState(ctx) {
  const u = ctx.ui;
  if (!u.ember) u.ember = { selected: null, target: null, inspect: null, stage: null, last: null };
  u.ember.ctx = ctx;
  return u.ember;
}

const playing = (ctx) => ctx.seat !== null && ctx.seat !== undefined && ctx.view && !ctx.view.outcome;

function seatNames(ctx) {
  const v = ctx.view;
  return v.players.map((p, s) => (ctx.names && ctx.names[s]) || p.name || `Seat ${s + 1}`);
}

// ----- what the seat may do now, from its legal actions ---------------------------------------
function choices(ctx, s) {
  const legal = playing(ctx) ? ctx.legal || [] : [];
  const sources = new Map();
  for (const a of legal) {
    const key = a.type === "arcane" ? "arcane" : SOURCE_TYPES.has(a.type) ? a.card : undefined;
    if (key === undefined) continue;
    if (!sources.has(key)) sources.set(key, []);
    sources.get(key).push(a);
  }
  if (sources.has("arcane")) s.selected = "arcane"; // the flipped arcane card must be declared now
  else if (s.selected !== null && !sources.has(s.selected)) { s.selected = null; s.target = null; }
  const c = { legal, sources, pass: legal.find((a) => a.type === "pass"), heroes: legal.filter((a) => a.type === "hero"),
    stage: null, options: [], targets: new Map(), picks: new Map() };
  if (s.selected === null) return c;
  const opts = sources.get(s.selected);
  for (const a of opts) {
    if (a.target_seat === undefined) continue;
    const key = `${a.target_seat}:${a.target_card === undefined ? "" : a.target_card}`;
    if (!c.targets.has(key)) c.targets.set(key, []);
    c.targets.get(key).push(a);
  }
  if (s.target !== null && !c.targets.has(s.target)) s.target = null;
  if (c.targets.size && s.target === null) { c.stage = "target"; c.options = opts; return c; }
  c.options = c.targets.size ? c.targets.get(s.target) : opts;
  for (const a of c.options) c.picks.set(a.choice === undefined ? "none" : a.choice, a);
  c.stage = c.options.length > 1 ? "choice" : "confirm";
  return c;
}

function rerender(s) { s.ctx.rerender(); }

function send(s, action) {
  s.selected = null; s.target = null;
  s.ctx.send(action);
  rerender(s);
}

function select(s, key) {
  s.selected = s.selected === key ? null : key;
  s.target = null;
  if (typeof key === "number") s.inspect = key;
  rerender(s);
}

function pickTarget(s, c, key) {
  s.target = key;
  const left = c.targets.get(key);
  if (left.length === 1) send(s, left[0]);
  else rerender(s);
}

const sourceCard = (ctx, s) => (s.selected === "arcane" ? ctx.view.arcane_card && ctx.view.arcane_card.card : memory(ctx.ui).get(s.selected));

function confirmLabel(ctx, s, action) {
  const name = cardName(sourceCard(ctx, s));
  switch (action.type) {
    case "mode": return `Make ${name} your mode card`;
    case "discard": return `Discard ${name}`;
    case "respond": return `Respond with ${name}`;
    case "arcane": return `Play the arcane ${name}`;
    default: return `Play ${name}`;
  }
}

function targetLabel(ctx, key) {
  const [seat, uid] = key.split(":");
  const names = seatNames(ctx);
  return uid === "" ? names[Number(seat)] : `${names[Number(seat)]}'s ${cardName(memory(ctx.ui).get(Number(uid)))}`;
}

function choiceLabel(ctx, s, pick) {
  const verb = CHOICE_VERBS[sourceCard(ctx, s)] || "Choose";
  return pick === "none" ? `${verb} no card` : `${verb} ${cardName(memory(ctx.ui).get(pick))}`;
}

// ----- drawing --------------------------------------------------------------------------
function render(ctx) {
  const v = ctx.view;
  if (!v || !v.players) return;
  const s = tableState(ctx);
  learn(v, ctx.ui);
  const c = choices(ctx, s);
  const names = seatNames(ctx);
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  const stage = stageOf(v, s);
  const targetCards = new Set();
  const targetSeats = new Set();
  if (c.stage === "target") {
    for (const key of c.targets.keys()) {
      const [seat, uid] = key.split(":");
      if (uid === "") targetSeats.add(Number(seat)); else targetCards.add(Number(uid));
    }
  }
  const picks = c.stage === "choice" ? c.picks : new Map();
  const onCard = (card, owner, zone) => {
    if (c.stage === "target" && targetCards.has(card.uid)) return pickTarget(s, c, `${owner}:${card.uid}`);
    if (c.stage === "choice" && picks.has(card.uid)) return send(s, picks.get(card.uid));
    if (owner === me && c.sources.has(card.uid)) return select(s, card.uid);
    if (owner === me && zone === "hand") ctx.toast(whyNot(ctx, card));
    s.inspect = card.uid;
    return rerender(s);
  };
  const marksFor = (owner) => (card, zone) => ({
    target: targetCards.has(card.uid),
    choice: owner === me && picks.has(card.uid),
    selectable: owner === me && c.sources.has(card.uid),
    selected: s.selected === card.uid,
    peek: owner === me,
    onClick: (card2) => onCard(card2, owner, zone),
  });
  const areaOpts = (seat) => ({
    me: seat === me, names, view: v, stage, marks: marksFor(seat),
    seatTarget: targetSeats.has(seat), onSeat: (target) => pickTarget(s, c, `${target}:`),
  });
  const order = v.players.map((_, k) => (me === null ? k : (me + 1 + k) % v.players.length)).filter((seat) => seat !== me);
  put(ctx.els.others, h("div.em-others", order.map((seat) => areaEl(v.players[seat], areaOpts(seat)))));
  put(ctx.els.board, boardEl(ctx, s, c, names, stage));
  if (ctx.els.spotlight) put(ctx.els.spotlight, spotlightEl(ctx, s));
  renderMe(ctx, s, c, names, me, areaOpts, onCard);
}

function stageOf(v, s) {
  switch (v.phase) {
    case "mode": return "mode";
    case "play": return "play";
    case "discard": return "end";
    case "arcane": case "respond": return s.stage === "collection" ? "collection" : "play";
    default: return s.stage || "collection";
  }
}

function boardEl(ctx, s, c, names, stage) {
  const v = ctx.view;
  const known = memory(ctx.ui);
  let middle;
  if (v.outcome) middle = scoringEl(v, names, ctx.ui.emberScores || null, ctx.seat);
  else if (v.phase === "hero") {
    const chooser = (v.choosing || [])[0];
    middle = heroPicker(v, names, chooser === undefined ? null : chooser, (hero) => send(s, { type: "hero", hero }), c.heroes);
  } else {
    middle = h("div.em-middle", arcaneEl(v, names), stackEl(v, names, known),
      !v.stack.length && v.phase !== "arcane" ? lastPlayed(s, names) : null);
  }
  return h("div.em-board", phaseTrack(v, stage, names), middle);
}

function lastPlayed(s, names) {
  if (!s.last) return h("div.em-quiet", "Nothing in play.");
  return h("div.em-last", h("div.em-zone-label", `Last played by ${names[s.last.seat]}`),
    cardEl({ uid: s.last.uid, card: s.last.card, face_down: !s.last.card }, { small: true }));
}

function spotlightEl(ctx, s) {
  const id = s.selected !== null ? sourceCard(ctx, s) : s.inspect !== null ? memory(ctx.ui).get(s.inspect) : null;
  if (!id || !CARDS[id]) return null;
  const card = CARDS[id];
  return h("div.em-spot", svg(cardFaceSvg(id)), h("b", card.name),
    h("span.em-spot-mode", `${MODES[card.mode].label} · ${card.stones} stone${card.stones === 1 ? "" : "s"}`),
    h("p", card.text));
}

function renderMe(ctx, s, c, names, me, areaOpts, onCard) {
  const v = ctx.view;
  if (me === null) {
    put(ctx.els.me, h("div.em-me", h("p.muted.watch-note", "You are watching: hands and face-down cards stay hidden from spectators.")));
    return;
  }
  const player = v.players[me];
  const hand = v.hand || [];
  const limit = hand.length > HAND_LIMIT && v.turn === me && !v.outcome;
  const handEl = h("div.em-hand", { "aria-label": "your hand" },
    hand.map((card, i) => h("div.em-hand-slot", { style: { "--i": i, "--n": hand.length } },
      h("span.em-key", String((i + 1) % 10)), cardEl(card, { ...areaOpts(me).marks(card, "hand"), onClick: v.outcome ? null : () => onCard(card, me, "hand") }))));
  if (!hand.length) handEl.append(h("p.muted", "Your hand is empty."));
  put(ctx.els.me, h("div.em-me",
    respondPrompt(ctx, s, c, names),
    areaEl(player, areaOpts(me)),
    declareBar(ctx, s, c),
    h("div.em-hand-head", h("span", "Your hand"), h(`span.em-hand-count${limit ? ".em-over" : ""}`, `${hand.length} / ${HAND_LIMIT}`)),
    handEl));
}

/** The response window, drawn the same whether or not the seat holds a response card. */
function respondPrompt(ctx, s, c, names) {
  const v = ctx.view;
  if (!playing(ctx) || !v.window || v.window.seat !== ctx.seat || !v.stack.length) return null;
  const top = v.stack[v.stack.length - 1];
  const what = top.card ? cardName(top.card) : "a face-down card";
  let line;
  if (top.role === "response") line = `${names[top.seat]} answers with ${what}.`;
  else if (top.target_card !== null && top.target_card !== undefined) line = `${names[top.seat]} plays ${what} against your ${cardName(memory(ctx.ui).get(top.target_card))}.`;
  else line = `${names[top.seat]} plays ${what} against you.`;
  return h("div.em-respond", { role: "alertdialog", "aria-label": "respond" },
    h("h3", "Respond?", h("span.em-countdown", countdown(ctx))),
    h("p.em-respond-line", line),
    h("p.muted", "To answer, pick a glowing response card in your hand or emberscape, then confirm. Otherwise let it happen."),
    h("div.em-respond-actions", h("button#em-pass-window.btn.btn-primary", { type: "button", onclick: () => send(s, c.pass), "aria-keyshortcuts": "P" }, "Let it happen (P)")));
}

function countdown(ctx) {
  const w = ctx.view.window;
  if (!w || typeof ctx.matchNow !== "function") return "";
  return ` ${Math.max(0, Math.ceil((w.deadline - ctx.matchNow()) / 1000))}s`;
}

/** What the selected card needs declared, and the buttons that declare or confirm it. */
function declareBar(ctx, s, c) {
  const v = ctx.view;
  const mine = playing(ctx) && (v.to_act || []).includes(ctx.seat);
  if (!mine) return null;
  const buttons = [];
  let note = "";
  if (c.stage === "target") {
    note = `${cardName(sourceCard(ctx, s))}: declare the target — click a glowing card or player.`;
    for (const key of c.targets.keys()) buttons.push(h("button.btn.em-target-button", { type: "button", "data-target": key, onclick: () => pickTarget(s, c, key) }, targetLabel(ctx, key)));
  } else if (c.stage === "choice") {
    note = `${cardName(sourceCard(ctx, s))}: choose one of your glowing cards, or none.`;
    for (const [pick, action] of c.picks) buttons.push(h(`button.btn.em-choice-button${pick === "none" ? ".em-choice-none" : ""}`, { type: "button", onclick: () => send(s, action) }, choiceLabel(ctx, s, pick)));
  } else if (c.stage === "confirm") {
    const action = c.options[0];
    note = cardSummary(sourceCard(ctx, s));
    buttons.push(h("button#em-confirm.btn.btn-primary", { type: "button", onclick: () => send(s, action), "aria-keyshortcuts": "Enter" }, `${confirmLabel(ctx, s, action)} (Enter)`));
  }
  if (v.phase === "mode" && c.pass) buttons.push(h("button#em-keep-mode.btn", { type: "button", onclick: () => send(s, c.pass), "aria-keyshortcuts": "P" }, "Keep my mode (P)"));
  if (s.selected !== null && s.selected !== "arcane") buttons.push(h("button#em-cancel.btn.btn-quiet", { type: "button", onclick: () => select(s, s.selected) }, "Cancel (Esc)"));
  if (!buttons.length && !note) return null;
  return h("div.em-declare", note ? h("p.em-declare-note", note) : null, h("div.em-declare-buttons", buttons));
}

function whyNot(ctx, card) {
  const v = ctx.view;
  if (v.outcome) return "The game is over.";
  if (v.phase === "hero") return "Heroes are chosen first.";
  if (v.window) return v.window.seat === ctx.seat ? `${cardName(card.card)} cannot answer this.` : "Wait: a response window is open.";
  if (v.turn !== ctx.seat) return "Wait for your turn.";
  if (v.phase === "arcane") return "Declare your arcane card first.";
  if (v.phase === "play") return `No room for ${cardName(card.card)}: your emberscape is full.`;
  return `${cardName(card.card)} cannot be used now.`;
}

function promptText(ctx) {
  const v = ctx.view;
  const s = tableState(ctx);
  const names = seatNames(ctx);
  const me = ctx.seat;
  if (v.outcome) return "The game is over: the ember stones are counted.";
  if (v.phase === "hero") {
    const chooser = (v.choosing || [])[0];
    return chooser === me ? "Choose your hero." : `${names[chooser]} is choosing a hero…`;
  }
  if (v.window) {
    const left = countdown(ctx);
    return v.window.seat === me ? `Respond, or let it happen (P).${left}` : `${names[v.window.seat]} may respond…${left}`;
  }
  if (v.turn !== me) return `${names[v.turn]}'s turn: ${phaseLabel(stageOf(v, s))} phase.`;
  const c = choices(ctx, s);
  if (c.stage === "target") return `${cardName(sourceCard(ctx, s))}: declare a target.`;
  if (c.stage === "choice") return `${cardName(sourceCard(ctx, s))}: choose a card, or none.`;
  switch (v.phase) {
    case "mode": return v.players[me].mode_pile ? "Mode phase: pick a new mode card (1-9) or keep your mode (P)." : "Mode phase: pick your first mode card from your hand (1-9).";
    case "play": return "Play phase: pick a card to play (1-9).";
    case "arcane": return "Your arcane card: declare it.";
    case "discard": return `End phase: hand limit ${HAND_LIMIT} — discard ${(v.hand || []).length - HAND_LIMIT} card(s).`;
    default: return "";
  }
}

// ----- keys and time --------------------------------------------------------------------------
/** 1-9 (0 = 10th) pick a hand card, Enter confirms, P passes or keeps the mode, Esc cancels. */
function onKey(ev, ctx) {
  if (!playing(ctx)) return false;
  const s = tableState(ctx);
  const c = choices(ctx, s);
  const key = ev.key.toLowerCase();
  const onButton = ev.target && ev.target.tagName === "BUTTON";
  if (key === "p" && c.pass) { ev.preventDefault(); send(s, c.pass); return true; }
  if (key === "escape" && s.selected !== null && s.selected !== "arcane") { select(s, s.selected); return true; }
  if (key === "enter" && !onButton && c.stage === "confirm") { ev.preventDefault(); send(s, c.options[0]); return true; }
  if (/^[0-9]$/.test(key)) {
    const card = (ctx.view.hand || [])[(Number(key) + 9) % 10];
    if (card && c.sources.has(card.uid)) { select(s, card.uid); return true; }
  }
  return false;
}

function onEvents(events, ctx) {
  const s = tableState(ctx);
  for (const e of events) {
    if (e.type === "turn_started") s.stage = "collection";
    else if (e.type === "mode_set" || e.type === "mode_kept") s.stage = "play";
    else if (e.type === "played") s.last = { seat: e.seat, uid: e.uid, card: e.face_down && e.from === "hand" && e.seat !== ctx.seat ? null : e.card };
    else if (e.type === "game_over" && e.scores) ctx.ui.emberScores = e.scores;
    if (e.type === "arcane_revealed" && ctx.flash) ctx.flash(`Arcane card: ${cardName(e.card)}!`, "ambush");
    if (e.type === "responded" && ctx.flash) ctx.flash(`${cardName(e.card)}!`, "ambush");
  }
}

function tick(ctx) {
  if (!ctx.view || !ctx.view.window) return;
  const text = countdown(ctx);
  for (const el of ctx.els.me.querySelectorAll(".em-countdown")) el.textContent = text;
}

export default {
  id: "ember",
  load: loadCards,
  render,
  describeEvent,
  prompt: promptText,
  onKey,
  onEvents,
  tick,
  castleNames: (view) => (view.players || []).map((p) => p.name),
  // The result dialog: how the game ended, and each player's ember stones (told to everyone
  // once the game is over).
  resultReason: (reason) => (REASONS[reason] ? `${REASONS[reason]}; most ember stones wins` : null),
  resultScore: (view, seat) => {
    const scores = view.outcome && view.outcome.scores;
    if (!scores || scores[seat] === undefined) return "";
    return `${scores[seat]} ${scores[seat] === 1 ? "stone" : "stones"}`;
  },
};
