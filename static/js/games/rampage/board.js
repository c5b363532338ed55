// Castle Rampage table pieces: a face-down stack, the draw and discard piles, the last attack
// revealed card by card, and the set-up's split of the dealt cards. Pure builders: index.js
// passes what is chosen and the handlers.
import { h } from "../../dom.js";
import { cardName, rampageCardEl } from "./cards.js";

export const STRUCTURES = ["gate", "castle"];
export const LABEL = { gate: "Gate", castle: "Castle" };

/** A face-down stack: only its size is known (not even its owner may look). */
export function stackEl(player, structure, seat, { onClick } = {}) {
  const size = player[`${structure}_size`];
  const backs = Array.from({ length: Math.min(size, 6) }, (_, i) => h("span.rp-stack-card", { style: { "--k": i } }, rampageCardEl(null)));
  const attrs = { class: `rp-stack rp-${structure}`, "data-seat": seat, "data-structure": structure, "aria-label": `${player.name} ${LABEL[structure]}: ${size} card${size === 1 ? "" : "s"}` };
  if (onClick) attrs.onclick = onClick;
  return h(onClick ? "button.rp-drop" : "div", attrs,
    h("div.rp-stack-cards", size ? backs : h("span.rp-empty", "empty")),
    h("div.rp-stack-label", LABEL[structure], h("b.rp-size", String(size))));
}

/**
 * The last attack (``memo.attack``, gathered by feed.js's lastAttack), revealed step by step;
 * ``attacker``: its heading ("Ada attacks"). ``memo`` keeps the drawn node between redraws.
 */
export function attackEl(memo, attacker) {
  const a = memo.attack;
  if (!a) return h("div.rp-attack.rp-attack-idle", h("span.muted", "No attack yet."));
  // The same node is kept while the attack is the same; moved back into the page its
  // animations restart, so they are shifted by the time already played (no replay).
  if (memo.attackFor === a && memo.attackEl) {
    memo.attackEl.style.setProperty("--el", `${((performance.now() - memo.attackStart) / 1000).toFixed(2)}s`);
    return memo.attackEl;
  }
  memo.attackStart = performance.now();
  const steps = a.steps.map((step, i) => h(`div.rp-step.rp-${step.fate}`, { style: { "--d": `${0.35 + i * 0.55}s` } },
    h("div.rp-step-label", `${LABEL[step.structure]}`),
    rampageCardEl(step.card, { extra: "rp-reveal" }),
    h("div.rp-step-value", `${step.defence} vs ${step.strength}`),
    h("div.rp-step-fate", step.fate === "held" ? "holds" : step.fate === "tie" ? "tie" : "falls")));
  const outcome = a.over ? "The Castle falls!" : a.repelledBy ? "Repelled" : a.result === "returned" ? "Returned" : "Attack spent";
  memo.attackEl = h("div.rp-attack", { "aria-label": "last attack" },
    h("div.rp-attacker", h("div.rp-step-label", attacker), rampageCardEl(a.card), h("div.rp-strength", `strength ${a.strength}`)),
    h("div.rp-steps", steps),
    h("div.rp-attack-end", { style: { "--d": `${0.35 + a.steps.length * 0.55}s` } }, outcome, a.notes.length ? ` (${a.notes.join(", ")})` : ""));
  memo.attackFor = a;
  return memo.attackEl;
}

/** The draw pile (its size) and the discard pile (its top card, the whole list unfolded). */
export function pilesEl(view, { discardOpen, onToggle }) {
  const top = view.discard[view.discard.length - 1];
  return h("div.rp-piles",
    h("div.rp-pile.rp-draw", { "aria-label": `draw pile: ${view.draw_size} cards` }, rampageCardEl(null), h("div.rp-stack-label", "Draw", h("b.rp-size", String(view.draw_size)))),
    h("div.rp-pile.rp-discard", { "aria-label": `discard pile: ${view.discard.length} cards` },
      top ? rampageCardEl(top) : h("span.rp-empty", "empty"),
      h("div.rp-stack-label", "Discard", h("b.rp-size", String(view.discard.length)))),
    view.discard.length ? h("details.rp-discard-list", { open: discardOpen, ontoggle: (ev) => onToggle(ev.target.open) }, h("summary", "Discard pile"),
      h("ol", view.discard.slice().reverse().map((id) => h("li", cardName(id))))) : null);
}

/** The set-up: each dealt card to the Gate, the Castle or the hand (``split``: id -> where). */
export function setupEl(dealt, split, { onToggle, onConfirm }) {
  const count = (st) => [...split.values()].filter((x) => x === st).length;
  const cards = dealt.map((id) => {
    const to = split.get(id);
    return h("div.rp-deal", { "data-card": id, class: to ? `to-${to}` : "to-hand" },
      rampageCardEl(id),
      h("div.rp-deal-buttons", STRUCTURES.map((st) => h(`button.btn.rp-to-${st}`, {
        "aria-pressed": to === st ? "true" : "false", class: to === st ? "on" : "",
        onclick: () => onToggle(id, st),
      }, LABEL[st]))),
      h("div.rp-deal-fate", to ? `under ${LABEL[to]}` : "to hand"));
  });
  const ready = count("gate") === 2 && count("castle") === 2;
  return h("div.rp-setup",
    h("div.rp-deals", cards),
    h("div.rp-setup-bar",
      h("span", `Gate ${count("gate")}/2 · Castle ${count("castle")}/2`),
      h("button#rp-setup-confirm.btn.btn-primary", { disabled: !ready, onclick: onConfirm }, "Hide them")));
}
