"""Views and legal lists are snapshots: the engine never changes one after handing it out.

Views share unchanged parts (battlefield entries, castles, hands, options) across calls and
across changes, so an engine that edited a shared part in place would corrupt views it had
already given away. Bot games keep every view and legal list handed out, with a deep copy
taken at the time, and check at the end that none of them changed.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engines.ambush.bots import HeuristicBot, RandomBot
from engines.ambush.engine import AmbushEngine
from engines.ambush.state import AmbushState
from engines.base import Bot
from engines.playout import play


class _KeepingEngine(AmbushEngine):
    """The engine, keeping every view and legal list it hands out next to a copy."""

    def __init__(self) -> None:
        self.kept: list[tuple[Any, Any]] = []

    def view(self, state: AmbushState, seat: int | None) -> dict[str, Any]:
        shown = super().view(state, seat)
        self.kept.append((shown, copy.deepcopy(shown)))
        return shown

    def legal_actions(self, state: AmbushState, seat: int) -> list[dict[str, Any]]:
        listed = super().legal_actions(state, seat)
        self.kept.append((listed, copy.deepcopy(listed)))
        return listed


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_views_and_legal_lists_handed_out_never_change_afterwards(seats: int) -> None:
    for game in range(6):
        engine = _KeepingEngine()
        kinds = (HeuristicBot, RandomBot)
        bots: list[Bot] = [kinds[(game + s) % 2](s, game * 10 + s) for s in range(seats)]
        if game % 3 == 0:
            bots = [HeuristicBot(s, game * 10 + s) for s in range(seats)]

        def spectate(state: Any, events: Any, engine: _KeepingEngine = engine) -> None:
            engine.view(state, None)

        record = play(engine, bots, seed=game, on_change=spectate)
        assert record.outcome is not None
        assert len(engine.kept) > 100
        for index, (shown, taken) in enumerate(engine.kept):
            assert shown == taken, f"seats {seats}, game {game}: item {index} changed"
