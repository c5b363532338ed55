"""Engine lookup by game id: ``registry.get("ambush")``, ``registry.ids()``."""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from engines.base import Engine

if TYPE_CHECKING:
    # mypy holds each built-in engine to the whole protocol here (the imports at run time
    # are lazy, below).
    from engines.ambush.engine import AmbushEngine
    from engines.castles.engine import CastlesEngine
    from engines.ember.engine import EmberEngine
    from engines.rampage.engine import RampageEngine

    _CONFORMING: tuple[Engine, ...] = (
        AmbushEngine(),
        RampageEngine(),
        CastlesEngine(),
        EmberEngine(),
    )

# id -> "module:Class"; imported on first use so one engine's import cost is paid only by
# the processes that play it.
_BUILTIN: dict[str, str] = {
    "ambush": "engines.ambush.engine:AmbushEngine",
    "rampage": "engines.rampage.engine:RampageEngine",
    "castles": "engines.castles.engine:CastlesEngine",
    "ember": "engines.ember.engine:EmberEngine",
}

# Every member an engine must have (the protocol's, as ``isinstance`` checks them).
_MEMBERS = sorted(
    {name for name in vars(Engine) if not name.startswith("_")} | set(Engine.__annotations__)
)
_loaded: dict[str, Engine] = {}
_extra: dict[str, Engine] = {}


def register(engine: Engine) -> None:
    """Add an engine that is not built in (the bench ``tally`` game); ids must be unique, and
    the engine must have every member of the ``Engine`` protocol (``TypeError`` names those
    it lacks)."""
    if not isinstance(engine, Engine):
        missing = sorted(name for name in _MEMBERS if not hasattr(engine, name))
        raise TypeError(
            f"{type(engine).__name__} lacks {missing} of the engine contract (engines/base.py;"
            " a plain-Python engine may subclass Engine for the defaults)"
        )
    if engine.id in _BUILTIN or engine.id in _extra:
        raise ValueError(f"engine id {engine.id!r} is already registered")
    _extra[engine.id] = engine


def unregister(game_id: str) -> None:
    """Remove an engine added with ``register`` (tests)."""
    _extra.pop(game_id, None)


def _available(target: str) -> bool:
    return importlib.util.find_spec(target.split(":")[0]) is not None


def ids() -> list[str]:
    """Every registered game id whose engine is installed, built-in ones first."""
    return [game_id for game_id, target in _BUILTIN.items() if _available(target)] + [*_extra]


def get(game_id: str) -> Engine:
    """The engine for ``game_id``; raises ``KeyError`` for an unknown id."""
    if game_id in _extra:
        return _extra[game_id]
    engine = _loaded.get(game_id)
    if engine is None:
        target = _BUILTIN[game_id]
        if not _available(target):
            raise KeyError(game_id)
        module_name, class_name = target.split(":")
        engine = getattr(importlib.import_module(module_name), class_name)()
        assert isinstance(engine, Engine)
        _loaded[game_id] = engine
    return engine
