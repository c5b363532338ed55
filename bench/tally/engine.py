"""The ``tally`` engine: the peer benchmarks' load workload (``bench/peers.py``) as an engine.

State: ``n`` moves applied, ``turn``, four ``scores``, 20 ``cells`` ``{owner, v}``. A move is
``{"type": "move", "cell": c}`` from the seat on turn. Two options make it a test game too:
``target`` ends the match when a seat has that many points, and ``secrets`` deals every seat a
private number (redrawn after each of its moves) that only it sees, for leak tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.base import (
    Event,
    IllegalAction,
    InvalidAction,
    Outcome,
    Rng,
    SeatResult,
    make_event,
    option_int,
)

CELLS = 20


@dataclass
class TallyState:
    seats: int
    rng: Rng
    turn: int = 0
    n: int = 0
    scores: list[int] = field(default_factory=list)
    cells: list[dict[str, int]] = field(default_factory=list)
    target: int = 0
    secrets: list[int] | None = None
    resigned: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    over: bool = False


class TallyEngine:
    """Seats move in turn; the first to ``target`` points wins (no target: endless)."""

    id: ClassVar[str] = "tally"
    title: ClassVar[str] = "Tally (benchmark)"
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 4
    # Every patch carries the whole view, not a diff (``app.sessions.seat_views``): the
    # peer benchmarks' load client for Rampart reads ``view.turn`` from each patch.
    whole_views: ClassVar[bool] = True

    def setup(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> TallyState:
        opts = dict(options or {})
        if not self.min_seats <= seats <= self.max_seats:
            raise InvalidAction("tally/bad_seats", "tally takes 1-4 seats")
        target = option_int(opts, "target", 0, "tally", low=0, high=1_000_000)
        first = option_int(opts, "first_seat", 0, "tally", low=0, high=seats - 1)
        names = opts.get("names") or [f"Seat {i}" for i in range(seats)]
        state = TallyState(seats=seats, rng=Rng(seed), turn=first, target=target)
        state.scores = [0] * seats
        state.cells = [{"owner": -1, "v": 0} for _ in range(CELLS)]
        state.names = [str(name) for name in names][:seats]
        if opts.get("secrets"):
            state.secrets = [state.rng.randbelow(100) for _ in range(seats)]
        return state

    def _living(self, state: TallyState) -> list[int]:
        return [s for s in range(state.seats) if s not in state.resigned]

    def to_act(self, state: TallyState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def awaiting(self, state: TallyState) -> frozenset[int]:
        return self.to_act(state)

    def legal_actions(self, state: TallyState, seat: int) -> list[dict[str, Any]]:
        if state.over or seat in state.resigned:
            return []
        actions: list[dict[str, Any]] = []
        if seat == state.turn:
            actions.append({"type": "move", "cell": (state.n * 7 + seat) % CELLS})
        actions.append({"type": "resign"})
        return actions

    def apply(
        self, state: TallyState, seat: int, action: dict[str, Any], at_ms: int
    ) -> list[Event]:
        """Refuses ``tally/over``, ``tally/seat_out``, ``tally/unknown_action``,
        ``tally/not_your_turn`` and ``tally/bad_cell``; changes nothing when it refuses."""
        if state.over:
            raise IllegalAction("tally/over", "the match is over")
        if not 0 <= seat < state.seats or seat in state.resigned:
            raise IllegalAction("tally/seat_out", "that seat is not in play")
        kind = action.get("type")
        if kind == "resign":
            return self._resign(state, seat)
        if kind != "move":
            raise InvalidAction("tally/unknown_action", f"unknown action {kind!r}")
        cell = action.get("cell")
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise InvalidAction("tally/bad_cell", "cell must be an integer in 0..19")
        if seat != state.turn:
            raise IllegalAction("tally/not_your_turn", f"it is seat {state.turn}'s turn")
        state.n += 1
        state.scores[seat] += 1
        # A changed cell gets a new dict, never an edit: views share the cell dicts.
        state.cells[cell] = {"owner": seat, "v": state.cells[cell]["v"] + 1}
        events = [make_event("moved", seat=seat, cell=cell, n=state.n)]
        if state.secrets is not None:
            state.secrets[seat] = state.rng.randbelow(100)
            events.append(
                make_event("drew", [seat], {"seat": seat}, seat=seat, secret=state.secrets[seat])
            )
        if state.target and state.scores[seat] >= state.target:
            state.over = True
            events.append(make_event("game_over", winner=seat))
        else:
            self._advance(state)
        return events

    def _resign(self, state: TallyState, seat: int) -> list[Event]:
        state.resigned.append(seat)
        events = [make_event("resigned", seat=seat)]
        living = self._living(state)
        if len(living) <= 1:
            state.over = True
            events.append(make_event("game_over", winner=living[0] if living else None))
        elif seat == state.turn:
            self._advance(state)
        return events

    def _advance(self, state: TallyState) -> None:
        for step in range(1, state.seats + 1):
            candidate = (state.turn + step) % state.seats
            if candidate not in state.resigned:
                state.turn = candidate
                return

    def tick(self, state: TallyState, now_ms: int) -> list[Event]:
        return []

    def deadline(self, state: TallyState) -> int | None:
        return None

    def view(self, state: TallyState, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.id,
            "phase": "over" if state.over else "turn",
            "seats": state.seats,
            "to_act": sorted(self.to_act(state)),
            "turn": state.turn,
            "n": state.n,
            "scores": list(state.scores),
            "cells": list(state.cells),  # cell dicts are replaced, never edited (``apply``)
            "names": list(state.names),
            "resigned": sorted(state.resigned),
            "outcome": None,
        }
        outcome = self.outcome(state)
        if outcome is not None:
            view["outcome"] = outcome.to_json()
        if state.secrets is not None and seat is not None:
            view["secret"] = state.secrets[seat]
        return view

    def view_audience(self, state: TallyState, seat: int | None) -> int | None:
        """Every seat sees the same view unless secrets are dealt (then each its own)."""
        return None if state.secrets is None else seat

    def outcome(self, state: TallyState) -> Outcome | None:
        if not state.over:
            return None
        living = self._living(state)
        best = max((state.scores[s] for s in living), default=0)
        ranked = sorted(living, key=lambda s: -state.scores[s])
        placings: list[list[int]] = []
        for s in ranked:
            if placings and state.scores[placings[-1][0]] == state.scores[s]:
                placings[-1].append(s)
            else:
                placings.append([s])
        if state.resigned:
            placings.extend([s] for s in reversed(state.resigned))
        results = {
            s: SeatResult(
                destroyed=False,
                resigned=s in state.resigned,
                damage=min(1.0, max(0.0, (best - state.scores[s]) / best)) if best else 0.0,
            )
            for s in range(state.seats)
        }
        reason = "target" if len(living) > 1 else "resignation"
        return Outcome(placings, results, reason)

    def to_json(self, state: TallyState) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "rng": state.rng.to_json(),
            "turn": state.turn,
            "n": state.n,
            "scores": list(state.scores),
            "cells": [dict(cell) for cell in state.cells],
            "target": state.target,
            "secrets": None if state.secrets is None else list(state.secrets),
            "resigned": list(state.resigned),
            "names": list(state.names),
            "over": state.over,
        }

    def from_json(self, data: Mapping[str, Any]) -> TallyState:
        return TallyState(
            seats=int(data["seats"]),
            rng=Rng.from_json(data["rng"]),
            turn=int(data["turn"]),
            n=int(data["n"]),
            scores=[int(x) for x in data["scores"]],
            cells=[dict(cell) for cell in data["cells"]],
            target=int(data["target"]),
            secrets=None if data["secrets"] is None else [int(x) for x in data["secrets"]],
            resigned=[int(x) for x in data["resigned"]],
            names=[str(x) for x in data["names"]],
            over=bool(data["over"]),
        )
