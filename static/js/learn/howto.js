// How to play pages (/howto/<game>): the rules for players, with the cards drawn as the table
// draws them (each game's own card art module).
import { fail } from "../api.js";
import { h, put } from "../dom.js";
import { cardEl as ambushCardEl } from "../games/ambush/board.js";
import { CARDS as AMBUSH_CARDS, loadCards as loadAmbush } from "../games/ambush/cards.js";
import { RAMPAGE_CARDS, loadCards as loadRampage, rampageCardEl } from "../games/rampage/cards.js";
import { CARDS as CASTLES_CARDS, title as castlesTitle, loadCards as loadCastles, typeLine } from "../games/castles/cards.js";
import { handCardEl as castlesCardEl } from "../games/castles/board.js";
import { CARDS as EMBER_CARDS, loadCards as loadEmber, MODES, PLAYS } from "../games/ember/cards.js";
import { cardEl as emberCardEl } from "../games/ember/board.js";
import { GAME_IDS, RULES } from "./rules_text.js";

/** Per game: its card data (served, fetched once), every card id, a card's picture (the
 * table's own element), its name and text. */
const ART = {
  ambush: {
    load: loadAmbush,
    ids: () => Object.keys(AMBUSH_CARDS),
    picture: (id) => ambushCardEl(id),
    name: (id) => AMBUSH_CARDS[id].name,
    text: (id) => {
      const c = AMBUSH_CARDS[id];
      const damage = c.damage ? `${c.damage} damage.` : "No damage.";
      return `${damage} ${id === "ambush" ? "Two on the battlefield make a call true." : c.text}`;
    },
  },
  rampage: {
    load: loadRampage,
    ids: () => Object.keys(RAMPAGE_CARDS),
    picture: (id) => rampageCardEl(id),
    name: (id) => RAMPAGE_CARDS[id].name,
    text: (id) => `Gate ${RAMPAGE_CARDS[id].gate}, Castle ${RAMPAGE_CARDS[id].castle}. ${RAMPAGE_CARDS[id].text}`,
  },
  castles: {
    load: loadCastles,
    ids: () => Object.keys(CASTLES_CARDS),
    picture: (id) => castlesCardEl({ id, kind: id }, {}),
    name: (id) => castlesTitle(id),
    text: (id) => `${typeLine(id)}${CASTLES_CARDS[id].hp ? `, ${CASTLES_CARDS[id].hp} HP` : ""}. ${CASTLES_CARDS[id].text}`,
  },
  ember: {
    load: loadEmber,
    ids: () => Object.keys(EMBER_CARDS),
    picture: (id) => emberCardEl({ uid: id, card: id, face_down: false }),
    name: (id) => EMBER_CARDS[id].name,
    text: (id) => {
      const c = EMBER_CARDS[id];
      return `${MODES[c.mode].label} mode, ${c.stones} stone${c.stones === 1 ? "" : "s"}, played ${PLAYS[c.play]}. ${c.text}`;
    },
  },
};

/** One card as a figure: the table's picture, its name, and (unless ``brief``) its text. */
export function cardFigure(game, id, { brief = false } = {}) {
  const art = ART[game];
  const picture = art.picture(id);
  picture.removeAttribute("id"); // the table's hand ids must stay unique on the page
  return h("figure.learn-card", { "data-card": id },
    h("div.learn-art", picture),
    h("figcaption", h("strong", art.name(id)), brief ? null : h("span", art.text(id))));
}

/** Links to the four pages, the current one marked. */
function gameTabs(current) {
  return h("nav.learn-tabs", { "aria-label": "games" }, GAME_IDS.map((id) =>
    h("a", { href: `/howto/${id}`, "data-link": "", class: id === current ? "current" : "", "aria-current": id === current ? "page" : null }, RULES[id].title)));
}

function sectionEl(game, section) {
  return h("section.learn-section", { id: `howto-${section.id}` },
    h("h2", section.title),
    h("div.learn-body",
      h("div.learn-words",
        (section.text || []).map((p) => h("p", p)),
        section.list ? h("ul", section.list.map((p) => h("li", p))) : null),
      section.cards ? h("div.learn-cards", section.cards.map((id) => cardFigure(game, id, { brief: true }))) : null));
}

export function mountHowto(root, game) {
  const rules = RULES[game];
  if (!rules) {
    put(root, h("section.panel.learn", h("h1", "How to play"), gameTabs(null), h("p", "Choose a game.")));
    return () => {};
  }
  let gone = false;
  put(root, h("section.panel.learn", h("h1", `How to play ${rules.title}`), h("p.muted", "Loading the cards…")));
  ART[game].load().then(() => { if (!gone) drawHowto(root, game, rules); }).catch((err) => { if (!gone) fail(err); });
  return () => { gone = true; };
}

function drawHowto(root, game, rules) {
  const practice = game === "ambush" ? "Play the practice round" : "Try a guided start";
  put(root, h("article.learn.howto", { "data-game": game },
    h("header.learn-head",
      h("h1", `How to play ${rules.title}`), gameTabs(game),
      h("p.learn-tagline", rules.tagline),
      h("div.learn-actions",
        h("a#howto-practice.btn.btn-primary", { href: `/practice/${game}`, "data-link": "" }, practice),
        h("a.btn.btn-quiet", { href: "/", "data-link": "" }, "Back to the tables"))),
    rules.sections.map((section) => sectionEl(game, section)),
    h("section.learn-section.learn-deck", { id: "howto-cards" },
      h("h2", "Every card"),
      h("div.learn-gallery", ART[game].ids().map((id) => cardFigure(game, id))))));
}

/** A "How to play" link for ``game`` (start page, lobby, table). */
export function howtoLink(game, { label = "How to play", newTab = false, cls = "btn btn-quiet" } = {}) {
  return h("a.howto-link", {
    class: cls, href: `/howto/${game}`, "data-game": game,
    ...(newTab ? { target: "_blank", rel: "noopener" } : { "data-link": "" }),
  }, label);
}
