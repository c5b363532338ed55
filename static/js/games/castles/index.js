// The Castles deck table: the six zones as a board, hands, the response prompt for Instants.
// Every highlight comes from the seat's legal actions: pick a card (click, keys 1-9, or drag),
// then a glowing zone or target; choices the board cannot show become buttons.
import { h, put, svg } from "../../dom.js";
import { fieldEl, handCardEl, zoneLabel } from "./board.js";
import { CARDS, SIDE_NAMES, faceSvg, loadCards, title } from "./cards.js";
import { cardText, describeEvent, kindOf, learn } from "./feed.js";

const TURN_TYPES = new Set(["play", "move", "act"]);
const WINDOW_TYPES = new Set(["trap", "strike", "trap_prompts_off"]);

/** This table's own UI state (the shell keeps ctx.ui per table and renderer). */
function tableState(ctx) {
  const u = ctx.ui;
  if (!u.castles) u.castles = { selected: null, pending: null, dragging: null };
  u.castles.ctx = ctx;
  return u.castles;
}

// ----- what the seat may do now, from its legal actions -------------------------------------
function playing(ctx) {
  return ctx.seat !== null && ctx.seat !== undefined && ctx.view && !ctx.view.outcome;
}

function choices(ctx, s) {
  const legal = playing(ctx) ? ctx.legal || [] : [];
  const turn = legal.filter((a) => TURN_TYPES.has(a.type));
  const sources = new Set(turn.map((a) => a.card));
  if (s.selected !== null && !sources.has(s.selected)) { s.selected = null; s.pending = null; }
  const c = {
    legal, sources, zones: new Map(), targets: new Map(), builds: new Map(), extra: [],
    endTurn: legal.find((a) => a.type === "end_turn"),
    pass: legal.find((a) => a.type === "pass"),
    answers: legal.filter((a) => WINDOW_TYPES.has(a.type)),
    strikes: new Map(),
  };
  for (const a of optionsOf(turn, s.selected)) {
    if (a.type === "move" || (a.type === "play" && a.zone !== undefined)) push(c.zones, a.type === "move" ? a.to : a.zone, a);
    else if (a.target !== undefined) push(c.targets, a.target, a);
    else if (a.build !== undefined) { c.builds.set(a.build, a); c.extra.push(a); }
    else c.extra.push(a);
  }
  for (const a of c.answers) if (a.target !== undefined) push(c.strikes, a.target, a);
  return c;
}

const optionsOf = (turn, id) => (id === null || id === undefined ? [] : turn.filter((a) => a.card === id));

function push(map, key, value) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(value);
}

/** Send one action, or ask which one when several fit the same click. */
function choose(s, actions) {
  if (!actions || !actions.length) return;
  if (actions.length > 1) { s.pending = actions; rerender(s); return; }
  s.ctx.send(actions[0]);
  s.selected = null; s.pending = null; s.dragging = null;
  rerender(s);
}

function rerender(s) { if (s.ctx.rerender) s.ctx.rerender(); else render(s.ctx); }

function select(s, id) {
  s.selected = s.selected === id ? null : id;
  s.pending = null;
  rerender(s);
}

function actionLabel(a, ctx) {
  const names = seatNames(ctx);
  switch (a.type) {
    case "play":
      if (a.targets) return `Raise ${a.targets.map(cardText).join(" and ")}`;
      if (a.zone !== undefined) return `${title(kindOf(a.card))} → ${zoneLabel(ctx.view.zones[a.zone])}`;
      return `Play ${title(kindOf(a.card))}`;
    case "move":
      return a.with && a.with.length ? `Move to ${zoneLabel(ctx.view.zones[a.to])}, carried by ${a.with.map(cardText).join(" and ")}` : `Move to ${zoneLabel(ctx.view.zones[a.to])}`;
    case "act":
      if (a.build !== undefined) return `Build ${title(kindOf(a.build))}`;
      if (a.seat !== undefined) return `Spy on ${names[a.seat]}`;
      return `${title(kindOf(a.card))} hits ${cardText(a.target)}`;
    case "trap":
      return `Trap ${cardText(a.target)}!`;
    case "strike":
      return `Strike ${cardText(a.target)} with ${cardText(a.card)}`;
    case "trap_prompts_off":
      return "Stop asking me about Traps";
    default:
      return a.type.replace(/_/g, " ");
  }
}

const seatNames = (ctx) => {
  const v = ctx.view;
  return Array.from({ length: v.seats }, (_, i) => (ctx.names && ctx.names[i]) || (v.names && v.names[i]) || `Seat ${i + 1}`);
};

