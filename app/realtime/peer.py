"""One websocket connection: a non-blocking outbox, a writer task, link pings."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable

from starlette.websockets import WebSocket

from app.realtime.links import IDLE_PING_MS, RACE_PING_MS, LinkMeter, SendLog
from app.sessions import wire


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
        self._outbox: asyncio.Queue[tuple[str, int | None, int | None] | None] = asyncio.Queue()
        self._closing: int | None = None
        self._nonces = itertools.count(1)
        self.clock: Callable[[], float] = _monotonic_ms
        self.meter = LinkMeter()
        self.sends = SendLog()
        # Ping every 250 ms instead of every second while a race is possible (set by the
        # session for games with grab races).
        self.race_possible = False
        self._ping_now = asyncio.Event()

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
        if self._outbox.qsize() >= self.outbox_limit:
            self.close(1008)
            return
        self._outbox.put_nowait((text, version, nonce))

    def close(self, code: int = 1000) -> None:
        if self._closing is None:
            self._closing = code
            self._outbox.put_nowait(None)

    async def write_loop(self) -> None:
        """Drain the outbox to the socket until closed, stamping what the arbiter needs."""
        while True:
            item = await self._outbox.get()
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
        clock may run faster in tests); ``interval_s`` caps the idle interval."""
        while self._closing is None:
            fast = self.race_possible
            wait = (RACE_PING_MS if fast else min(IDLE_PING_MS, interval_s * 1000)) / 1000
            self._ping_now.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ping_now.wait(), wait)
            if self._ping_now.is_set() and not fast:
                continue  # a race just became possible: restart at the fast cadence
            nonce = next(self._nonces)
            self._put(wire.dumps({"type": "ping", "nonce": nonce}), None, nonce)

    def wake_pings(self) -> None:
        """Re-read the cadence now (a race became possible)."""
        self._ping_now.set()

    def pong(self, nonce: int | str, at_ms: float | None = None) -> None:
        self.meter.pong(nonce, self.clock() if at_ms is None else at_ms)

    @property
    def rtt_min_ms(self) -> float | None:
        return self.meter.rtt_min
