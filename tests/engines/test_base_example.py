"""The "Add a game" example in engines/README.md, run as it stands there: a table and its
rules make a complete engine that bots play to the end and a log replays."""

from __future__ import annotations

import json
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.base import ActionError, Decision, Engine, IllegalAction, InvalidAction
from engines.playout import play, replay

README = Path(__file__).resolve().parents[2] / "engines" / "README.md"


@pytest.fixture(scope="module")
def example() -> Iterator[types.ModuleType]:
    """The README's one Python block under "## Add a game", imported as a module."""
    section = README.read_text().split("## Add a game", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1
    module = types.ModuleType("pile_example")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    try:
        exec(compile(blocks[0], str(README), "exec"), module.__dict__)
        yield module
    finally:
        del sys.modules[module.__name__]


class FirstLegal:
    """Takes the largest legal handful (the resign is last on the list)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        pass

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        takes = [action for action in legal if action["type"] == "take"]
        return Decision(takes[-1], now_ms + 10) if takes else None


def test_the_example_is_an_engine_that_plays_to_the_end(example: types.ModuleType) -> None:
    engine = example.PileEngine()
    assert isinstance(engine, Engine)
    record = play(engine, [FirstLegal(0), FirstLegal(1)], seed=1, options={"stones": 10})
    # 10 stones, three at a time: 3, 3, 3, then the first player takes the last one.
    assert [action["count"] for _, action, _ in record.log] == [3, 3, 3, 1]
    assert record.outcome is not None and record.outcome.placings == [[1], [0]]
    again = replay(engine, 2, 1, record.options, record.log)
    assert engine.to_json(again) == engine.to_json(record.state)
    assert engine.awaiting(record.state) == frozenset()
    assert engine.view_audience(record.state, 1) == 1 and not engine.whole_views


@pytest.mark.parametrize(
    ("seat", "action", "error", "code"),
    [
        (0, "take", InvalidAction, "pile/bad_action"),
        (0, {"type": "jump"}, InvalidAction, "pile/unknown_action"),
        (0, {"type": "take"}, InvalidAction, "pile/bad_field"),
        (0, {"type": "take", "count": "2"}, InvalidAction, "pile/bad_field"),
        (2, {"type": "take", "count": 2}, InvalidAction, "pile/bad_seat"),
        (1, {"type": "take", "count": 2}, IllegalAction, "pile/not_your_turn"),
        (0, {"type": "take", "count": 4}, IllegalAction, "pile/bad_count"),
    ],
)
def test_the_example_refuses_through_the_envelope(
    example: types.ModuleType, seat: Any, action: Any, error: type[ActionError], code: str
) -> None:
    engine = example.PileEngine()
    state = engine.setup(2, 0)
    before = json.dumps(engine.to_json(state))
    with pytest.raises(error) as refused:
        engine.apply(state, seat, action, 0)
    assert refused.value.code == code
    assert json.dumps(engine.to_json(state)) == before


def test_an_engine_short_of_the_contract_is_not_registered(example: types.ModuleType) -> None:
    """An engine written without subclassing ``Engine`` must define every member itself: the
    registry names what it lacks instead of failing later, inside a match."""

    class Bare:
        id = "bare"

    for name in ("id", "title", "min_seats", "max_seats", "whole_views"):
        setattr(Bare, name, getattr(example.PileEngine, name))
    for name in ("setup", "to_act", "legal_actions", "apply", "tick", "deadline", "view"):
        setattr(Bare, name, getattr(example.PileEngine, name))
    for name in ("outcome", "to_json", "from_json"):
        setattr(Bare, name, getattr(example.PileEngine, name))
    with pytest.raises(TypeError, match=r"\['awaiting', 'view_audience'\]"):
        registry.register(Bare())  # type: ignore[arg-type]
    assert "bare" not in registry.ids()
    registry.register(example.PileEngine())
    try:
        assert registry.get("pile").awaiting(registry.get("pile").setup(2, 0)) == {0}
    finally:
        registry.unregister("pile")
