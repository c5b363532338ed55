"""Views built from the parts the engine keeps between changes see a position set up by hand.
(That kept parts give the fresh view and stay snapshots over whole games is checked for every
engine by ``tests/engines/test_contract.py``.)"""

from __future__ import annotations

from typing import Any

from engines.ember.state import EmberState
from tests.engines.ember.helpers import ENGINE, act, arrange, game, to_play_phase


def _fresh(state: EmberState, seat: int | None) -> dict[str, Any]:
    """The view of a copy of the state that kept nothing from earlier views."""
    return ENGINE.view(EmberState.from_json(ENGINE.to_json(state)), seat)


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
