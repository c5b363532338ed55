"""Tally bots: move when on turn after a human-like pause."""

from __future__ import annotations

from typing import Any

from engines.base import Decision, Rng


class RandomBot:
    """Plays the listed move 1-3 s after its turn starts."""

    low_ms = 1000
    high_ms = 3000

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self._plan: tuple[int, Decision] | None = None

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        return None

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        moves = [action for action in legal if action["type"] != "resign"]
        if not moves:
            return None
        # Keep the same plan while the same position is shown (the host re-asks often).
        if self._plan is None or self._plan[0] != view["n"]:
            delay = self.low_ms + self.rng.randbelow(self.high_ms - self.low_ms + 1)
            self._plan = (view["n"], Decision(moves[0], now_ms + delay))
        return self._plan[1]


class HeuristicBot(RandomBot):
    """The same, a little quicker."""

    low_ms = 800
    high_ms = 2000
