// Game id -> the module that draws its table; games without one get the generic table.
import ambush from "./ambush/index.js";
import castles from "./castles/index.js";
import ember from "./ember/index.js";
import generic from "./generic.js";
import rampage from "./rampage/index.js";

const RENDERERS = { ambush, castles, ember, rampage };

/** The renderer for ``game`` (a view's "game" field), or the generic one. */
export function rendererFor(game) {
  return RENDERERS[game] || generic;
}
