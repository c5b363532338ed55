// The Castle Rampage table: both sides' stacks (sizes only), the attack revealed card by card,
// permanents, the discard pile, the set-up splits, defences and plays with their costs.
import { h, put, seconds } from "../../dom.js";
import { describe } from "../../errors.js";
import { LABEL, STRUCTURES, attackEl, pilesEl, setupEl, stackEl } from "./board.js";
import { UNIT_TYPES, cardInfo, cardName, kindOf, loadCards, payCount, rampageCardEl, unitName } from "./cards.js";
import { describeRampageEvent, lastAttack } from "./feed.js";

function ui(ctx) {
  const u = ctx.ui;
  if (!u.ready) Object.assign(u, { ready: true, sel: null, split: new Map(), attack: null, attackEl: null, attackFor: null });
  return u;
}

// ----- what the seat may do now ---------------------------------------------------------------
const playing = (ctx) => ctx.seat !== null && !ctx.view.outcome;
const myTurn = (ctx) => playing(ctx) && ctx.view.phase === "play" && ctx.view.active === ctx.seat;
const mustSplit = (ctx) => playing(ctx) && ctx.view.phase === "setup" && !ctx.view.players[ctx.seat].chosen;
const nameOf = (ctx, seat) => (seat === ctx.seat ? "You" : ctx.names[seat] || ctx.view.players[seat].name || `Seat ${seat + 1}`);
const kinds = (ids) => (ids || []).map(kindOf).sort().join(",");
const same = (a, b) => (a === undefined ? null : a) === (b === undefined ? null : b);

/** The legal action that ``candidate`` stands for (copies of a kind are interchangeable). */
function findLegal(ctx, candidate) {
  return ctx.legal.find((a) => a.type === candidate.type && kindOf(a.card) === kindOf(candidate.card)
    && kinds(a.pay) === kinds(candidate.pay) && same(a.to, candidate.to)
    && same(a.name, candidate.name) && same(a.target, candidate.target));
}
const legalFor = (ctx, type, card) => ctx.legal.filter((a) => a.type === type && kindOf(a.card) === kindOf(card));

function candidates(ctx) {
  const s = ui(ctx).sel;
  const info = cardInfo(s.card);
  const play = { type: "play", card: s.card };
  if (payCount(s.card) && !info.purple) play.pay = [...s.pay];
  if (info.effect === "priest") play.name = s.name;
  if (info.effect === "archer" && ctx.view.players[1 - ctx.seat].hand_size) play.target = s.target;
  if (info.effect === "fire_arrows") play.target = s.target;
  const defend = (to) => ({ type: "defend", card: s.card, to, ...(info.effect === "ogre" ? { pay: [...s.pay] } : {}) });
  return { play, defend };
}

// ----- choices ------------------------------------------------------------------------------
function onHandCard(ctx, id) {
  const u = ui(ctx);
  if (!myTurn(ctx)) { ctx.toast("It is not your turn."); return; }
  const s = u.sel;
  if (s && s.card === id) { u.sel = null; ctx.rerender(); return; }
  const paying = s && (payCount(s.card) > 0);
  if (paying) {
    const info = cardInfo(s.card);
    const most = info.scheme ? info.scheme.needs.length + 1 : payCount(s.card);
    if (s.pay.includes(id)) s.pay = s.pay.filter((c) => c !== id);
    else if (s.pay.length < most) s.pay = [...s.pay, id];
    else ctx.toast(`${info.name} takes at most ${most} cards.`);
    ctx.rerender();
    return;
  }
  u.sel = { card: id, pay: [], name: null, target: null };
  ctx.rerender();
}

function send(ctx, action) {
  if (!action) return;
  ctx.send(action);
  ui(ctx).sel = null;
  ctx.rerender();
}

/** The real action for a candidate: our own card ids, the legal list's shape. */
function act(ctx, candidate) {
  if (!findLegal(ctx, candidate)) {
    const spent = candidate.type === "play" && ctx.view.veteran_played && cardInfo(candidate.card).effect === "veteran";
    ctx.toast(spent ? describe("rampage/once_per_turn") : "That is not possible right now.", "warn");
    return;
  }
  const action = { ...candidate };
  if (action.pay && !action.pay.length) delete action.pay;
  if (action.target === null) delete action.target;
  send(ctx, action);
}

