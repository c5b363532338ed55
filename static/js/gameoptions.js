// A game's table options as form controls, shared by the table set-up (lobby.js) and the
// tournament set-up (tournaments.js): one fieldset per game that has options, the chosen
// game's shown. A blank field keeps the game's default (its placeholder).
import { h } from "./dom.js";

// Per game: its legend and [option, label, id suffix, input attributes] (the engine's bounds).
const GAME_OPTIONS = {
  ambush: ["Ambush! rules", [
    ["castle_hp", "Castle HP", "castle-hp", { min: 1, max: 999, placeholder: "30" }],
    ["hand_size", "Hand size", "hand-size", { min: 0, max: 26, placeholder: "5" }],
    ["ambush_idle_ms", "Race idle end (ms)", "idle", { min: 1, max: 10000000, placeholder: "2000" }],
  ]],
  castles: ["Castles rules", [
    ["response_ms", "Time to respond (ms)", "response", { min: 0, max: 120000, placeholder: "4000" }],
    ["max_turns", "Turn limit", "max-turns", { min: 2, max: 10000, placeholder: "200" }],
  ]],
  ember: ["Ember rules", [
    ["response_ms", "Time to respond (ms)", "response", { min: 500, max: 600000, placeholder: "10000" }],
    ["max_rounds", "Round limit", "max-rounds", { min: 1, max: 1000, placeholder: "60" }],
  ]],
};

/** gameOptions(prefix, extras): { el, show(game), read(game) }. Inputs have ids
 * `${prefix}-${suffix}` (the table form's Castle HP is #opt-castle-hp); ``extras[game]`` are
 * more fields for that game's fieldset (the table form's "who starts"). read(game) gives the
 * options object of the fields filled in. */
export function gameOptions(prefix, extras = {}) {
  const boxes = {};
  for (const [game, [legend, fields]] of Object.entries(GAME_OPTIONS)) {
    const inputs = fields.map(([name, label, suffix, attrs]) => {
      const input = h("input", { id: `${prefix}-${suffix}`, type: "number", step: 1, ...attrs });
      return [name, input, h("label.field", { for: input.id }, h("span", label), input)];
    });
    const box = h("fieldset.game-opts", { class: `${game}-opts`, "data-game": game },
      h("legend", legend),
      h("div.grid-fields", inputs.map(([, , field]) => field), extras[game] || []));
    boxes[game] = { box, inputs };
  }
  return {
    el: h("div.game-options", Object.values(boxes).map((b) => b.box)),
    show(game) {
      for (const [id, b] of Object.entries(boxes)) b.box.hidden = id !== game;
    },
    read(game) {
      const options = {};
      for (const [name, input] of boxes[game] ? boxes[game].inputs : []) {
        if (input.value !== "") options[name] = Number(input.value);
      }
      return options;
    },
  };
}

/** The bots' level (easy, normal or hard), for table and tournament bots alike. */
export function botLevelSelect(id) {
  return h("select", { id, "aria-label": "bot difficulty" },
    h("option", { value: "easy" }, "Easy"), h("option", { value: "normal", selected: true }, "Normal"), h("option", { value: "hard" }, "Hard"));
}
