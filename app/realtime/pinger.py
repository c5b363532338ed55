"""One timer pings every match connection, each on its own cadence and phase.

Why not a task per connection: at a few thousand sockets the per-connection ping tasks (a
wake-up, a timer and an event each, every 250 ms for Ambush!) cost more than the moves.
Here a single loop timer ticks every ``TICK_MS`` and pings only the connections whose turn it
is; connections are spread over the ticks by a phase chosen when they join, so pings never
leave in one burst that would delay moves.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Protocol

TICK_MS = 10
# Every cadence is a multiple of this many ticks (250 ms): connections are filed by their
# phase within it, so a tick looks only at 1/PHASES of them.
PHASES = 25


class Pingable(Protocol):
    def ping_period_ms(self) -> float | None: ...

    def ping(self) -> None: ...


class Pinger:
    """Pings each added connection every ``ping_period_ms()`` (re-read at every ping, rounded
    to 250 ms steps; None: not now)."""

    def __init__(self) -> None:
        self._phases: list[dict[Pingable, int]] = [{} for _ in range(PHASES)]
        self._next_phase = itertools.cycle(range(PHASES * 20))
        self._tick = 0
        self._timer: asyncio.TimerHandle | None = None

    def add(self, connection: Pingable) -> None:
        """Start pinging ``connection``; its first ping comes within one period."""
        offset = next(self._next_phase)
        self._phases[offset % PHASES][connection] = offset
        if self._timer is None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(loop.time() + TICK_MS / 1000, self._on_tick)

    def discard(self, connection: Pingable) -> None:
        for phase in self._phases:
            if phase.pop(connection, None) is not None:
                return

    def __len__(self) -> int:
        return sum(len(phase) for phase in self._phases)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _on_tick(self) -> None:
        loop = asyncio.get_running_loop()
        tick = self._tick
        self._tick += 1
        # Re-arm first, on the loop's clock: a slow tick delays the next one, never piles up.
        self._timer = loop.call_at(loop.time() + TICK_MS / 1000, self._on_tick)
        due_step = tick // PHASES  # which 250 ms step this tick belongs to
        for connection, offset in list(self._phases[tick % PHASES].items()):
            period = connection.ping_period_ms()
            if period is None:
                continue
            steps = max(1, round(period / (TICK_MS * PHASES)))
            if (due_step - offset // PHASES) % steps == 0:
                connection.ping()
