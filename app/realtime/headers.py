"""uvicorn's h11 HTTP protocol with a deadline on the request head: a connection that has not
sent a whole request line and headers ``header_timeout_s`` after it opened (or after the first
byte of a later request on it) is closed.

uvicorn closes idle keep-alive connections (``timeout_keep_alive``) but has no such deadline
for a request head: a raw connection that sends nothing, or a few bytes of headers and then
stalls (slowloris), would be held for ever. This subclass relies on ``H11Protocol``'s ``conn``
(the h11 connection), ``transport`` and ``loop`` attributes, which uvicorn's pin (<0.55) keeps
(``tests/app/realtime/test_headers.py`` checks them).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


class HeaderDeadlineProtocol(H11Protocol):
    """``H11Protocol`` that closes a connection whose request head is late."""

    header_timeout_s = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timer: asyncio.TimerHandle | None = None

    @classmethod
    def with_timeout(cls, seconds: float) -> type[HeaderDeadlineProtocol]:
        """This protocol with its own deadline (what ``uvicorn.Config(http=...)`` takes)."""
        return type(cls.__name__, (cls,), {"header_timeout_s": seconds})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.awaiting_head() and not self.transport.is_closing():
            self.arm()  # part of a request head: the rest must come in time
        else:
            self.disarm()  # a whole head arrived (a request or an upgrade is under way)

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)

    def awaiting_head(self) -> bool:
        """No request under way: h11 still waits for (the rest of) a request line and
        headers."""
        return self.conn.their_state is h11.IDLE

    def arm(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(self.header_timeout_s, self.expire)

    def disarm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def expire(self) -> None:
        self.head_timer = None
        if self.awaiting_head() and not self.transport.is_closing():
            self.transport.close()
