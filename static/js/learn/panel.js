// The start page's "Learn to play" box: each game's How to play page and its practice round.
import { h } from "../dom.js";
import { howtoLink } from "./howto.js";
import { GAME_IDS, RULES } from "./rules_text.js";

export function learnPanel() {
  return h("section#learn-panel.panel.learn-panel",
    h("h2", "Learn to play"),
    h("p.muted", "New here? Read the rules with the cards beside them, or play a guided round against a gentle bot."),
    h("ul.learn-list", GAME_IDS.map((game) => h("li", { "data-game": game },
      h("strong", RULES[game].title),
      howtoLink(game, { cls: "btn btn-quiet howto-home" }),
      h("a.btn.practice-link", { href: `/practice/${game}`, "data-link": "", "data-game": game },
        game === "ambush" ? "Practice round" : "Guided start")))));
}
