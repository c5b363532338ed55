"""The finished match as an Outcome: placings, destroyed/resigned flags and damage."""

from __future__ import annotations

from engines.base import Outcome, SeatResult
from engines.rampage.state import OVER, RampageState


def outcome_of(state: RampageState) -> Outcome | None:
    """None while the match runs.

    ``damage`` (in 0..1, as the engine contract asks): structure cards lost / cards ever
    placed in that seat's Gate and Castle. ``destroyed`` marks the seat whose Castle fell (the
    loser of a both-Castles fall counts as destroyed too: its own play brought its Castle down). An
    exhausted siege (house rule) is won on Castle size, or drawn: one placing for both.
    """
    if state.phase != OVER:
        return None
    loser = state.loser
    destroyed = state.reason in ("castle_destroyed", "both_castles_destroyed")
    seats = {}
    for seat, player in enumerate(state.players):
        damage = player.lost / player.placed if player.placed else 0.0
        seats[seat] = SeatResult(
            destroyed=destroyed and seat == loser,
            resigned=player.resigned,
            damage=min(1.0, damage),
        )
    placings = [[0, 1]] if loser is None else [[1 - loser], [loser]]
    return Outcome(placings=placings, seats=seats, reason=state.reason or "")
