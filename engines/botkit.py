"""What every engine's bots share: a seat, a seeded ``Rng``, and the actions worth weighing."""

from __future__ import annotations

from typing import Any

from engines.base import Rng

Action = dict[str, Any]


class SeededBot:
    """A bot for one seat with its own ``Rng(seed)``; by default it learns nothing from events
    (its view holds all it uses). Subclasses add ``decide`` (see ``engines.base.Bot``)."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        return None


def without_resign(legal: list[Action]) -> list[Action]:
    """The legal actions a bot weighs: everything but resigning."""
    return [action for action in legal if action["type"] != "resign"]
