"""The benchmark's tally engine (``bench/tally``): the workload's rules, and views that stay
snapshots although they share the cell dicts."""

from __future__ import annotations

import copy

import pytest

from bench.tally.engine import TallyEngine
from engines.base import ActionError


def test_a_move_scores_and_marks_its_cell_and_earlier_views_do_not_change() -> None:
    engine = TallyEngine()
    state = engine.setup(4, 1, {})
    before = engine.view(state, 0)
    kept = copy.deepcopy(before)
    engine.apply(state, 0, {"type": "move", "cell": 0}, 10)
    engine.apply(state, 1, {"type": "move", "cell": 8}, 20)
    after = engine.view(state, 2)
    assert before == kept  # a view is a snapshot: later moves do not reach it
    assert after["n"] == 2 and after["turn"] == 2 and after["scores"] == [1, 1, 0, 0]
    assert after["cells"][0] == {"owner": 0, "v": 1} and after["cells"][8] == {"owner": 1, "v": 1}
    assert engine.legal_actions(state, 2)[0] == {"type": "move", "cell": (2 * 7 + 2) % 20}


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "move", "cell": 0}, "tally/not_your_turn"),
        (0, {"type": "move", "cell": 20}, "tally/bad_cell"),
        (0, {"type": "move", "cell": True}, "tally/bad_cell"),
        (0, {"type": "jump"}, "tally/unknown_action"),
    ],
)
def test_refusals_leave_the_state_as_it_was(
    seat: int, action: dict[str, object], code: str
) -> None:
    engine = TallyEngine()
    state = engine.setup(4, 1, {})
    saved = engine.to_json(state)
    with pytest.raises(ActionError) as refusal:
        engine.apply(state, seat, action, 10)
    assert refusal.value.code == code
    assert engine.to_json(state) == saved
