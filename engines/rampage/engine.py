"""RampageEngine: the Castle Rampage rules behind the shared engine contract."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar, Final

from engines.base import Event, IllegalAction, Outcome, make_event
from engines.envelope import MAP, STR, STRS, Action, Actions, Field, optional
from engines.rampage import legal, setup_rules, turns
from engines.rampage import view as views
from engines.rampage.outcome import outcome_of
from engines.rampage.play import apply_play, validate_play
from engines.rampage.state import OVER, PLAY, RampageState

GAME = "rampage"


class RampageActions(Actions):
    """The table of Castle Rampage's actions (``ACTIONS``)."""

    def seat_count(self, state: RampageState) -> int:
        return state.seats

    def gate(self, state: RampageState, seat: int, kind: str) -> None:
        if state.phase == OVER:
            raise IllegalAction(f"{GAME}/game_over", "the match is over")


def _resign(state: RampageState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    state.players[seat].resigned = True
    return [make_event("resigned", seat=seat), *turns.finish(state, seat, "resigned")]


def _setup(state: RampageState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    setup_rules.validate_setup(state, seat, action)
    events = setup_rules.apply_setup(state, seat, action)
    if state.phase == PLAY:
        events.extend(turns.start_turn(state, state.first_seat))
    return events


def _end_turn(state: RampageState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    turns.require_turn(state, seat)
    return turns.end_turn(state, seat)


def _defend(state: RampageState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    turns.validate_defend(state, seat, action)
    return turns.apply_defend(state, seat, action)


def _play(state: RampageState, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
    validate_play(state, seat, action)
    return apply_play(state, seat, action)


CARD = "a card id from the hand"
PAY = "the card ids discarded to pay"
# The table: each action type, its rules and its fields (``engines.envelope``).
ACTIONS: Final = RampageActions(
    GAME,
    [
        Action(
            "setup",
            _setup,
            Field("gate", STRS, doc="the two card ids for the gate"),
            Field("castle", STRS, doc="the two card ids for the castle"),
            doc="split the set-up cards between gate and castle",
        ),
        Action("end_turn", _end_turn, doc="end the turn"),
        Action(
            "defend",
            _defend,
            Field("card", STR, doc=CARD),
            Field("to", STR, doc="'gate' or 'castle'"),
            optional("pay", STRS, PAY),
            doc="place a defence card",
        ),
        Action(
            "play",
            _play,
            Field("card", STR, doc=CARD),
            optional("pay", STRS, PAY),
            optional("as", MAP, "Scheme: card id -> unit type"),
            optional("name", STR, "Priest: the unit type named"),
            optional("target", doc="a hand position or a permanent's card id", null=True),
            doc="play a card",
        ),
        Action("resign", _resign, doc="leave the game"),
    ],
)


class RampageEngine:
    """Castle Rampage for two seats: hidden stacks, attacks with carry-over, permanents."""

    id: ClassVar[str] = GAME
    title: ClassVar[str] = "Castle Rampage"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    actions: ClassVar[Actions] = ACTIONS
    whole_views: ClassVar[bool] = False

    def setup(
        self, seats: Any, seed: int, options: Mapping[str, Any] | None = None
    ) -> RampageState:
        """Shuffle (or stack) the 118 cards and deal set-up round one.

        Options: ``deck`` (card ids or kinds, top first; the rest shuffled below),
        ``first_seat`` (0 or 1), ``names`` (two castle names). Raises InvalidAction
        rampage/bad_seats or rampage/bad_option.
        """
        state, _ = setup_rules.new_state(seats, seed, dict(options or {}))
        setup_rules.deal_round(state)
        return state

    def to_act(self, state: RampageState) -> frozenset[int]:
        return views.to_act(state)

    def awaiting(self, state: RampageState) -> frozenset[int]:
        """Every seat in ``to_act`` is awaited (no optional out-of-turn actions)."""
        return views.to_act(state)

    def legal_actions(self, state: RampageState, seat: int) -> list[dict[str, Any]]:
        """End turn first (the time-out default), then placements, plays, resign last."""
        return legal.legal_actions(state, seat)

    def apply(self, state: RampageState, seat: Any, action: Any, at_ms: Any) -> list[Event]:
        """Validate completely (the table ``ACTIONS`` and its rules), then change ``state``.

        InvalidAction: the envelope's codes (``engines.envelope``) or a field-specific code
        (rampage/bad_cards, ...); IllegalAction rampage/game_over and the codes of each
        action's validator (rampage/not_your_turn, rampage/already_defended, ...). ``Any``:
        refused with those codes when compiled (mypyc) too, where a typed parameter would
        raise TypeError first.
        """
        try:
            events: list[Event] = ACTIONS.dispatch(state, seat, action, at_ms)
            return events
        finally:
            # Even a refusal counts: a view built before it is never mistaken for a later one.
            state.version += 1

    def tick(self, state: RampageState, now_ms: int) -> list[Event]:
        """Castle Rampage has no game-time deadlines; turn clocks belong to the session."""
        return []

    def deadline(self, state: RampageState) -> int | None:
        return None

    def view(self, state: RampageState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def view_audience(self, state: RampageState, seat: int | None) -> Hashable:
        """Each seat sees its own hand: every seat, and the spectators, is its own audience."""
        return seat

    def outcome(self, state: RampageState) -> Outcome | None:
        return outcome_of(state)

    def to_json(self, state: RampageState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> RampageState:
        return RampageState.from_json(data)
