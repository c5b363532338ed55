"""CastlesEngine: the Castles deck under the engine contract (``engines/base.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.base import Event, IllegalAction, InvalidAction, Outcome
from engines.castles import legal, turns
from engines.castles import state as state_module
from engines.castles.board import side_of
from engines.castles.movement import execute_move, plan_move
from engines.castles.playing import card_field, play_card
from engines.castles.responses import respond
from engines.castles.state import PLAY, GameState, changed
from engines.castles.unit_actions import use_action
from engines.castles.view import to_act, view

CODE = "castles/"
TURN_TYPES = frozenset({"end_turn", "play", "move", "act"})
WINDOW_TYPES = frozenset({"pass", "trap_prompts_off", "trap", "strike"})
# Per action type, every field it may carry: anything else is refused (castles/bad_field),
# so nothing unknown is ever logged or shown in the event log.
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "end_turn": frozenset({"type"}),
    "resign": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "trap_prompts_off": frozenset({"type"}),
    "trap": frozenset({"type", "card", "target"}),
    "strike": frozenset({"type", "card", "target"}),
    "move": frozenset({"type", "card", "to", "with"}),
    "play": frozenset({"type", "card", "zone", "target", "targets"}),
    "act": frozenset({"type", "card", "target", "build", "seat"}),
}
ONE_SEAT = tuple(frozenset({seat}) for seat in range(4))  # frozensets: safe to hand out again


class CastlesEngine:
    """Two sides (Red = side 0, Blue = side 1); with 3-4 seats, seat s plays for side s % 2."""

    id: ClassVar[str] = "castles"
    title: ClassVar[str] = "Castles deck"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4

    def setup(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> GameState:
        """A new match; raises ``InvalidAction`` castles/bad_seats or castles/bad_option."""
        state, _events = turns.setup(seats, seed, dict(options or {}))
        return state

    def to_act(self, state: GameState) -> frozenset[int]:
        if state.phase == "turn":
            return ONE_SEAT[state.active]  # the common case, asked before every step
        return frozenset(to_act(state))

    def legal_actions(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """End turn (or pass, in a window) first, resign last; [] for a seat not to act."""
        if state.phase == "turn" and seat == state.active:
            return legal.turn_actions(state, seat)
        if state.phase == "response":
            return legal.window_actions(state, seat)
        return []

    def apply(self, state: GameState, seat: Any, action: Any, at_ms: Any) -> list[Event]:
        """Validate completely, then act. Raises ``InvalidAction`` castles/bad_action,
        castles/bad_seat, castles/unknown_action, castles/bad_field; ``IllegalAction``
        castles/game_over, castles/not_your_turn, castles/too_late (a window answer at or after
        its deadline) and the codes of each rules module. A refusal changes nothing. ``Any``:
        refused with those codes when compiled (mypyc) too, where a typed parameter would
        raise TypeError first."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise InvalidAction(CODE + "bad_action", "an action is a dict with a string type")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise InvalidAction(CODE + "bad_seat", "no such seat")
        try:
            return self._apply(state, seat, action, at_ms)
        finally:
            changed(state)  # views and listings derived from the state before are stale now

    def _apply(
        self, state: GameState, seat: int, action: dict[str, Any], at_ms: Any
    ) -> list[Event]:
        kind = action["type"]
        fields = ACTION_FIELDS.get(kind)
        if fields is None:
            raise InvalidAction(CODE + "unknown_action", f"unknown action type {kind!r}")
        if not action.keys() <= fields:
            extra = sorted(str(name) for name in action.keys() - fields)
            raise InvalidAction(CODE + "bad_field", f"unexpected fields {extra}")
        if state.phase == "over":
            raise IllegalAction(CODE + "game_over", "the match is over")
        if kind == "resign":
            return turns.resign(state, seat)
        if kind in WINDOW_TYPES:
            if state.window is not None and at_ms >= state.window.deadline:
                raise IllegalAction(CODE + "too_late", "the response window has closed")
            events = respond(state, seat, action)
        else:
            if state.phase != "turn" or seat != state.active:
                raise IllegalAction(CODE + "not_your_turn", "wait for your turn")
            events = self._turn_action(state, seat, action, at_ms)
        if state.end_reason == "castle_destroyed":  # settled here, not by a call every action
            events += turns.settle(state)
        return events

    def _turn_action(
        self, state: GameState, seat: int, action: dict[str, Any], at_ms: int
    ) -> list[Event]:
        kind = action["type"]
        if kind == "end_turn":
            return turns.end_turn(state)
        if kind == "play":
            return play_card(state, seat, action)
        if kind == "act":
            return use_action(state, seat, action)
        card = card_field(state, action, "card")
        if card.place != PLAY or card.side != side_of(seat):
            raise IllegalAction(CODE + "not_your_card", "move your own cards in play")
        to = action.get("to")
        carried = action.get("with", [])
        if isinstance(to, bool) or not isinstance(to, int) or not isinstance(carried, list):
            raise InvalidAction(CODE + "bad_field", "to is a zone, with a list of card ids")
        carriers = [card_field(state, {"card": c}, "card") for c in carried]
        plan = plan_move(state, card, to, carriers)
        events, traps, strikes = execute_move(state, plan)
        return events + turns.open_window(state, traps, strikes, at_ms)

    def tick(self, state: GameState, now_ms: int) -> list[Event]:
        """Close a response window whose time is up (its seats are taken to have passed)."""
        if state.window is not None and now_ms >= state.window.deadline:
            changed(state)
            return turns.close_window(state, "timeout")
        return []

    def deadline(self, state: GameState) -> int | None:
        return None if state.window is None else state.window.deadline

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        if state.phase != "over":  # no outcome yet: skip building one (a view per seat per step)
            return view(state, seat, None)
        result = turns.outcome(state)
        return view(state, seat, None if result is None else result.to_json())

    def outcome(self, state: GameState) -> Outcome | None:
        return None if state.phase != "over" else turns.outcome(state)  # asked every step

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state_module.to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> GameState:
        return state_module.from_json(data)