// ----- drawing --------------------------------------------------------------------------
function render(ctx) {
  const v = ctx.view;
  if (!v) return;
  const s = tableState(ctx);
  learn(v, ctx.ui);
  const c = choices(ctx, s);
  const mySide = v.side === null || v.side === undefined ? 0 : v.side;
  const answering = isAnswering(ctx);
  const entered = new Set(v.window ? [...v.window.entered, ...v.window.crossing] : []);
  const dragId = () => s.dragging;
  const dropActions = (where) => {
    const opts = optionsOf(c.legal.filter((a) => TURN_TYPES.has(a.type)), dragId());
    if (where.zone !== undefined) return opts.filter((a) => (a.type === "move" ? a.to : a.zone) === where.zone && a.target === undefined);
    return opts.filter((a) => a.target === where.card);
  };
  const dragStart = (id, ev) => {
    s.dragging = id;
    ev.dataTransfer.setData("text/plain", String(id));
    ev.dataTransfer.effectAllowed = "move";
    for (const el of ctx.els.board.querySelectorAll(".cs-zone")) el.classList.toggle("cs-drop", dropActions({ zone: Number(el.dataset.zone) }).length > 0);
    for (const el of ctx.els.board.querySelectorAll(".cs-card")) el.classList.toggle("cs-target", dropActions({ card: Number(el.dataset.card) }).length > 0);
  };
  const dragEnd = () => { if (s.dragging !== null) { s.dragging = null; rerender(s); } };
  const onDrop = (where) => {
    const actions = dropActions(where);
    s.selected = s.dragging;
    s.dragging = null;
    if (actions.length) choose(s, actions); else rerender(s);
  };
  const onCard = (id) => {
    if (c.targets.has(id)) return choose(s, c.targets.get(id));
    if (answering && c.strikes.has(id)) return choose(s, c.strikes.get(id).slice(0, 1));
    if (c.sources.has(id)) return select(s, id);
    return undefined;
  };
  const marks = (card) => ({
    selectable: c.sources.has(card.id),
    selected: s.selected === card.id,
    target: c.targets.has(card.id) || (answering && c.strikes.has(card.id)),
    entered: entered.has(card.id),
    spent: card.side === v.side && v.phase !== "over" && v.active !== undefined && sideOf(v.active) === card.side && card.moves === 0 && card.acts === 0 && card.kind !== "castle",
    ready: c.sources.has(card.id),
    onClick: playing(ctx) ? onCard : null,
    draggable: c.sources.has(card.id),
    onDragStart: dragStart, onDragEnd: dragEnd,
    canDrop: (where) => dropActions(where).length > 0, onDrop,
  });
  const field = fieldEl(v, {
    viewerSide: mySide, seated: ctx.seat !== null && ctx.seat !== undefined, marks,
    zoneTarget: (z) => c.zones.has(z),
    onZone: (z) => choose(s, c.zones.get(z)),
    canDrop: (where) => dragId() !== null && dropActions(where).length > 0, onDrop,
  });
  put(ctx.els.board, h("div.cs-board", scoreboard(v), field));
  if (ctx.els.others) put(ctx.els.others, h("div.cs-seats", seatChips(v, ctx, (seat) => seat !== ctx.seat)));
  if (ctx.els.spotlight) put(ctx.els.spotlight);
  renderMe(ctx, s, c, { answering, dragStart, dragEnd });
}

const isAnswering = (ctx) => playing(ctx) && ctx.view.phase === "response" && (ctx.view.to_act || []).includes(ctx.seat);

const sideOf = (seat) => seat % 2;

function scoreboard(v) {
  const castle = (v.in_play || []).find((card) => card.kind === "castle");
  const max = castle ? castle.max_hp : CARDS.castle.hp;
  const shared = (v.pile_sizes || []).length === 1;
  const side = (sd) => h(`div.cs-score.cs-score-${sd}`,
    h("span.cs-score-name", `${SIDE_NAMES[sd]} Castle`),
    h("span.cs-castle-hp", { "data-side": sd }, `${v.castle_hp[sd]}`, h("small", `/${max}`)),
    shared ? null : h("span.cs-pile", { title: "cards left to draw" }, `pile ${pileOf(v, sd)}`));
  const turn = h("div.cs-turn", `Turn ${v.turn}`, h("small", ` / ${v.max_turns}`),
    shared ? h("span.cs-pile", { title: "cards left to draw" }, ` · deck ${v.pile_sizes[0]}`) : null,
    v.ambush ? h("span.cs-flag", "Ambush!") : null);
  const first = v.side === 1 ? 1 : 0;
  return h("div.cs-scoreboard", side(1 - first), turn, side(first));
}

function pileOf(v, sd) {
  const sizes = v.pile_sizes || [];
  if (sizes.length === 1) return sizes[0];
  return sizes.filter((_, seat) => sideOf(seat) === sd).reduce((a, b) => a + b, 0);
}

