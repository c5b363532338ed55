// The Ambush! table: battlefield, dials, hand, the grab race and the returning of cards.
import { clear, h, put, seconds } from "../../dom.js";
import { describe } from "../../errors.js";
import { battlefieldEl, cardEl, dialEl, fitGrid, handEl } from "./board.js";
import { CARDS, loadCards, needsTarget } from "./cards.js";
import { describeEvent as ambushLine, promptText } from "./feed.js";

const key = (cell) => `${cell[0]},${cell[1]}`;

/** The renderer's own state for one table (kept in ctx.ui). */
function ui(ctx) {
  const u = ctx.ui;
  if (!u.ready) {
    Object.assign(u, {
      ready: true, selection: null, lifted: new Map(), grabSeqs: new Map(), returnPick: new Set(),
      drawn: { ref: 0, t: performance.now() }, prevCells: new Set(), fresh: new Set(),
    });
  }
  return u;
}

// ----- what I may do now -----------------------------------------------------------------
const legalTypes = (ctx) => new Set(ctx.legal.map((a) => a.type));
const myTurn = (ctx) => ctx.view && ctx.seat !== null && ctx.view.turn === ctx.seat;
const canPlay = (ctx) => myTurn(ctx) && ctx.view.phase === "turn" && ctx.view.step === "play" && legalTypes(ctx).has("play");
// Passing needs no card (rule 2d): with an empty hand it is the only way on.
const canPass = (ctx) => myTurn(ctx) && ctx.view.phase === "turn" && ctx.view.step === "play" && legalTypes(ctx).has("pass");
// A destroyed or resigned castle's player watches the rest: no grabs, no calls, no buttons.
const inGame = (ctx) => ctx.seat !== null && ctx.view.castles.some((c) => c.seat === ctx.seat && c.alive);
const opponents = (ctx) => ctx.view.castles.filter((c) => c.alive && c.seat !== ctx.seat).map((c) => c.seat);
const castleNames = (ctx) => (ctx.names.length ? ctx.names : ctx.view.castles.map((c) => c.name));
function owed(ctx) {
  const r = ctx.view && ctx.view.returning;
  const entry = r && r.owed.find(([seat]) => seat === ctx.seat);
  return entry ? entry[1] : 0;
}

function stage(ctx) {
  const s = ui(ctx).selection;
  if (!s) return null;
  const card = CARDS[s.card] || {};
  if (needsTarget(s.card) && s.target === null) return "target";
  if (card.effect === "look" && ctx.view.battlefield.length > 0 && !s.look) return "look";
  if (card.effect === "swap" && ctx.view.battlefield.length >= 2 && s.swap.length < 2) return "swap";
  return "cell";
}

// ----- choices ------------------------------------------------------------------------------
function selectCard(ctx, id, index) {
  const u = ui(ctx);
  if (ctx.view.phase === "returning" && owed(ctx)) {
    if (u.returnPick.has(index)) u.returnPick.delete(index);
    else if (u.returnPick.size < owed(ctx)) u.returnPick.add(index);
    ctx.rerender();
    return;
  }
  if (!canPlay(ctx)) {
    ctx.toast(myTurn(ctx) && ctx.view.step === "expose" ? "First expose the top card: click a glowing cell." : describe("ambush/not_your_turn"));
    return;
  }
  if (u.selection && u.selection.index === index) { u.selection = null; ctx.rerender(); return; }
  const foes = opponents(ctx);
  u.selection = { card: id, index, target: needsTarget(id) && foes.length === 1 ? foes[0] : null, look: null, swap: [] };
  // A Scout with a single face-down card to look at: that card, without asking for it.
  const down = ctx.view.battlefield;
  if ((CARDS[id] || {}).effect === "look" && down.length === 1) {
    u.selection.look = down[0].cell;
    u.selection.onlyLook = true;
  }
  ctx.rerender();
}

function chooseTarget(ctx, seat) {
  const u = ui(ctx);
  if (!u.selection) return;
  u.selection.target = seat;
  ctx.rerender();
}

