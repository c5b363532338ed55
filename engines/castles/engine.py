"""CastlesEngine: the Castles deck under the engine contract (``engines/base.py``)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar, Final

from engines.base import Event, IllegalAction, Outcome
from engines.castles import legal, turns
from engines.castles import state as state_module
from engines.castles.board import side_of
from engines.castles.movement import execute_move, plan_move
from engines.castles.playing import card_field, play_card
from engines.castles.responses import respond
from engines.castles.state import PLAY, GameState, changed
from engines.castles.unit_actions import use_action
from engines.castles.view import to_act, view
from engines.envelope import INT, INTS, Action, Actions, Field, optional

CODE = "castles/"


class CastlesActions(Actions):
    """The table of the Castles deck's actions (``ACTIONS``)."""

    def seat_count(self, state: GameState) -> int:
        return state.seats

    def gate(self, state: GameState, seat: int, kind: str) -> None:
        if state.phase == "over":
            raise IllegalAction(CODE + "game_over", "the match is over")


def _resign(state: GameState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    return turns.resign(state, seat)


def _respond(state: GameState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    """A response window's answer: pass, trap prompts off, a trap or a strike."""
    if state.window is not None and at_ms >= state.window.deadline:
        raise IllegalAction(CODE + "too_late", "the response window has closed")
    return respond(state, seat, action)


def _on_turn(state: GameState, seat: int) -> None:
    if state.phase != "turn" or seat != state.active:
        raise IllegalAction(CODE + "not_your_turn", "wait for your turn")


def _end_turn(state: GameState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    _on_turn(state, seat)
    return turns.end_turn(state)


def _play(state: GameState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    _on_turn(state, seat)
    return play_card(state, seat, action)


def _act(state: GameState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    _on_turn(state, seat)
    return use_action(state, seat, action)


def _move(state: GameState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    _on_turn(state, seat)
    card = card_field(state, action, "card")
    if card.place != PLAY or card.side != side_of(seat):
        raise IllegalAction(CODE + "not_your_card", "move your own cards in play")
    carriers = [card_field(state, {"card": c}, "card") for c in action.get("with", [])]
    plan = plan_move(state, card, action["to"], carriers)
    events, traps, strikes = execute_move(state, plan)
    return events + turns.open_window(state, traps, strikes, at_ms)


CARD = "a card id"
# The table: each action type, its rules and its fields (``engines.envelope``); card ids are
# checked against the cards by the rules (castles/bad_field).
ACTIONS: Final = CastlesActions(
    "castles",
    [
        Action("end_turn", _end_turn, doc="end the turn"),
        Action("resign", _resign, doc="leave the game (the side plays on while a seat is left)"),
        Action("pass", _respond, doc="let a response window go by"),
        Action("trap_prompts_off", _respond, doc="pass, and no trap windows from now on"),
        Action(
            "trap",
            _respond,
            Field("card", INT, doc="the trap card"),
            Field("target", INT, doc="the card it springs on"),
            doc="spring a trap in a response window",
        ),
        Action(
            "strike",
            _respond,
            Field("card", INT, doc="the striking card"),
            Field("target", INT, doc="the card it strikes"),
            doc="strike in a response window",
        ),
        Action(
            "move",
            _move,
            Field("card", INT, doc=CARD),
            Field("to", INT, doc="the zone it moves to"),
            optional("with", INTS, "the card ids it carries"),
            doc="move a card in play",
        ),
        Action(
            "play",
            _play,
            Field("card", INT, doc=CARD),
            optional("zone", INT, "the zone 0..5"),
            optional("target", INT, "the card it aims at"),
            optional("targets", INTS, "the cards it aims at"),
            doc="play a card from the hand",
        ),
        Action(
            "act",
            _act,
            Field("card", INT, doc=CARD),
            optional("target", INT, "the card it acts on"),
            optional("build", INT, "a Builder's building"),
            optional("seat", INT, "the seat it acts on"),
            doc="use a card's action",
        ),
    ],
)
ONE_SEAT = tuple(frozenset({seat}) for seat in range(4))  # frozensets: safe to hand out again


class CastlesEngine:
    """Two sides (Red = side 0, Blue = side 1); with 3-4 seats, seat s plays for side s % 2."""

    id: ClassVar[str] = "castles"
    title: ClassVar[str] = "Castles deck"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    actions: ClassVar[Actions] = ACTIONS
    whole_views: ClassVar[bool] = False

    def setup(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> GameState:
        """A new match; raises ``InvalidAction`` castles/bad_seats or castles/bad_option."""
        state, _events = turns.setup(seats, seed, dict(options or {}))
        return state

    def to_act(self, state: GameState) -> frozenset[int]:
        if state.phase == "turn":
            return ONE_SEAT[state.active]  # the common case, asked before every step
        return frozenset(to_act(state))

    def awaiting(self, state: GameState) -> frozenset[int]:
        """Every seat in ``to_act`` is awaited (a response window needs its answer)."""
        return self.to_act(state)

    def legal_actions(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """End turn (or pass, in a window) first, resign last; [] for a seat not to act."""
        if state.phase == "turn" and seat == state.active:
            return legal.turn_actions(state, seat)
        if state.phase == "response":
            return legal.window_actions(state, seat)
        return []

    def apply(self, state: GameState, seat: Any, action: Any, at_ms: Any) -> list[Event]:
        """Validate completely (the table ``ACTIONS`` and its rules), then act. Raises
        ``InvalidAction`` with the envelope's codes (``engines.envelope``) and castles/bad_field
        for a card id that names no card; ``IllegalAction`` castles/game_over,
        castles/not_your_turn, castles/too_late (a window answer at or after its deadline) and
        the codes of each rules module. A refusal changes nothing. ``Any``: refused with those
        codes when compiled (mypyc) too, where a typed parameter would raise TypeError first."""
        try:
            events: list[Event] = ACTIONS.dispatch(state, seat, action, at_ms)
            if state.end_reason == "castle_destroyed":  # settled here, not in every rule
                events += turns.settle(state)
            return events
        finally:
            changed(state)  # views and listings derived from the state before are stale now

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

    def view_audience(self, state: GameState, seat: int | None) -> Hashable:
        """Each seat sees its own hand: every seat, and the spectators, is its own audience."""
        return seat

    def outcome(self, state: GameState) -> Outcome | None:
        return None if state.phase != "over" else turns.outcome(state)  # asked every step

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state_module.to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> GameState:
        return state_module.from_json(data)
