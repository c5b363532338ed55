"""The match clock: milliseconds since the match started, never going backwards."""

from __future__ import annotations

import time


class MatchClock:
    """Match time in ms, from wall time at start plus the monotonic clock since loading.

    After a restart the clock resumes from ``max(persisted last at_ms, wall time since the
    start)``, so a wall clock stepped backwards cannot make match time run backwards.
    ``rate`` > 1 runs match time faster than wall time (tests and demos only).
    """

    def __init__(self, started_wall_ms: int, last_at_ms: int, rate: float = 1.0) -> None:
        self.rate = rate
        wall_elapsed = int((time.time() * 1000 - started_wall_ms) * rate)
        self._base_ms = max(last_at_ms, wall_elapsed)
        self._mono0 = time.monotonic()
        self._floor = last_at_ms

    def now(self) -> int:
        value = self._base_ms + int((time.monotonic() - self._mono0) * 1000 * self.rate)
        self._floor = max(self._floor, value)
        return self._floor

    def precise(self) -> float:
        """Match time with sub-millisecond resolution and no floor: link measurement and
        grab arbitration subtract such times, so they must all come from this one clock."""
        return self._base_ms + (time.monotonic() - self._mono0) * 1000 * self.rate

    def observe(self, at_ms: int) -> None:
        """Never report a time earlier than an applied action's ``at_ms``."""
        self._floor = max(self._floor, at_ms)

    def monotonic_at(self, match_ms: int) -> float:
        """The ``time.monotonic()`` value at which match time reaches ``match_ms``."""
        return self._mono0 + (match_ms - self._base_ms) / (1000 * self.rate)
