"""The end of an Ember match shows every player's stones: the view's outcome carries the scores
the ``game_over`` event told everyone, and nothing of them before the end."""

from __future__ import annotations

from typing import Any

from engines import registry
from engines.base import Event
from engines.ember.bots import HeuristicBot
from engines.playout import play


def test_the_finished_view_carries_the_stones_game_over_told() -> None:
    engine = registry.get("ember")
    told: list[Event] = []
    during: list[Any] = []

    def watch(state: Any, events: list[Event]) -> None:
        told.extend(e for e in events if e["type"] == "game_over")
        if not told:
            during.append(engine.view(state, 0)["outcome"])

    record = play(engine, [HeuristicBot(s, 30 + s) for s in range(3)], seed=5, on_change=watch)
    assert record.outcome is not None and len(told) == 1
    for seat in (None, 0, 1, 2):
        outcome = engine.view(record.state, seat)["outcome"]
        assert outcome["scores"] == told[0]["scores"]
    assert all(shown is None for shown in during)
