"""Views built from what the engine keeps between changes: snapshots, and equal to fresh ones."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest

from engines.base import Bot, Engine, Event
from engines.castles.bots import HeuristicBot, RandomBot
from engines.castles.state import GameState
from engines.playout import play
from tests.engines.castles.helpers import ENGINE

TERRAIN = {
    "terrain": ["plains", "hills", "lake", "high_hills", "forest", "plains"],
    "rivers": [2],
}


class KeepingEngine:
    """The Castles engine, keeping every view it hands out with a deep copy taken then."""

    def __init__(self) -> None:
        self.kept: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(ENGINE, name)

    def view(self, state: GameState, seat: int | None) -> dict[str, Any]:
        shown = ENGINE.view(state, seat)
        self.kept.append((shown, copy.deepcopy(shown)))
        return shown


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_view_handed_out_stays_a_snapshot(seats: int) -> None:
    """Views share the parts that did not change since the last change (in-play entries, the
    discard, hands, zones); the engine never changes one in place, so a view kept by a host
    still equals the copy taken when it was handed out after the match has gone on."""
    for seed in range(4):
        engine = KeepingEngine()
        kind = HeuristicBot if seed % 2 == 0 else RandomBot
        bots: list[Bot] = [kind(seat, seed * 10 + seat) for seat in range(seats)]

        def spectate(state: GameState, events: list[Event], engine: KeepingEngine = engine) -> None:
            engine.view(state, None)

        options = TERRAIN if seed == 3 else None
        play(cast(Engine, engine), bots, seed, options, on_change=spectate)
        assert len(engine.kept) > 100
        for shown, taken in engine.kept:
            assert shown == taken


@pytest.mark.parametrize("seats", [2, 4])
def test_kept_views_and_listings_equal_fresh_ones(seats: int) -> None:
    """After every change, the views and listings built from what the engine kept (the board,
    each card's entry until the rules edit it, the discard, hands) equal those of a fresh copy
    of the state (``from_json``), which keeps nothing: no rule forgets to drop a stale part."""
    for seed in range(6):
        kind = HeuristicBot if seed % 2 == 0 else RandomBot
        bots: list[Bot] = [kind(seat, seed * 10 + seat) for seat in range(seats)]

        def compare(state: GameState, events: list[Event]) -> None:
            fresh = ENGINE.from_json(ENGINE.to_json(state))
            for seat in [*range(seats), None]:
                assert ENGINE.view(state, seat) == ENGINE.view(fresh, seat)
            for seat in ENGINE.to_act(state):
                assert ENGINE.legal_actions(state, seat) == ENGINE.legal_actions(fresh, seat)

        play(ENGINE, bots, seed, TERRAIN if seed >= 4 else None, on_change=compare)