function seatChips(v, ctx, include) {
  const names = seatNames(ctx);
  const chips = [];
  for (let seat = 0; seat < v.seats; seat += 1) {
    if (!include(seat)) continue;
    const acting = (v.to_act || []).includes(seat) && !v.outcome;
    const count = (v.hand_sizes || [])[seat] || 0;
    const shown = (v.known || {})[String(seat)] || [];
    chips.push(h(`div.cs-seat.cs-side-${sideOf(seat)}${acting ? ".cs-acting" : ""}${seat === ctx.seat ? ".cs-mine" : ""}`, { "data-seat": seat },
      h("span.cs-seat-name", names[seat], seat === ctx.seat ? h("span.you", "you") : null),
      h("span.cs-seat-side", `${SIDE_NAMES[sideOf(seat)]}${acting ? (v.phase === "response" ? " · answering" : " · on turn") : ""}`),
      h("span.cs-backs", { title: `${count} card(s) in hand`, "aria-label": `${count} cards in hand` },
        Array.from({ length: Math.min(count, 12) }, (_, k) => h("i", { style: { "--k": k } })), h("b", String(count))),
      shown.length ? h("span.cs-known", { title: "revealed by your Spy" }, shown.map((card) => h("span.cs-mini", { title: title(card.kind) }, svg(faceSvg(card.kind))))) : null));
  }
  return chips;
}

function renderMe(ctx, s, c, { answering, dragStart, dragEnd }) {
  const v = ctx.view;
  const me = ctx.els.me;
  if (ctx.seat === null || ctx.seat === undefined) {
    put(me, h("div.cs-me", h("p.muted.watch-note", "You are watching: hands stay hidden from spectators."),
      h("div.cs-seats", seatChips(v, ctx, () => false))));
    return;
  }
  const hand = v.hand || [];
  const onHand = (id) => {
    if (s.selected !== null && c.builds.has(id)) return choose(s, [c.builds.get(id)]);
    const traps = c.answers.filter((a) => a.type === "trap" && a.card === id);
    if (traps.length) return choose(s, traps);
    if (c.sources.has(id)) return select(s, id);
    ctx.toast(whyNot(v, ctx, id));
    return undefined;
  };
  const handEl = h("div.cs-hand", { "aria-label": "your hand" }, hand.map((card, index) => handCardEl(card, {
    index, selectable: c.sources.has(card.id) || c.answers.some((a) => a.type === "trap" && a.card === card.id), selected: s.selected === card.id, target: c.builds.has(card.id),
    onClick: v.outcome ? null : onHand, draggable: c.sources.has(card.id), onDragStart: dragStart, onDragEnd: dragEnd,
  })));
  if (!hand.length) handEl.append(h("p.muted", "Your hand is empty."));
  const options = s.pending || c.extra;
  const bar = h("div.cs-bar",
    c.endTurn ? h("button#cs-end-turn.btn.btn-primary", { onclick: () => choose(s, [c.endTurn]), title: "End your turn (key E)", "aria-keyshortcuts": "E" }, "End turn") : null,
    s.selected !== null ? h("button#cs-cancel.btn", { onclick: () => select(s, s.selected) }, "Cancel (Esc)") : null,
    options.map((a) => h("button.btn.cs-option", { onclick: () => choose(s, [a]) }, actionLabel(a, ctx))));
  put(me, h("div.cs-me", answering ? respondEl(ctx, c) : null,
    h("div.cs-my-seat", seatChips(v, ctx, (seat) => seat === ctx.seat)), handEl, bar));
}

/** The response window for this seat: Traps, opportunity strikes, pass. */
function respondEl(ctx, c) {
  const v = ctx.view;
  const w = v.window;
  const entered = w.entered.map(cardText).join(", ");
  const crossing = w.crossing.map(cardText).join(", ");
  const lines = [];
  if (entered) lines.push(`${entered} entered your Middle Zone.`);
  if (crossing) lines.push(`${crossing} is crossing: your Soldiers may strike it.`);
  return h("div.cs-respond", { role: "alertdialog", "aria-label": "respond to the enemy move" },
    h("h3", "Your answer!", h("span.cs-countdown", countdown(ctx))),
    h("p", lines.join(" ")),
    h("div.cs-respond-actions",
      c.answers.filter((a) => a.type !== "trap_prompts_off").map((a) => h(`button.btn.${a.type === "trap" ? "btn-ambush.cs-trap-button" : "cs-strike-button"}`, { onclick: () => ctx.send(a) }, actionLabel(a, ctx))),
      c.pass ? h("button#cs-pass.btn", { onclick: () => ctx.send(c.pass), title: "key P", "aria-keyshortcuts": "P" }, "Pass (P)") : null,
      c.answers.filter((a) => a.type === "trap_prompts_off").map((a) => h("button.btn.btn-quiet", { onclick: () => ctx.send(a) }, actionLabel(a, ctx)))));
}

