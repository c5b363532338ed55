"""One websocket connection: a non-blocking outbox, a writer task, link pings."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import deque
from collections.abc import Callable

from starlette.websockets import WebSocket

from app.realtime.links import IDLE_PING_MS, RACE_PING_MS, LinkMeter, SendLog
from app.sessions import wire

# Matches without grab races read no link statistics: their sockets only need keep-alives,
# and a ping per socket per second costs more than the moves at a few thousand sockets.
KEEPALIVE_S = 5.0


def _monotonic_ms() -> float:
    return time.monotonic() * 1000


class Peer:
    """A connection as the session sees it: ``send_text`` never waits on the network.

    A client that stops reading fills its outbox; past ``outbox_limit`` messages it is
    closed (1008) rather than letting its backlog grow without bound.

    The writer stamps, on ``clock`` (the match's clock once attached), when each numbered
    broadcast and each ping actually leaves: ``sends`` and ``meter`` are the arbiter's
    ``S_ref`` and link measurement (DESIGN.md sec. 5 steps 1-2).
    """

    def __init__(self, websocket: WebSocket, outbox_limit: int) -> None:
        self.websocket = websocket
        self.seat: int | None = None
        self.account_id: int | None = None
        self.outbox_limit = outbox_limit
        # A deque and an event rather than an asyncio.Queue: the writer drains everything
        # queued in one wake-up (an ack and its patch, a burst of patches) instead of one
        # Queue.get round trip through the loop per message.
        self._outbox: deque[tuple[str, int | None, int | None] | None] = deque()
        self._ready = asyncio.Event()
        self._closing: int | None = None
        self._nonces = itertools.count(1)
        self.clock: Callable[[], float] = _monotonic_ms
        self.meter = LinkMeter()
        self.sends = SendLog()
        # Ping every 250 ms instead of every second while a race is possible (set by the
        # session for games with grab races).
        self.race_possible = False
        self._ping_now = asyncio.Event()
        self._woken = False
        # Matches with grab races measure every link (rtt_min, jitter); the others only need
        # keep-alives. The gateway sets this once the match is known.
        self.measure_links = True

    def use_clock(self, clock: Callable[[], float]) -> None:
        """Measure on this clock from now on (earlier samples were on another one)."""
        self.clock = clock
        self.meter = LinkMeter()
        self.sends = SendLog()

    def send_text(self, text: str) -> None:
        self._put(text, None, None)

    def send_numbered(self, text: str, version: int) -> None:
        """Queue broadcast ``version``; the writer records when it leaves (``S_ref``)."""
        self._put(text, version, None)

    def send(self, message: dict[str, object]) -> None:
        self.send_text(wire.dumps(message))

    def _put(self, text: str, version: int | None, nonce: int | None) -> None:
        if self._closing is not None:
            return
        if len(self._outbox) >= self.outbox_limit:
            self.close(1008)
            return
        self._outbox.append((text, version, nonce))
        self._ready.set()

    def close(self, code: int = 1000) -> None:
        if self._closing is None:
            self._closing = code
            self._outbox.append(None)
            self._ready.set()

    async def write_loop(self) -> None:
        """Drain the outbox to the socket until closed, stamping what the arbiter needs."""
        outbox = self._outbox
        while True:
            if not outbox:
                self._ready.clear()
                await self._ready.wait()
                continue
            item = outbox.popleft()
            if item is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close(self._closing or 1000)
                return
            text, version, nonce = item
            left_at = self.clock()
            await self.websocket.send_text(text)
            if version is not None:
                self.sends.sent(version, left_at)
            if nonce is not None:
                self.meter.sent(nonce, left_at)

    async def ping_loop(self, interval_s: float) -> None:
        """Ping every second, every 250 ms while a race is possible (wall time: the match
        clock may run faster in tests); ``interval_s`` caps the idle interval. A match
        without grab races needs no link measurement: a keep-alive every ``KEEPALIVE_S``."""
        loop = asyncio.get_running_loop()
        while self._closing is None:
            fast = self.race_possible
            if fast:
                wait = RACE_PING_MS / 1000
            elif self.measure_links:
                wait = min(IDLE_PING_MS, interval_s * 1000) / 1000
            else:
                wait = max(interval_s, KEEPALIVE_S)
            self._ping_now.clear()
            self._woken = False
            # A timer, not wait_for: wait_for wraps the wait in a new task every time.
            timer = loop.call_later(wait, self._ping_now.set)
            try:
                await self._ping_now.wait()
            finally:
                timer.cancel()
            if self._woken and not fast:
                continue  # a race just became possible: restart at the fast cadence
            nonce = next(self._nonces)
            self._put(wire.dumps({"type": "ping", "nonce": nonce}), None, nonce)

    def wake_pings(self) -> None:
        """Re-read the cadence now (a race became possible)."""
        self._woken = True
        self._ping_now.set()

    def pong(self, nonce: int | str, at_ms: float | None = None) -> None:
        self.meter.pong(nonce, self.clock() if at_ms is None else at_ms)

    @property
    def rtt_min_ms(self) -> float | None:
        return self.meter.rtt_min