function toggleSplit(ctx, id, structure) {
  const split = ui(ctx).split;
  if (split.get(id) === structure) split.delete(id);
  else if ([...split.values()].filter((s) => s === structure).length < 2) split.set(id, structure);
  else ctx.toast(`The ${LABEL[structure]} takes 2 cards each round.`);
  ctx.rerender();
}

function confirmSplit(ctx) {
  const split = ui(ctx).split;
  const pick = (structure) => ctx.view.dealt.filter((id) => split.get(id) === structure);
  send(ctx, { type: "setup", gate: pick("gate"), castle: pick("castle") });
  split.clear();
}

function endTurn(ctx) {
  if (myTurn(ctx)) send(ctx, { type: "end_turn" });
}

// ----- drawing ------------------------------------------------------------------------------
const piles = (ctx) => pilesEl(ctx.view, { discardOpen: ui(ctx).discardOpen, onToggle: (open) => { ui(ctx).discardOpen = open; } });

function attacker(ctx) {
  const a = ui(ctx).attack;
  return a ? `${nameOf(ctx, a.seat)} ${a.seat === ctx.seat ? "attack" : "attacks"}` : "";
}

function sideEl(ctx, seat) {
  const v = ctx.view;
  const p = v.players[seat];
  const mine = seat === ctx.seat;
  const s = ui(ctx).sel;
  const canDefend = mine && s && myTurn(ctx) && !v.defended;
  const burn = !mine && s && cardInfo(s.card).effect === "fire_arrows" && myTurn(ctx);
  const stacks = STRUCTURES.map((st) => {
    const candidate = canDefend ? candidates(ctx).defend(st) : null;
    const ok = candidate && findLegal(ctx, candidate);
    return stackEl(p, st, seat, ok ? { onClick: () => act(ctx, candidate) } : {});
  });
  const perms = p.permanents.map((id) => burn
    ? h("button.rp-perm.targetable", { "data-card": id, class: s.target === id ? "selected" : "", onclick: () => { s.target = id; ctx.rerender(); }, "aria-label": `target ${cardName(id)}` }, rampageCardEl(id))
    : h("span.rp-perm", { "data-card": id }, rampageCardEl(id)));
  const onTurn = v.phase === "play" && v.active === seat && !v.outcome;
  return h(`div.rp-side.${mine ? "rp-mine" : "rp-theirs"}`, { "data-seat": seat, class: onTurn ? "on-turn" : "" },
    h("div.rp-stacks", stacks),
    h("div.rp-perms", { "aria-label": "permanents in play" }, perms.length ? perms : h("span.muted.rp-none", "no permanents")));
}

function opponentEl(ctx, seat) {
  const v = ctx.view;
  const p = v.players[seat];
  const s = ui(ctx).sel;
  const aiming = s && cardInfo(s.card).effect === "archer" && myTurn(ctx) && seat !== ctx.seat;
  const clock = ctx.clockFor(seat);
  const backs = Array.from({ length: p.hand_size }, (_, i) => aiming
    ? h("button.rp-back.targetable", { "data-pos": i, class: s.target === i ? "selected" : "", onclick: () => { s.target = i; ctx.rerender(); }, "aria-label": `hand card ${i + 1}` }, rampageCardEl(null))
    : h("span.rp-back", { "data-pos": i }, rampageCardEl(null)));
  const status = p.resigned ? "resigned" : v.phase === "setup" ? (p.chosen ? "set up" : "setting up") : v.active === seat && !v.outcome ? "on turn" : "";
  return h("div.rp-player", { "data-seat": seat, class: status === "on turn" ? "on-turn" : "" },
    h("div.rp-player-name", nameOf(ctx, seat), seat === ctx.seat ? h("span.you", "you") : null),
    h("div.rp-player-meta", `hand ${p.hand_size}`, h("span.clock", clock !== null ? ` · ${seconds(clock)}` : ""), status ? h("span.dial-status", ` ${status}`) : null),
    seat === ctx.seat ? null : h("div.rp-hand-backs", backs));
}