function countdown(ctx) {
  const w = ctx.view.window;
  if (!w || typeof ctx.matchNow !== "function") return "";
  return ` ${Math.max(0, Math.ceil((w.deadline - ctx.matchNow()) / 1000))}s`;
}

function whyNot(v, ctx, id) {
  const kind = kindOf(id);
  const card = CARDS[kind] || {};
  if (v.phase === "response") {
    return isAnswering(ctx) ? "Answer the enemy move first: Trap, strike or Pass." : "Wait: the defenders are answering.";
  }
  if (v.active !== ctx.seat) return "Wait for your turn.";
  if (card.action_class === "instant") return "Trap is an Instant: play it when an enemy enters your Middle Zone.";
  if (card.type === "building") return "Buildings are built by a Builder: select your Builder in the right zone.";
  if (card.action_class === "spell") return "Spells need your Wizard in play (and something to hit).";
  if (card.action_class === "attack") return "Special Attacks need your General and a Soldier out of your Castle Zone.";
  return `${title(kind)} cannot be played now.`;
}

function promptText(ctx, s, c, answering) {
  const v = ctx.view;
  const names = seatNames(ctx);
  if (v.outcome) return "The battle is over.";
  if (v.phase === "response") {
    if (answering) return "An enemy entered your lands: Trap it, strike, or Pass (P).";
    return v.active === ctx.seat ? "The defenders may answer your move…" : "The defenders are answering…";
  }
  if (ctx.seat === null || ctx.seat === undefined || v.active !== ctx.seat) {
    return `${names[v.active]} (${SIDE_NAMES[sideOf(v.active)]}) is on turn ${v.turn} of ${v.max_turns}.`;
  }
  if (s.pending) return "Several ways fit: choose one of the buttons below.";
  if (s.selected !== null) {
    const what = [];
    if (c.zones.size) what.push("a glowing zone");
    if (c.targets.size) what.push("a glowing target");
    if (c.builds.size) what.push("a Building in your hand");
    if (c.extra.length) what.push("a button below");
    return `${title(kindOf(s.selected))}: choose ${what.join(", or ") || "something"}. Esc cancels.`;
  }
  return `Your turn (${v.turn} of ${v.max_turns}): pick a card in hand (1-9) or on the field, or drag it; E ends the turn.`;
}

// ----- keys ---------------------------------------------------------------------------------
/** E ends the turn, P passes and T traps in a window, 1-9 pick a hand card, Esc cancels. */
function onKey(ev, ctx) {
  if (!playing(ctx)) return false;
  const s = tableState(ctx);
  const c = choices(ctx, s);
  const key = ev.key.toLowerCase();
  let action = null;
  if (key === "e" && c.endTurn) action = c.endTurn;
  else if (key === "p" && c.pass) action = c.pass;
  else if (key === "t") action = c.answers.find((a) => a.type === "trap") || null;
  else if (key === "escape") { s.selected = null; s.pending = null; rerender(s); return true; }
  else if (/^[1-9]$/.test(key)) {
    const card = (ctx.view.hand || [])[Number(key) - 1];
    if (card && c.builds.has(card.id)) action = c.builds.get(card.id);
    else if (card && c.sources.has(card.id)) { select(s, card.id); return true; }
  }
  if (!action) return false;
  ev.preventDefault();
  choose(s, [action]);
  return true;
}

/** Flash the moments that matter: a Trap sprung, a Castle hit or fallen. */
function onEvents(events, ctx) {
  learn(ctx.view, ctx.ui);
  for (const e of events) {
    if (e.type === "played" && e.card_kind === "trap") ctx.flash("Trap!", "ambush");
    else if (e.type === "window_opened" && ctx.seat !== null && (e.seats || []).includes(ctx.seat)) ctx.flash("To arms! Answer now", "ambush");
    else if (e.type === "destroyed" && e.card_kind === "castle") ctx.flash(`The ${SIDE_NAMES[e.side]} Castle falls!`, "bad");
  }
}

export default {
  id: "castles",
  load: loadCards,
  render,
  prompt: (ctx) => promptText(ctx, tableState(ctx), choices(ctx, tableState(ctx)), isAnswering(ctx)),
  bannerClass: (ctx) => (isAnswering(ctx) ? "banner-race" : ""),
  onKey,
  onEvents,
  tick: (ctx) => {
    const el = ctx.els.me.querySelector(".cs-countdown");
    if (el) el.textContent = countdown(ctx);
  },
  castleNames: (view) => view.names || [],
  // The result dialog: the HP left in the Castle of each seat's side.
  resultScore: (view, seat) => (view.castle_hp ? `${view.castle_hp[sideOf(seat)]} HP` : ""),
  describeEvent: (event, ctx) => {
    if (ctx && ctx.view) learn(ctx.view, ctx.ui);
    return describeEvent(event, ctx);
  },
};
