"""A match socket over asyncio: connects, says hello, reconnects with backoff and resumes.

``MatchClient`` wraps ``MatchProtocol`` (the protocol's logic) around a ``websockets``
connection. It answers pings, asks for a resync when a diff does not fit, resends actions
that were not answered when the link dropped (with the same ``client_seq``: the server
answers a repeat without playing it twice), and retries refusals that say ``retry``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from rampart_client.protocol import Event, MatchProtocol
from rampart_client.views import LegalAction, View

GONE = 4404  # the match does not exist: do not reconnect
MAX_BACKOFF_S = 8.0


class MatchGone(Exception):
    """The server says the match does not exist (close code 4404)."""


class MatchClient:
    """One connection to ``/ws/matches/{match_id}`` that stays connected until ``close``.

    Use it as an async context manager; read ``events()`` (or ``wait_for``) to follow the
    match, and ``act``/``grab``/``chat`` to play. ``token`` None watches as a spectator.
    ``on_message`` sees every message as received, before the client reads it (to log or
    check them)."""

    def __init__(
        self,
        base_url: str,
        match_id: int,
        token: str | None = None,
        *,
        seat: int | None = None,
        on_message: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        scheme = "wss" if base_url.startswith("https") else "ws"
        self.url = f"{scheme}://{base_url.split('://', 1)[1].rstrip('/')}/ws/matches/{match_id}"
        self.match_id = match_id
        self.protocol = MatchProtocol(token=token, seat_wanted=seat)
        self._events: asyncio.Queue[Event | BaseException] = asyncio.Queue()
        self._ws: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._closing = False
        self._sending: set[asyncio.Task[None]] = set()
        self.reconnects = 0
        self.on_message = on_message

    async def __aenter__(self) -> MatchClient:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Connect (and keep reconnecting in the background) until the first welcome."""
        self._task = asyncio.create_task(self._run())
        waiter = asyncio.ensure_future(self._connected.wait())
        done, _ = await asyncio.wait({waiter, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            waiter.cancel()
            self._task.result()  # raises MatchGone or the connection error

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, MatchGone):
                await self._task

    # ----- playing -----------------------------------------------------------------------

    def act(self, action: LegalAction) -> int:
        """Send an engine action (one of ``legal``, or built from it); returns its
        ``client_seq``. Sent again by itself if the link drops before it is answered."""
        return self._send(self.protocol.act(action))

    def grab(self, cell: Any) -> int:
        """Grab a cell in an Ambush! race; returns its ``client_seq``."""
        return self._send(self.protocol.grab(cell))

    def drop_link(self) -> None:
        """Cut the connection at once, as a network fault would (for testing a bot's
        behaviour across reconnects): the client reconnects, resumes and resends."""
        if self._ws is not None:
            self._ws.transport.abort()

    def chat(self, text: str) -> None:
        self._send({"type": "chat", "text": text})

    def _send(self, message: dict[str, Any]) -> int:
        ws = self._ws
        if ws is not None and self._connected.is_set():
            task = asyncio.get_running_loop().create_task(self._send_text(ws, json.dumps(message)))
            self._sending.add(task)  # held until sent: the loop keeps only weak references
            task.add_done_callback(self._sending.discard)
        return int(message.get("client_seq", 0))

    @staticmethod
    async def _send_text(ws: ClientConnection, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):  # resent after the reconnect
            await ws.send(text)

    # ----- following ---------------------------------------------------------------------

    @property
    def view(self) -> View | None:
        return self.protocol.view

    @property
    def legal(self) -> list[LegalAction]:
        return self.protocol.legal

    @property
    def seat(self) -> int | None:
        return self.protocol.seat

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.protocol.outcome

    @property
    def ended(self) -> dict[str, Any] | None:
        """The ``ended`` message once the match is over: ``outcome``, ``rated``, ``ledger``."""
        return self.protocol.ended

    async def events(self) -> AsyncIterator[Event]:
        """Every event in order, until the client is closed; raises ``MatchGone``."""
        while True:
            item = await self._events.get()
            if isinstance(item, BaseException):
                raise item
            yield item

    async def wait_for(self, accept: Callable[[Event], bool], timeout: float = 30.0) -> Event:
        """The next event ``accept`` takes (the events before it are consumed)."""
        async with asyncio.timeout(timeout):
            async for event in self.events():
                if accept(event):
                    return event
        raise AssertionError("unreachable")

    # ----- the connection ------------------------------------------------------------------

    async def _run(self) -> None:
        attempt = 0
        while not self._closing:
            try:
                async with connect(self.url, max_size=2**22, open_timeout=10) as ws:
                    self._ws = ws
                    await ws.send(json.dumps(self.protocol.hello()))
                    attempt = 0
                    await self._read(ws)
            except InvalidStatus as error:
                if error.response.status_code == 404:
                    self._fail(MatchGone(f"no match {self.match_id}"))
                    return
            except ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == GONE:
                    self._fail(MatchGone(f"no match {self.match_id}"))
                    return
            except OSError:
                pass  # refused or reset: try again
            finally:
                self._ws = None
                self._connected.clear()
            if self._closing:
                return
            attempt += 1
            self.reconnects += 1
            delay = min(MAX_BACKOFF_S, 0.2 * 2**attempt) * (0.5 + random.random() / 2)
            await asyncio.sleep(delay)

    def _fail(self, error: BaseException) -> None:
        self._events.put_nowait(error)
        if not self._connected.is_set():
            raise error

    async def _read(self, ws: ClientConnection) -> None:
        retry_timer: asyncio.TimerHandle | None = None
        loop = asyncio.get_running_loop()
        sends: set[asyncio.Task[None]] = set()  # resends under way (kept from collection)

        def resend_due() -> None:
            nonlocal retry_timer
            retry_timer = None
            for message in self.protocol.due_resends():
                sends.add(task := loop.create_task(self._send_text(ws, json.dumps(message))))
                task.add_done_callback(sends.discard)
            arm()

        def arm() -> None:
            nonlocal retry_timer
            at = self.protocol.next_resend_at()
            if at is not None and retry_timer is None:
                retry_timer = loop.call_at(at, resend_due)

        try:
            async for raw in ws:
                message = json.loads(raw)
                if self.on_message is not None:
                    self.on_message(message)
                for event in self.protocol.receive(message):
                    if event.kind == "welcome":
                        self._connected.set()
                        resend_due()
                    elif event.kind == "retrying":
                        arm()
                    self._events.put_nowait(event)
                for out in self.protocol.outbox:
                    await ws.send(json.dumps(out))
                self.protocol.outbox.clear()
        finally:
            if retry_timer is not None:
                retry_timer.cancel()
