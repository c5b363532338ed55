// The fallback table for a game without its own renderer: the view as text, legal actions as buttons.
import { clear, h, put } from "../dom.js";

const who = (ctx, seat) => (seat === ctx.seat ? "you" : ctx.names[seat] || `Seat ${seat + 1}`);

export default {
  id: "generic",

  render(ctx) {
    clear(ctx.els.others);
    clear(ctx.els.spotlight);
    put(ctx.els.board, h("pre.generic-view", JSON.stringify(ctx.view, null, 2)));
    put(ctx.els.me, h("div.generic-actions", ctx.legal.slice(0, 40).map((action) =>
      h("button.btn", { onclick: () => ctx.send(action) }, JSON.stringify(action)))));
  },

  prompt(ctx) {
    const acting = ctx.view.to_act || [];
    if (!acting.length) return "";
    return `To act: ${acting.map((s) => who(ctx, s)).join(", ")}.`;
  },

  describeEvent(event, ctx) {
    const seat = typeof event.seat === "number" ? `${who(ctx, event.seat)}: ` : "";
    return { kind: "turn", text: `${seat}${event.type.replace(/_/g, " ")}` };
  },
};
