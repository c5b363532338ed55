"""One websocket connection: a non-blocking outbox, a writer task, link pings."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import deque
from collections.abc import Callable, Mapping

from starlette.websockets import WebSocket

from app.races.links import IDLE_PING_MS, RACE_PING_MS, LinkMeter, SendLog
from app.realtime.frames import SCOPE_KEY, FrameFlusher, FrameProtocol
from app.sessions import wire

# Matches without grab races read no link statistics: their sockets only need keep-alives.
# One a second all the same: a player's client takes a few seconds without any message as a
# dead link (and reconnects), and the server drops a connection whose pongs stop
# (``DEAD_LINK_MS``), so the other seats hear "X is disconnected" within seconds rather than
# after uvicorn's protocol pings (every 20 s) give up on a black-holed socket. A keep-alive is
# skipped when the period just ended saw messages both ways (``ping``): a move from the
# client proves it alive as a pong does, and a patch keeps the client's silence timer at bay
# as a ping does, so a busy connection is never pinged and the client still hears something
# at least every two periods.
KEEPALIVE_S = 1.0
# No pong for this long: the link is dead (a live client answers every ping at once).
DEAD_LINK_MS = 5000.0


def _monotonic_ms() -> float:
    return time.monotonic() * 1000


class Peer:
    """A connection as the session sees it (``MatchPeer``): ``send_text`` never waits on the
    network.

    A client that stops reading fills its outbox; past ``outbox_limit`` messages it is
    closed (1008) rather than letting its backlog grow without bound.

    The writer stamps, on ``clock`` (the match's clock once attached), when each numbered
    broadcast and each ping actually leaves: ``sends`` and ``meter`` are the arbiter's
    ``S_ref`` (when a broadcast left) and its link measurement (``app/races/links.py``).

    Served by uvicorn with ``FrameProtocol`` (``python -m app``), messages queued during one
    turn of the event loop leave together in one write, right after that turn
    (``_flush``); otherwise the writer task sends them one by one through Starlette.
    """

    def __init__(
        self,
        websocket: WebSocket,
        outbox_limit: int,
        ping_interval_s: float = 1.0,
        flusher: FrameFlusher | None = None,
    ) -> None:
        self.websocket = websocket
        self.ping_interval_s = ping_interval_s
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
        self.last_nonce = 0  # of the latest ping queued
        # When the oldest ping not followed by any pong was queued (None: all answered).
        self._unanswered_since: float | None = None
        # Since the last ping check: a message came from the client (set by the gateway for
        # every message it reads) / something was written to it. Either way only a flag per
        # message: the check at the next ping (``ping``) reads and clears them.
        self.heard = False
        self._told = False
        # Set once the match is found (``use_clock``), right before the gateway starts reading
        # this connection: until then its pongs wait unread, which says nothing of the link.
        self.reading = False
        self.clock: Callable[[], float] = _monotonic_ms
        self.meter = LinkMeter()
        self.sends = SendLog()
        # Ping every 250 ms instead of every second while a race is possible (set by the
        # session for games with grab races).
        self.race_possible = False
        # Matches with grab races measure every link (rtt_min, jitter); the others only need
        # keep-alives. The gateway sets this once the match is known.
        self.measure_links = True
        # Called when the ping cadence may have become faster (set by whoever pings).
        self.on_cadence_change: Callable[[], None] | None = None
        extensions = websocket.scope.get("extensions") or {}
        # The connection's direct frame path, when the server provides one.
        self.frames: FrameProtocol | None = extensions.get(SCOPE_KEY)
        self._flush_pending = False
        self._flusher = flusher or FrameFlusher()
        if self.frames is not None:
            self.frames.on_writable = self._schedule_flush

    def use_clock(self, clock: Callable[[], float]) -> None:
        """Measure on this clock from now on (earlier samples were on another one). Called
        once the match is found: the gateway reads the connection from here on, so unanswered
        pings count towards a dead link only from now (``DEAD_LINK_MS``)."""
        self.clock = clock
        self.meter = LinkMeter()
        self.sends = SendLog()
        self.reading = True
        self._unanswered_since = None

    def send_text(self, text: str) -> None:
        self._put(text, None, None)

    def send_numbered(self, text: str, version: int) -> None:
        """Queue broadcast ``version``; the writer records when it leaves (``S_ref``)."""
        self._put(text, version, None)

    def send(self, message: Mapping[str, object]) -> None:
        self.send_text(wire.dumps(message))

    def _put(self, text: str, version: int | None, nonce: int | None) -> None:
        if self._closing is not None:
            return
        if len(self._outbox) >= self.outbox_limit:
            self.close(1008)
            return
        self._outbox.append((text, version, nonce))
        if self.frames is not None:
            self._schedule_flush()
        else:
            self._ready.set()

    def close(self, code: int = 1000) -> None:
        # A closing connection's cadence matters no more; the handler (the pinger's refresh
        # of this peer) would otherwise keep it in a reference cycle after it is gone.
        self.on_cadence_change = None
        if self._closing is None:
            self._closing = code
            self._outbox.append(None)
            self._ready.set()

    def _schedule_flush(self) -> None:
        if not self._flush_pending:
            self._flush_pending = True
            self._flusher.schedule(self._flush)

    def _flush(self) -> None:
        """Write every queued message up to a close in one write (direct frames only)."""
        self._flush_pending = False
        frames, outbox = self.frames, self._outbox
        assert frames is not None
        if not outbox or frames.paused or not frames.open_for_frames:
            return  # resume_writing flushes again; a lost socket ends in the reader
        texts: list[str] = []
        # Without grab races in the match nothing reads send times (S_ref) or link samples.
        stamp = self.measure_links
        left_at = self.clock() if stamp else 0.0
        while outbox and outbox[0] is not None:
            text, version, nonce = outbox.popleft()  # type: ignore[misc]
            texts.append(text)
            if stamp:
                if version is not None:
                    self.sends.sent(version, left_at)
                if nonce is not None:
                    self.meter.sent(nonce, left_at)
        frames.write_texts(texts)
        self._told = True

    async def write_loop(self) -> None:
        """Drain the outbox to the socket until closed, stamping what the arbiter needs.
        With direct frames ``_flush`` sends the data and this task only closes."""
        outbox = self._outbox
        if self.frames is not None:
            while self._closing is None:
                self._ready.clear()
                await self._ready.wait()
            # What was queued before the close leaves first, unless the client stopped
            # reading (its buffer is full): then it is dropped and the close goes at once.
            self._flush()
            outbox.clear()
            with contextlib.suppress(Exception):
                await self.websocket.close(self._closing)
            return
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
            self._told = True
            if version is not None:
                self.sends.sent(version, left_at)
            if nonce is not None:
                self.meter.sent(nonce, left_at)

    def ping_period_ms(self) -> float | None:
        """The ping cadence of link measurement: every 250 ms while a race is possible,
        every second otherwise (capped by ``ping_interval_s``); a match without grab races
        needs no link measurement, only a keep-alive every ``KEEPALIVE_S``. None once closing."""
        if self._closing is not None:
            return None
        if self.race_possible:
            return RACE_PING_MS
        if self.measure_links:
            return min(IDLE_PING_MS, self.ping_interval_s * 1000)
        return max(self.ping_interval_s, KEEPALIVE_S) * 1000

    def ping(self) -> None:
        """Ping the client, or drop the link if its pings went unanswered for
        ``DEAD_LINK_MS``. Any message read since the last ping check proves the client alive
        (as a pong does). A keep-alive (no link measurement, no race possible) is skipped
        when messages went both ways since the last check: the traffic proved the link."""
        heard, told = self.heard, self._told
        self.heard = self._told = False
        if heard:
            self._unanswered_since = None
            if told and not (self.measure_links or self.race_possible):
                return
        now = _monotonic_ms()
        if self._unanswered_since is None or not self.reading:
            self._unanswered_since = now
        elif now - self._unanswered_since > DEAD_LINK_MS:
            self.drop_dead_link()
            return
        nonce = self.last_nonce = next(self._nonces)
        self._put(f'{{"type":"ping","nonce":{nonce}}}', None, nonce)

    def race_pings(self, on: bool) -> None:
        """Ping every 250 ms while ``on`` (a grab race is possible: set by the session for a
        player of a game with grab races), at the idle cadence otherwise (``MatchPeer``)."""
        self.race_possible = on
        self.wake_pings()

    def wake_pings(self) -> None:
        """A race became possible: ping now rather than at the end of the slower period."""
        if self.race_possible:
            self.ping()
            if self.on_cadence_change is not None:
                self.on_cadence_change()

    def pong(self, nonce: int | str, at_ms: float | None = None) -> bool:
        """A pong arrived; True if it answered one of this connection's pings."""
        answered = self.meter.pong(nonce, self.clock() if at_ms is None else at_ms) is not None
        # Without link measurement (a match without grab races) pings are not stamped and
        # the meter knows no nonce: a pong for any ping sent still proves the link alive.
        issued = isinstance(nonce, int) and not isinstance(nonce, bool)
        if answered or (issued and 0 < int(nonce) <= self.last_nonce):
            self._unanswered_since = None
        return answered

    def drop_dead_link(self) -> None:
        """The client stopped answering pings: close, and end the connection at once (its
        transport aborted, so the reader sees the disconnect and the session the Detach)
        instead of waiting for a close handshake that cannot arrive."""
        self.close(1001)
        if self.frames is not None:
            self.frames.transport.abort()

    @property
    def rtt_min_ms(self) -> float | None:
        return self.meter.rtt_min
