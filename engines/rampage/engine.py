"""RampageEngine: the Castle Rampage rules behind the shared engine contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.base import Event, IllegalAction, InvalidAction, Outcome, make_event
from engines.rampage import legal, setup_rules, turns
from engines.rampage import view as views
from engines.rampage.outcome import outcome_of
from engines.rampage.play import apply_play, validate_play
from engines.rampage.state import OVER, PLAY, RampageState

GAME = "rampage"
# The fields each action type may carry; anything else is malformed.
FIELDS: dict[str, frozenset[str]] = {
    "setup": frozenset({"type", "gate", "castle"}),
    "end_turn": frozenset({"type"}),
    "defend": frozenset({"type", "card", "to", "pay"}),
    "play": frozenset({"type", "card", "pay", "as", "name", "target"}),
    "resign": frozenset({"type"}),
}


class RampageEngine:
    """Castle Rampage for two seats: hidden stacks, attacks with carry-over, permanents."""

    id: ClassVar[str] = GAME
    title: ClassVar[str] = "Castle Rampage"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2

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

    def legal_actions(self, state: RampageState, seat: int) -> list[dict[str, Any]]:
        """End turn first (the time-out default), then placements, plays, resign last."""
        return legal.legal_actions(state, seat)

    def apply(self, state: RampageState, seat: Any, action: Any, at_ms: Any) -> list[Event]:
        """Validate completely, then change ``state``.

        InvalidAction rampage/bad_action (not a dict, unknown type, unknown field) or a
        field-specific code; IllegalAction rampage/game_over, rampage/bad_seat and the codes of
        each action's validator (rampage/not_your_turn, rampage/already_defended, ...).
        ``Any``: refused with those codes when compiled (mypyc) too, where a typed parameter
        would raise TypeError first.
        """
        try:
            return self._apply(state, seat, action)
        finally:
            # Even a refusal counts: a view built before it is never mistaken for a later one.
            state.version += 1

    def _apply(self, state: RampageState, seat: Any, action: Any) -> list[Event]:
        kind = _action_type(action)
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise IllegalAction(f"{GAME}/bad_seat", "no such seat")
        if state.phase == OVER:
            raise IllegalAction(f"{GAME}/game_over", "the match is over")
        if kind == "resign":
            state.players[seat].resigned = True
            return [make_event("resigned", seat=seat), *turns.finish(state, seat, "resigned")]
        if kind == "setup":
            setup_rules.validate_setup(state, seat, action)
            events = setup_rules.apply_setup(state, seat, action)
            if state.phase == PLAY:
                events.extend(turns.start_turn(state, state.first_seat))
            return events
        if kind == "end_turn":
            turns.require_turn(state, seat)
            return turns.end_turn(state, seat)
        if kind == "defend":
            turns.validate_defend(state, seat, action)
            return turns.apply_defend(state, seat, action)
        validate_play(state, seat, action)
        return apply_play(state, seat, action)

    def tick(self, state: RampageState, now_ms: int) -> list[Event]:
        """Castle Rampage has no game-time deadlines; turn clocks belong to the session."""
        return []

    def deadline(self, state: RampageState) -> int | None:
        return None

    def view(self, state: RampageState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: RampageState) -> Outcome | None:
        return outcome_of(state)

    def to_json(self, state: RampageState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> RampageState:
        return RampageState.from_json(data)


def _action_type(action: Any) -> str:
    """The action's type; InvalidAction rampage/bad_action when malformed."""
    if not isinstance(action, dict):
        raise InvalidAction(f"{GAME}/bad_action", "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise InvalidAction(f"{GAME}/bad_action", f"unknown action type {kind!r}")
    allowed = FIELDS[kind]
    if not allowed.issuperset(action):  # checked on every action: no set built when clean
        extra = set(action) - allowed
        raise InvalidAction(f"{GAME}/bad_action", f"unknown fields {sorted(extra)}")
    return kind
