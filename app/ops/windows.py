"""The rate limits' store without Redis: each key's moving window in this process's memory,
counted where it is awaited, with no task, thread or lock.

The ``limits`` library's own asynchronous memory store starts a sweep of every key after
each counted attempt (whenever the last sweep has ended), and that sweep hands each key to a
worker thread (``asyncio.to_thread``) under a per-key lock: while attempts keep coming, one
core is kept busy with thread hand-overs, and a request counting an attempt may wait for the
sweep's lock. Here a key's window is trimmed when it is read, and keys whose every attempt has
left the window are dropped by one pass over the keys at most every ``SWEEP_EVERY_S``, run
inline by whichever call comes due. The event loop is the only caller, so nothing is shared.

It serves ``limits.aio.strategies.MovingWindowRateLimiter`` (``acquire_entry`` and
``get_moving_window``, the same answers as the library's store) and the fixed-window calls
(``incr``, ``get``, ``get_expiry``) that make a ``limits`` store.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from limits.aio.storage import MovingWindowSupport, Storage

# How often, at most, keys whose attempts have all left their window are dropped.
SWEEP_EVERY_S = 60.0


class LocalWindows(Storage, MovingWindowSupport):
    """Moving windows (and fixed-window counters) of one process, kept in plain dicts."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(wrap_exceptions=True)
        self.clock = clock
        # Per key, its attempts' times, oldest first, at most the limit's count of them (an
        # older one can no longer decide anything), and the window's length in seconds.
        self.windows: dict[str, tuple[deque[float], float]] = {}
        # Fixed-window counters: per key, its count and when it resets.
        self.counters: dict[str, tuple[int, float]] = {}
        self.swept_at = clock()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def _sweep(self, now: float) -> None:
        """Drop the keys with nothing left in their window, at most every SWEEP_EVERY_S."""
        if now - self.swept_at < SWEEP_EVERY_S:
            return
        self.swept_at = now
        gone = [
            key
            for key, (times, expiry) in self.windows.items()
            if not times or times[-1] <= now - expiry
        ]
        for key in gone:
            del self.windows[key]
        for key in [k for k, (_, resets_at) in self.counters.items() if resets_at <= now]:
            del self.counters[key]

    def _window(self, key: str, limit: int, expiry: float, now: float) -> deque[float]:
        """The key's attempts still in the window (older ones removed)."""
        self._sweep(now)
        entry = self.windows.get(key)
        if entry is None:
            times: deque[float] = deque(maxlen=max(1, limit))
            self.windows[key] = (times, expiry)
            return times
        times = entry[0]
        while times and times[0] <= now - expiry:
            times.popleft()
        return times

    async def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Count ``amount`` attempts if the window has room for them all, else none."""
        if amount > limit:
            return False
        now = self.clock()
        times = self._window(key, limit, expiry, now)
        if len(times) + amount > limit:
            return False
        times.extend([now] * amount)
        return True

    async def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """When the window's oldest attempt was made, and how many it holds (now and 0 when
        it is empty)."""
        now = self.clock()
        entry = self.windows.get(key)
        if entry is None:
            return now, 0
        times = self._window(key, limit, expiry, now)
        return (times[0], len(times)) if times else (now, 0)

    async def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = self.clock()
        self._sweep(now)
        count, resets_at = self.counters.get(key, (0, now + expiry))
        if resets_at <= now:
            count, resets_at = 0, now + expiry
        self.counters[key] = (count + amount, resets_at)
        return count + amount

    async def get(self, key: str) -> int:
        count, resets_at = self.counters.get(key, (0, 0.0))
        return count if resets_at > self.clock() else 0

    async def get_expiry(self, key: str) -> float:
        now = self.clock()
        _, resets_at = self.counters.get(key, (0, now))
        return max(resets_at, now)

    async def check(self) -> bool:
        return True

    async def reset(self) -> int | None:
        count = len(self.windows) + len(self.counters)
        self.windows.clear()
        self.counters.clear()
        return count

    async def clear(self, key: str) -> None:
        self.windows.pop(key, None)
        self.counters.pop(key, None)
