"""One timer pings every match connection, each on its own cadence and phase.

Why not a task per connection: at a few thousand sockets the per-connection ping tasks (a
wake-up, a timer and an event each, every 250 ms for Ambush!) cost more than the moves.
Here a single loop timer ticks every ``TICK_MS``. Connections wait in a timing wheel, filed
under the tick of their next ping, so a tick touches only the connections it pings: a
keep-alive every 30 s costs one visit per 30 s, not one per 250 ms. Connections are spread
over the ticks by a phase chosen when they join, so pings never leave in one burst that
would delay moves.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Protocol

TICK_MS = 10
# Every cadence is a multiple of this many ticks (250 ms); a connection's pings always fall
# on its own phase within it.
PHASES = 25
# First pings are also spread over this many 250 ms steps, so connections that join together
# do not keep their slow keep-alives in step with each other forever.
SPREAD_STEPS = 20


class Pingable(Protocol):
    def ping_period_ms(self) -> float | None: ...

    def ping(self) -> None: ...


class Pinger:
    """Pings each added connection every ``ping_period_ms()`` (re-read at every ping, rounded
    to 250 ms steps; None: not now, asked again 250 ms later). A cadence that gets faster
    takes effect at the next ping, or within 250 ms after ``refresh``."""

    def __init__(self) -> None:
        # connection -> (phase, tick of its next ping); the wheel maps a tick to the
        # connections filed under it. An entry whose tick no longer matches is stale.
        self._members: dict[Pingable, tuple[int, int]] = {}
        self._wheel: dict[int, list[Pingable]] = {}
        self._offsets = itertools.cycle(range(PHASES * SPREAD_STEPS))
        self._tick = 0
        self._timer: asyncio.TimerHandle | None = None

    def add(self, connection: Pingable) -> None:
        """Start pinging ``connection``; its first ping comes within ``SPREAD_STEPS`` steps."""
        offset = next(self._offsets)
        phase = offset % PHASES
        self._file(connection, phase, self._next_tick_of(phase) + (offset // PHASES) * PHASES)
        if self._timer is None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(loop.time() + TICK_MS / 1000, self._on_tick)

    def refresh(self, connection: Pingable) -> None:
        """The connection's cadence changed: ping it next at its phase within 250 ms."""
        member = self._members.get(connection)
        if member is not None:
            phase = member[0]
            due = self._next_tick_of(phase)
            if due < member[1]:
                self._file(connection, phase, due)

    def discard(self, connection: Pingable) -> None:
        self._members.pop(connection, None)  # its wheel entry goes stale

    def __len__(self) -> int:
        return len(self._members)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _next_tick_of(self, phase: int) -> int:
        """The first tick from now on (``_tick`` is the next to run) that falls on ``phase``."""
        return self._tick + (phase - self._tick) % PHASES

    def _file(self, connection: Pingable, phase: int, tick: int) -> None:
        self._members[connection] = (phase, tick)
        slot = self._wheel.get(tick)
        if slot is None:
            self._wheel[tick] = [connection]
        else:
            slot.append(connection)

    def _on_tick(self) -> None:
        loop = asyncio.get_running_loop()
        tick = self._tick
        self._tick += 1
        # Re-arm first, on the loop's clock: a slow tick delays the next one, never piles up.
        self._timer = loop.call_at(loop.time() + TICK_MS / 1000, self._on_tick)
        members = self._members
        for connection in self._wheel.pop(tick, ()):
            member = members.get(connection)
            if member is None or member[1] != tick:
                continue  # discarded, or filed again under another tick
            period = connection.ping_period_ms()
            if period is None:
                self._file(connection, member[0], tick + PHASES)
                continue
            steps = max(1, round(period / (TICK_MS * PHASES)))
            self._file(connection, member[0], tick + steps * PHASES)
            connection.ping()
