"""The engine contract (``engines/base.py``) checked for every registered engine alike."""

from __future__ import annotations

import ast
import builtins
import importlib
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.base import ActionError, Bot, Engine, Outcome
from engines.playout import play, replay

ENGINES_DIR = Path(__file__).resolve().parents[2] / "engines"
GAMES = registry.ids()
FORBIDDEN_IMPORTS = {"app", "fastapi", "sqlalchemy", "asyncio", "time", "datetime", "socket"}
MALFORMED: list[Any] = [{}, {"type": "no_such_action"}, {"type": 7}, {"kind": "resign"}]


def random_bots(game: str, seats: int, seed: int) -> list[Bot]:
    bots = importlib.import_module(f"engines.{game}.bots")
    return [bots.RandomBot(seat, seed * 31 + seat) for seat in range(seats)]


def seat_counts(engine: Engine) -> list[int]:
    return list(range(engine.min_seats, engine.max_seats + 1))


def snapshot(engine: Engine, state: Any) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


@pytest.mark.parametrize("game", GAMES)
def test_registry_returns_the_engine_for_its_id(game: str) -> None:
    engine = registry.get(game)
    assert engine.id == game
    assert isinstance(engine, Engine)
    assert 1 <= engine.min_seats <= engine.max_seats
    with pytest.raises(KeyError):
        registry.get("no-such-game")


@pytest.mark.parametrize("game", GAMES)
def test_engine_modules_import_nothing_impure(game: str) -> None:
    for path in sorted((ENGINES_DIR / game).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                assert root not in FORBIDDEN_IMPORTS, f"{path}: imports {name}"
                assert name != "random", f"{path}: the global random module"


@pytest.mark.parametrize("game", GAMES)
def test_bot_games_end_replay_and_round_trip(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random bots finish; seed + log replays exactly; refusals change nothing; views are JSON."""
    engine = registry.get(game)

    def forbidden(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError(f"{game}: the engine touched the clock, I/O or global random")

    for seats in seat_counts(engine):
        for seed in range(6):
            check_step = StepChecker(engine, seats)
            with monkeypatch.context() as patched:
                patched.setattr(time, "time", forbidden)
                patched.setattr(time, "monotonic", forbidden)
                patched.setattr(random, "random", forbidden)
                patched.setattr(random, "shuffle", forbidden)
                patched.setattr(builtins, "open", forbidden)
                record = play(
                    engine,
                    random_bots(game, seats, seed),
                    seed,
                    max_steps=50_000,
                    on_change=check_step,
                )
            assert record.outcome is not None, f"{game} seats={seats} seed={seed} did not end"
            check_outcome(record.outcome, seats)
            rebuilt = replay(engine, seats, seed, record.options, record.log)
            assert snapshot(engine, rebuilt) == snapshot(engine, record.state)
            assert engine.to_act(record.state) == frozenset()
            check_step.views_stayed_snapshots()


class StepChecker:
    """After every change: events well formed; every 7th, refusals and round trips checked,
    and each view (engines may build it from parts kept since earlier changes) equal to the
    view of a fresh copy of the state, and kept to check it is never changed afterwards."""

    def __init__(self, engine: Engine, seats: int) -> None:
        self.engine = engine
        self.seats = seats
        self.changes = 0
        self.handed_out: list[tuple[dict[str, Any], str]] = []

    def __call__(self, state: Any, events: list[dict[str, Any]]) -> None:
        engine = self.engine
        self.changes += 1
        for event in events:
            assert isinstance(event.get("type"), str)
            visible = event.get("visible_to")
            assert visible == "all" or (
                isinstance(visible, list) and visible == sorted(set(visible))
            ), event
        if self.changes % 7:
            return
        before = snapshot(engine, state)
        clone = engine.from_json(json.loads(before))
        assert snapshot(engine, clone) == before
        for seat in [*range(self.seats), None]:
            view = engine.view(state, seat)
            assert view == engine.view(clone, seat), f"seat {seat}: a kept view part is stale"
            self.handed_out.append((view, json.dumps(view, sort_keys=True)))
        for seat in range(self.seats):
            for action in MALFORMED:
                with pytest.raises(ActionError):
                    engine.apply(state, seat, action, 10**12)
                assert snapshot(engine, state) == before
            for action in with_unknown_fields(engine, state, seat):
                with pytest.raises(ActionError):
                    engine.apply(state, seat, action, 0)
                assert snapshot(engine, state) == before

    def views_stayed_snapshots(self) -> None:
        for view, text in self.handed_out:
            assert json.dumps(view, sort_keys=True) == text, (
                "a view changed after it was handed out"
            )


def with_unknown_fields(engine: Engine, state: Any, seat: int) -> list[dict[str, Any]]:
    """Each legal action of the seat plus a field no action has: the engine must refuse it
    (nothing unknown may reach the action log or the event log)."""
    if seat not in engine.to_act(state):
        return []
    return [{**action, "junk": "J" * 70} for action in engine.legal_actions(state, seat)]


def check_outcome(outcome: Outcome, seats: int) -> None:
    placed = [seat for group in outcome.placings for seat in group]
    assert sorted(placed) == list(range(seats))
    assert set(outcome.seats) == set(range(seats))
    for result in outcome.seats.values():
        assert 0.0 <= result.damage <= 1.0
    assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome


@pytest.mark.parametrize("game", GAMES)
def test_resign_is_accepted_from_any_seat_in_play(game: str) -> None:
    engine = registry.get(game)
    state = engine.setup(engine.min_seats, 1)
    engine.apply(state, 0, {"type": "resign"}, 0)
    if engine.min_seats == 2:
        outcome = engine.outcome(state)
        assert outcome is not None
        assert outcome.seats[0].resigned
        assert outcome.placings[0] == [1]


@pytest.mark.parametrize("game", GAMES)
def test_setup_refuses_a_bad_seat_count(game: str) -> None:
    engine = registry.get(game)
    with pytest.raises(ActionError):
        engine.setup(engine.max_seats + 1, 1)
