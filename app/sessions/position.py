"""What a match's collaborators read of where it stands (the session is its one writer)."""

from __future__ import annotations

from typing import Any, Protocol

from engines.base import Engine, State


class Position(Protocol):
    """The match's engine, state and version, whether it is over, and what follows from them
    (``GameSession`` is one). Read-only for everyone but the session."""

    engine: Engine
    state: State
    version: int
    finished: bool

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal actions now ([] for a spectator, a seat not to act, or the end)."""
        ...

    def awaiting(self) -> frozenset[int]:
        """The seats the game waits for now (none once the match is over)."""
        ...
