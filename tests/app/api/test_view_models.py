"""The view models of the REST API (``app.api.responses.views``) against real views: bot
playouts of all four games, every seat's and the spectator's view validated (no key the model
does not document), and every documented key seen in some view (none the engines never send).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from app.api.responses.views import VIEWS, GameView
from app.sessions.bots import make_bot
from engines import registry
from engines.base import Event, State
from engines.playout import play

VIEW = TypeAdapter(GameView)

# Seat counts and seeds per game: every table size the game plays, short enough for CI (the
# Ambush! seeds include an Elven Archer's placing phase, which shows the reserved cell).
TABLES = {
    "ambush": [(2, 6), (3, 2), (4, 2)],
    "rampage": [(2, 1), (2, 2)],
    "castles": [(2, 1), (4, 2)],
    "ember": [(2, 1), (3, 2), (4, 3)],
}


def fields_seen(model: BaseModel, prefix: str) -> Iterator[str]:
    """Every field set in ``model`` and the models within it, as ``Model.field``."""
    for name in model.model_fields_set:
        yield f"{prefix}.{name}"
        value = getattr(model, name)
        values = value if isinstance(value, list) else [value]
        if isinstance(value, dict):
            values = list(value.values())
        for inner in values:
            items = inner if isinstance(inner, list) else [inner]
            for item in items:
                if isinstance(item, BaseModel):
                    yield from fields_seen(item, type(item).__name__)


def documented(model: type[BaseModel], prefix: str) -> Iterator[str]:
    """Every field of ``model`` and the models its fields hold, as ``Model.field``."""
    for name, info in model.model_fields.items():
        yield f"{prefix}.{name}"
        for inner in _models_in(info.annotation):
            yield from documented(inner, inner.__name__)


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in getattr(annotation, "__args__", ()):
        yield from _models_in(arg)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_view_of_a_bot_game_matches_its_model(game: str) -> None:
    engine = registry.get(game)
    seen: set[str] = set()
    views = 0
    for seats, seed in TABLES[game]:
        bots = [make_bot(engine, "heuristic:normal", seat, seed) for seat in range(seats)]

        def check(state: State, _events: list[Event], seats: int = seats) -> None:
            nonlocal views
            for seat in [None, *range(seats)]:
                view = engine.view(state, seat)
                model = VIEW.validate_python(view)
                assert isinstance(model, VIEWS[game])
                # Nothing dropped or added: the model's JSON is the engine's view.
                assert model.model_dump(mode="json", exclude_unset=True) == view
                seen.update(fields_seen(model, type(model).__name__))
                views += 1

        played = play(engine, bots, seed, on_change=check)
        assert played.outcome is not None
    assert views > 100
    never = sorted(set(documented(VIEWS[game], VIEWS[game].__name__)) - seen)
    assert not never, f"documented but never sent in {views} views: {never}"
