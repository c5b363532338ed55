"""Views built from the parts the engine keeps between changes: equal to fresh ones, and
snapshots that later changes leave alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.ember.bots import HeuristicBot, RandomBot
from engines.ember.state import EmberState
from engines.playout import play
from tests.engines.ember.helpers import ENGINE, act, arrange, game, to_play_phase


def _fresh(state: EmberState, seat: int | None) -> dict[str, Any]:
    """The view of a copy of the state that kept nothing from earlier views."""
    return ENGINE.view(EmberState.from_json(ENGINE.to_json(state)), seat)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_kept_view_parts_give_the_fresh_view_and_stay_snapshots(seats: int) -> None:
    handed_out: list[tuple[dict[str, Any], str]] = []

    def each_change(state: EmberState, events: list[dict[str, Any]]) -> None:
        for seat in [*range(seats), None]:
            seen = ENGINE.view(state, seat)
            assert seen == _fresh(state, seat)
            handed_out.append((seen, json.dumps(seen, sort_keys=True)))

    for seed in range(3):
        bots = [
            (HeuristicBot if seat % 2 else RandomBot)(seat, seed + seat) for seat in range(seats)
        ]
        play(ENGINE, bots, seed, on_change=each_change)
    assert handed_out
    for seen, text in handed_out:
        assert json.dumps(seen, sort_keys=True) == text, "a view changed after it was handed out"


def test_a_position_built_outside_apply_shows_in_the_next_view() -> None:
    """``touched`` (called by the test helpers) makes the views look at the state again."""
    state = game()
    before = ENGINE.view(state, 0)
    arrange(state, 0, scape=["golden_hoard"], mode=["martyr"])
    after = ENGINE.view(state, 0)
    assert after == _fresh(state, 0) and after != before
    assert before["players"][0]["scape"] == []
    assert [card["card"] for card in after["players"][0]["scape"]] == ["golden_hoard"]
    to_play_phase(state, 0)
    act(state, 0, {"type": "play", "card": after["hand"][0]["uid"]})
    assert ENGINE.view(state, 1) == _fresh(state, 1)