function panelEl(ctx) {
  const v = ctx.view;
  const s = ui(ctx).sel;
  if (!s || !myTurn(ctx)) return null;
  const info = cardInfo(s.card);
  const { play, defend } = candidates(ctx);
  const plays = legalFor(ctx, "play", s.card);
  const defends = legalFor(ctx, "defend", s.card);
  const rows = [];
  if (payCount(s.card)) {
    const need = info.scheme
      ? `Discard the units ${info.scheme.needs.map(unitName).join(" + ")} (one more ${unitName(info.scheme.bonus)}: +${info.scheme.bonus_strength})`
      : `Discard ${payCount(s.card)} card${payCount(s.card) === 1 ? "" : "s"}${info.purple ? " to place it" : ""}`;
    rows.push(h("div.rp-need", `${need}: click them in your hand. Chosen: ${s.pay.map(cardName).join(", ") || "none"}.`));
  }
  if (info.effect === "priest") {
    rows.push(h("div.rp-names", "Name a unit type: ", UNIT_TYPES.map((unit) => h(`button.btn.rp-name-${unit}`, {
      class: s.name === unit ? "on" : "", "aria-pressed": s.name === unit ? "true" : "false",
      onclick: () => { s.name = unit; ctx.rerender(); },
    }, unitName(unit)))));
  }
  if (info.effect === "archer" && v.players[1 - ctx.seat].hand_size) rows.push(h("div.rp-need", `Point at a card in ${nameOf(ctx, 1 - ctx.seat)}'s hand${s.target !== null ? ` (card ${s.target + 1})` : ""}.`));
  if (info.effect === "fire_arrows") rows.push(h("div.rp-need", s.target ? `Target: ${cardName(s.target)}.` : "Click one of your opponent's permanents."));
  const buttons = [];
  if (plays.length) buttons.push(h("button#rp-play.btn.btn-primary", { disabled: !findLegal(ctx, play), onclick: () => act(ctx, play) }, info.permanent ? "Put in play" : "Play"));
  if (defends.length) {
    for (const st of STRUCTURES) buttons.push(h(`button#rp-defend-${st}.btn`, { disabled: !findLegal(ctx, defend(st)), onclick: () => act(ctx, defend(st)) }, `Hide under ${LABEL[st]}`));
  }
  if (!plays.length && !defends.length) rows.push(h("div.rp-need", info.purple && v.defended ? "Purple cards only defend, and you have placed your defence this turn." : "This card cannot be played now."));
  buttons.push(h("button#rp-cancel.btn.btn-quiet", { onclick: () => { ui(ctx).sel = null; ctx.rerender(); } }, "Cancel"));
  return h("div.rp-panel", { "aria-label": "chosen card" },
    rampageCardEl(s.card, { extra: "rp-big" }),
    h("div.rp-panel-body", h("h3", info.name), h("p.rp-text", info.text), rows, h("div.rp-panel-buttons", buttons)));
}

function handEl(ctx) {
  const v = ctx.view;
  const s = ui(ctx).sel;
  const cards = v.phase === "setup" ? v.aside || [] : v.hand || [];
  const clickable = myTurn(ctx);
  const row = h("div.hand.rp-hand", { role: "group", "aria-label": "your hand" });
  cards.forEach((id, i) => {
    const classes = [s && s.card === id ? "selected" : "", s && s.pay.includes(id) ? "paying" : ""].join(" ").trim();
    const attrs = { "data-card": id, "data-kind": kindOf(id), class: classes, style: { "--i": i, "--n": cards.length } };
    row.append(clickable
      ? h("button.hand-card", { ...attrs, "aria-pressed": s && s.card === id ? "true" : "false", "aria-label": `${cardName(id)}${i < 9 ? ` (key ${i + 1})` : ""}`, onclick: () => onHandCard(ctx, id) }, rampageCardEl(id))
      : h("span.hand-card", attrs, rampageCardEl(id)));
  });
  if (!cards.length) row.append(h("span.muted", v.phase === "setup" ? "Set-aside cards join your hand after the set-up." : "No cards in hand."));
  return row;
}

