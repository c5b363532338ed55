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

/** The renderer for ``game`` once its card data is in (fetched once per page): a renderer with
 * ``load()`` draws cards from the data the server serves. */
export async function loadRenderer(game) {
  const renderer = rendererFor(game);
  if (renderer.load) await renderer.load();
  return renderer;
}