function onCell(ctx, cell, kind, ev) {
  const v = ctx.view;
  const u = ui(ctx);
  if (!v || ctx.seat === null) return;
  if (v.phase === "ambush" && kind === "card") { grab(ctx, cell, ev); return; }
  if (kind === "free" && myTurn(ctx) && v.phase === "turn" && v.step === "expose") {
    ctx.send({ type: "expose", cell }); return;
  }
  if (kind === "free" && myTurn(ctx) && v.phase === "placing") {
    ctx.send({ type: "place", cell }); return;
  }
  const st = stage(ctx);
  const s = u.selection;
  if (st === "look" && kind === "card") { s.look = cell; ctx.rerender(); return; }
  if (st === "swap" && kind === "card") {
    const k = key(cell);
    s.swap = s.swap.some((c) => key(c) === k) ? s.swap.filter((c) => key(c) !== k) : [...s.swap, cell];
    ctx.rerender(); return;
  }
  if (st === "cell" && kind === "free") {
    const action = { type: "play", card: s.card, cell };
    if (s.target !== null) action.target = s.target;
    if (s.look) action.look = s.look;
    if (s.swap.length === 2) action.swap = s.swap;
    ctx.send(action);
    u.selection = null;
    ctx.rerender();
  }
}

function grab(ctx, cell, ev) {
  const u = ui(ctx);
  const k = key(cell);
  if (u.lifted.has(k)) return;
  // dt: from the frame that drew our reference version to this tap, on the same clock.
  const tapped = ev && ev.timeStamp > 0 ? ev.timeStamp : performance.now();
  const dt = Math.max(0, Math.round(tapped - u.drawn.t));
  const seq = ctx.socket.grab(cell, u.drawn.ref, dt);
  u.lifted.set(k, { cell, seq, state: "lifting" });
  u.grabSeqs.set(seq, k);
  if (ev && ev.currentTarget) ev.currentTarget.classList.add("lifted");
  ctx.rerender();
}

function grabResult(ctx, message) {
  const u = ui(ctx);
  const k = u.grabSeqs.get(message.client_seq);
  if (k === undefined) return;
  u.grabSeqs.delete(message.client_seq);
  const info = u.lifted.get(k);
  if (!info) return;
  if (message.won) {
    info.state = "won";
    if (!ctx.view.battlefield.some((b) => key(b.cell) === k)) u.lifted.delete(k);
  } else {
    info.state = "lost";
    ctx.toast(describe(message.code || "ambush/empty_cell"), "warn");
    setTimeout(() => { u.lifted.delete(k); ctx.rerender(); }, 520);
  }
  ctx.rerender();
}

function callAmbush(ctx) {
  if (!legalTypes(ctx).has("call_ambush")) {
    ctx.toast(describe("ambush/call_refused"), "warn");
    return;
  }
  ctx.send({ type: "call_ambush" });
}

function pass(ctx) {
  if (canPass(ctx)) { ui(ctx).selection = null; ctx.send({ type: "pass" }); }
}

function returnCards(ctx) {
  const u = ui(ctx);
  const hand = ctx.view.hand || [];
  ctx.send({ type: "return", cards: [...u.returnPick].map((i) => hand[i]) });
  u.returnPick.clear();
}

// ----- drawing ------------------------------------------------------------------------------
function renderDials(ctx) {
  const v = ctx.view;
  const u = ui(ctx);
  const targeting = stage(ctx) === "target";
  const make = (castle) => dialEl(castle, {
    view: v, names: castleNames(ctx), mySeat: ctx.seat,
    clockMs: ctx.clockFor(castle.seat),
    targetable: targeting && castle.alive && castle.seat !== ctx.seat,
    selectedTarget: u.selection && u.selection.target === castle.seat && needsTarget(u.selection.card),
    onTarget: (seat) => chooseTarget(ctx, seat),
  });
  put(ctx.els.others, ...v.castles.filter((c) => c.seat !== ctx.seat).map(make));
  const mine = v.castles.find((c) => c.seat === ctx.seat);
  const slot = ctx.els.me.querySelector(".my-dial");
  if (slot) put(slot, mine ? make(mine) : "");
}

