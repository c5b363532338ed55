"""What a match's collaborators read of where it stands (the session is its one writer)."""

from __future__ import annotations

from typing import Protocol

from engines.base import Engine, State


class Position(Protocol):
    """The match's engine, state and version, whether it is over, and whether it is rated
    (``GameSession`` is one). Read-only for everyone but the session."""

    engine: Engine
    state: State
    version: int
    finished: bool
    rated: bool
