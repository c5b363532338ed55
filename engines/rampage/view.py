"""What one seat may know: its own hand, public piles and permanents, and stack sizes only."""

from __future__ import annotations

from typing import Any

from engines.rampage.outcome import outcome_of
from engines.rampage.state import OVER, PLAY, SETUP, RampageState


def to_act(state: RampageState) -> frozenset[int]:
    """Set-up: every seat still to split its cards; play: the active seat; over: nobody."""
    if state.phase == SETUP:
        return frozenset(seat for seat, p in enumerate(state.players) if not p.chosen)
    if state.phase == PLAY:
        return frozenset({state.active})
    return frozenset()


def _to_act_list(state: RampageState) -> list[int]:
    """``sorted(to_act(state))`` without the frozenset: views are built after every move."""
    if state.phase == SETUP:
        return [seat for seat, p in enumerate(state.players) if not p.chosen]
    if state.phase == PLAY:
        return [state.active]
    return []


def view(state: RampageState, seat: int | None) -> dict[str, Any]:
    """The seat's view (None: a spectator).

    Face-down Gate and Castle cards are never shown, not even to their owner (rulebook:
    neither player may look at them); both players see every stack's size.
    """
    phase = state.phase
    outcome = outcome_of(state) if phase == OVER else None  # None while the match runs
    players, discard = public_part(state)
    # len(players), not the ``seats`` property: a view is built per seat after every change.
    seats = len(players)
    mine = state.players[seat] if seat is not None and 0 <= seat < seats else None
    return {
        "game": "rampage",
        "phase": phase,
        "seats": seats,
        "to_act": _to_act_list(state),
        "outcome": None if outcome is None else outcome.to_json(),
        "seat": seat,
        "first_seat": state.first_seat,
        "setup_round": state.setup_round,
        "active": state.active if phase != SETUP else None,
        "turn": state.turn,
        "defended": state.defended,
        "veteran_played": state.veteran_played,
        "draw_size": len(state.draw),
        "discard": discard,
        "players": players,
        "hand": None if mine is None else list(mine.hand),
        "dealt": None if mine is None else list(mine.dealt),
        "aside": None if mine is None else list(mine.aside),
    }


def public_part(state: RampageState) -> tuple[list[dict[str, Any]], list[str]]:
    """The players' public facts and the discard pile, built once per state version.

    Every seat's view after one change holds the same two lists (views are never changed
    once handed out, so sharing them is safe); any ``apply`` bumps the version.
    """
    memo = state.public_memo
    if memo is not None and memo[0] == state.version:
        return memo[1], memo[2]
    players = [
        {
            "name": p.name,
            "hand_size": len(p.hand),
            "gate_size": len(p.gate),
            "castle_size": len(p.castle),
            "permanents": list(p.permanents),
            "placed": p.placed,
            "lost": p.lost,
            "chosen": p.chosen,
            "resigned": p.resigned,
        }
        for p in state.players
    ]
    discard = list(state.discard)
    state.public_memo = (state.version, players, discard)
    return players, discard