function renderBoard(ctx) {
  const v = ctx.view;
  const u = ui(ctx);
  const st = stage(ctx);
  const playing = inGame(ctx) && !v.outcome;
  const placeNow = playing && myTurn(ctx) && ((v.phase === "turn" && v.step === "expose") || v.phase === "placing" || st === "cell");
  const pickCards = playing && (v.phase === "ambush" || st === "look" || st === "swap");
  const selected = new Set();
  if (u.selection && u.selection.look) selected.add(key(u.selection.look));
  for (const c of (u.selection && u.selection.swap) || []) selected.add(key(c));
  const grid = battlefieldEl(v, {
    clickFree: placeNow, showFree: true, clickCards: pickCards, selected, lifted: u.lifted, fresh: u.fresh,
    onCell: (cell, kind, ev) => onCell(ctx, cell, kind, ev),
  });
  grid.classList.toggle("racing", v.phase === "ambush");
  put(ctx.els.board, grid);
  fitGrid(grid);
  const spot = ctx.els.spotlight;
  clear(spot);
  const who = (seat) => (seat === ctx.seat ? "you" : ctx.names[seat] || "?");
  if (v.exposed) {
    spot.append(h("div.spot", h("div.spot-label", `Exposed by ${who(v.exposed.seat)}`), cardEl(v.exposed.card, { extra: "flip-in" })));
  }
  if (v.reserved) spot.append(h("div.spot", h("div.spot-label", "Being played"), cardEl(v.reserved.card)));
  if (v.last_check && v.phase !== "ambush") {
    const c = v.last_check;
    spot.append(h("div.spot.check", h("div.spot-label", "Last check"),
      h("div", c.valid ? "True call" : "False call"),
      h("div.muted", c.counts.map((n, s) => `${ctx.names[s] || s}: ${n}`).join(" · ")),
      h("div.muted", `${c.left} left on the field`)));
  }
}

function renderMe(ctx) {
  const v = ctx.view;
  const u = ui(ctx);
  const me = ctx.els.me;
  clear(me);
  if (ctx.seat === null) {
    me.append(h("p.muted.watch-note", "You are watching. Face-down cards stay hidden from spectators."));
    return;
  }
  me.append(h("div.my-dial"));
  if (!inGame(ctx) && !v.outcome) me.append(h("p.muted.watch-note.out-note", "Your castle is out: you watch the rest of the match."));
  const selected = new Set(u.returnPick);
  if (u.selection) selected.add(u.selection.index);
  const interactive = !v.outcome && (canPlay(ctx) || (v.phase === "returning" && owed(ctx) > 0));
  me.append(h("div.hand-area", handEl(v.hand || [], { onCard: interactive ? (id, i) => selectCard(ctx, id, i) : null, selected })));
  if (v.phase === "returning" && owed(ctx)) {
    me.append(h("div.return-bar",
      h("button#return-button.btn.btn-primary", { onclick: () => returnCards(ctx), disabled: u.returnPick.size !== owed(ctx) }, `Return ${owed(ctx)} card(s)`),
      v.returning ? h("span.muted", ` ${seconds(v.returning.deadline - ctx.matchNow())} left`) : null));
  }
}

function renderButtons(ctx) {
  if (ctx.seat === null || ctx.view.outcome || !inGame(ctx)) return;
  ctx.els.actions.append(
    h("button#ambush-button.btn.btn-ambush", { onclick: () => callAmbush(ctx), disabled: !legalTypes(ctx).has("call_ambush"), title: "Call Ambush! (key A)", "aria-keyshortcuts": "A" }, "Ambush!"),
    h("button#pass-button.btn", { onclick: () => pass(ctx), disabled: !canPass(ctx), title: "Skip playing a card (key P)", "aria-keyshortcuts": "P" }, "Pass"));
}