function render(ctx) {
  const v = ctx.view;
  const u = ui(ctx);
  if (u.sel && (!myTurn(ctx) || !(v.hand || []).includes(u.sel.card))) u.sel = null;
  if (u.sel) u.sel.pay = u.sel.pay.filter((id) => v.hand.includes(id));
  const me = ctx.seat === null ? 0 : ctx.seat;
  const other = 1 - me;
  if (myTurn(ctx)) {
    ctx.els.actions.append(h("button#end-turn-button.btn.btn-primary", { onclick: () => endTurn(ctx), title: "End your turn (key E)", "aria-keyshortcuts": "E" }, "End turn"));
  }
  put(ctx.els.others, opponentEl(ctx, other));
  put(ctx.els.board, h("div.rp-field", sideEl(ctx, other), h("div.rp-middle", piles(ctx), attackEl(ui(ctx), attacker(ctx))), sideEl(ctx, me)));
  put(ctx.els.spotlight);
  if (ctx.seat === null) {
    put(ctx.els.me, opponentEl(ctx, me), h("p.muted.watch-note", "You are watching. Hands and stacks stay hidden from spectators."));
    return;
  }
  put(ctx.els.me, opponentEl(ctx, ctx.seat),
    mustSplit(ctx) ? setupEl(ctx.view.dealt, ui(ctx).split, { onToggle: (id, st) => toggleSplit(ctx, id, st), onConfirm: () => confirmSplit(ctx) }) : null,
    panelEl(ctx),
    h("div.hand-area", handEl(ctx)));
}

export default {
  id: "rampage",
  load: loadCards,
  render,

  describeEvent(event, ctx) {
    return describeRampageEvent(event, ctx.names, ctx.seat);
  },

  castleNames(view) {
    return view.players.map((p) => p.name);
  },

  // The result dialog: the cards left in each player's Castle and Gate.
  resultScore(view, seat) {
    const player = (view.players || [])[seat];
    return player ? `Castle ${player.castle_size} · Gate ${player.gate_size}` : "";
  },

  prompt(ctx) {
    const v = ctx.view;
    const s = ui(ctx).sel;
    if (v.phase === "setup") {
      if (mustSplit(ctx)) return `Set-up round ${v.setup_round}: hide 2 cards under your Gate and 2 under your Castle; the fifth goes to your hand.`;
      return ctx.seat === null ? "Both castles hide their cards…" : `Waiting for ${nameOf(ctx, 1 - ctx.seat)} to set up…`;
    }
    if (!myTurn(ctx)) return `${nameOf(ctx, v.active)} ${v.active === ctx.seat ? "are" : "is"} on turn.`;
    if (s) return `${cardName(s.card)}: choose how to use it below. Esc to cancel.`;
    return `Your turn: play cards${v.defended ? "" : ", hide one card under your Gate or Castle"}, then end the turn (E).`;
  },

  update(ctx, message) {
    const u = ui(ctx);
    if (ctx.view.phase !== "setup" || (ctx.seat !== null && ctx.view.players[ctx.seat].chosen)) u.split.clear();
    for (const id of [...u.split.keys()]) if (!(ctx.view.dealt || []).includes(id)) u.split.delete(id);
    if (message.type === "patch") u.attack = lastAttack(message.events || [], u.attack);
  },

  onEvents(events, ctx) {
    for (const event of events) {
      if (event.type === "game_over" && event.reason === "castle_destroyed") ctx.flash(`${nameOf(ctx, event.loser) === "You" ? "Your castle" : `${nameOf(ctx, event.loser)}'s castle`} falls!`, "bad");
    }
  },

  onKey(ev, ctx) {
    const u = ui(ctx);
    if (ev.key === "e" || ev.key === "E") endTurn(ctx);
    else if (ev.key === "Escape") { u.sel = null; ctx.rerender(); }
    else if (/^[1-9]$/.test(ev.key) && myTurn(ctx)) {
      const id = (ctx.view.hand || [])[Number(ev.key) - 1];
      if (id) onHandCard(ctx, id);
    }
  },

  tick(ctx) {
    if (!Object.keys(ctx.deadlines).length) return;
    const me = ctx.seat === null ? 0 : ctx.seat;
    for (const seat of [me, 1 - me]) {
      const el = document.querySelector(`.rp-player[data-seat="${seat}"] .clock`);
      const clock = ctx.clockFor(seat);
      if (el) el.textContent = clock !== null ? ` · ${seconds(clock)}` : "";
    }
  },
};