// How an Ambush! match ends (the engine's reasons). Stalling is a house rule: it looks at
// cards played from a hand, not at the deck, which may still hold many cards.
const ENDINGS = {
  last_castle: "the last castle standing wins",
  all_destroyed: "every castle fell at once",
  stalled: "stalled: two whole rounds passed without a card played from a hand (house rule), so the highest HP wins",
};

export default {
  id: "ambush",
  load: loadCards,

  render(ctx) {
    renderButtons(ctx);
    renderBoard(ctx);
    renderMe(ctx);
    renderDials(ctx);
  },

  describeEvent(event, ctx) {
    return ambushLine(event, ctx.names, ctx.seat);
  },

  castleNames(view) {
    return (view.castles || []).map((c) => c.name);
  },

  // The result dialog: each castle's HP at the end, and how the match ended in words.
  resultScore(view, seat) {
    const castle = (view.castles || [])[seat];
    return castle ? `${castle.hp} HP` : "";
  },

  resultReason(reason) {
    return ENDINGS[reason] || null;
  },

  prompt(ctx) {
    const u = ui(ctx);
    return promptText({
      view: ctx.view, seat: ctx.seat, names: ctx.names, now: ctx.matchNow(), owed: owed(ctx),
      picked: u.returnPick.size, stage: stage(ctx), selection: u.selection,
    });
  },

  bannerClass(ctx) {
    return ctx.view.phase === "ambush" ? "banner-race" : "";
  },

  update(ctx, message) {
    const u = ui(ctx);
    const v = ctx.view;
    const cells = new Set((v.battlefield || []).map((b) => key(b.cell)));
    u.fresh = u.prevCells.size === 0 && message.type === "welcome" ? new Set() : new Set([...cells].filter((k) => !u.prevCells.has(k)));
    u.prevCells = cells;
    for (const [k, info] of u.lifted) if (info.state === "won" && !cells.has(k)) u.lifted.delete(k);
    if (u.selection && !canPlay(ctx)) u.selection = null;
    if (v.phase !== "returning") u.returnPick.clear();
    // The grab's reference: the version drawn in this frame and when the frame was drawn.
    const version = message.version;
    requestAnimationFrame((stamp) => { u.drawn = { ref: version, t: stamp }; });
  },

  onEvents(events, ctx) {
    for (const event of events) {
      if (event.type === "ambush_called") ctx.flash("AMBUSH!", "ambush");
      if (event.type === "check") ctx.flash(event.valid ? "True call!" : "False call!", event.valid ? "ambush" : "bad");
      if (event.type === "destroyed") ctx.flash(`${ctx.names[event.seat] || "A castle"} falls!`, "bad");
    }
  },

  onMessage(message, ctx) {
    if (message.type === "grab_result") grabResult(ctx, message);
  },

  onError(message, ctx) {
    const u = ui(ctx);
    if (message.client_seq !== undefined && u.selection) { u.selection = null; ctx.rerender(); }
  },

  onKey(ev, ctx) {
    const u = ui(ctx);
    if (ev.key === "a" || ev.key === "A" || ev.key === "!") { ev.preventDefault(); callAmbush(ctx); }
    else if (ev.key === "p" || ev.key === "P") pass(ctx);
    else if (ev.key === "Escape") { u.selection = null; u.returnPick.clear(); ctx.rerender(); }
    else if (/^[1-9]$/.test(ev.key) && ctx.view.hand) {
      const index = Number(ev.key) - 1;
      if (index < ctx.view.hand.length) selectCard(ctx, ctx.view.hand[index], index);
    }
  },

  tick(ctx) {
    // Dials redraw only while a clock runs (a redraw under the pointer can eat a click).
    if (Object.keys(ctx.deadlines).length) renderDials(ctx);
  },

  onResize(ctx) {
    fitGrid(ctx.els.board.querySelector(".grid"));
  },
};
