"""Match sockets' outgoing frames written straight to the transport, several per write.

Why: under load the server's CPU went mostly to sending. Each message took Starlette's
``WebSocket.send_text``, the ASGI send wrappers, uvicorn's ``send`` (an ``await`` on its
writable event), the websockets state machine, and one ``transport.write`` (a syscall) of
its own; a move is an ack plus a patch per seat, often a ping or a clock too. A server's
data frames carry no state the websockets protocol tracks (no masking, no fragmentation
here, no compression: ``ws_per_message_deflate`` is off), so ``FrameProtocol`` lets a
connection append whole text frames to the transport directly: everything queued for one
socket in one turn of the loop leaves in a single write.

Incoming text frames can take a short cut too: once a match connection has said hello, the
gateway sets ``on_text`` and each message goes from ``data_received`` straight to its handler,
instead of through uvicorn's queue, the ASGI ``receive`` wrappers and a wake-up of the
connection's task. Order is kept: while anything is still queued, new frames queue behind it.

Everything else (handshake, ping/pong control frames, binary frames, the close handshake)
stays uvicorn's. ``FrameProtocol`` is uvicorn's sans-io websockets protocol plus a scope extension
(``SCOPE_KEY``) through which ``app.realtime.peer.Peer`` finds it; without it (the Starlette
test client, another server) a peer sends through ``WebSocket.send_text`` as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

SCOPE_KEY = "rampart.frames"

log = logging.getLogger(__name__)


def text_frame(payload: bytes) -> bytes:
    """One final, unmasked text frame (RFC 6455 sec. 5.2) around ``payload``."""
    size = len(payload)
    if size < 126:
        return b"\x81" + bytes((size,)) + payload
    if size < 65536:
        return b"\x81\x7e" + size.to_bytes(2, "big") + payload
    return b"\x81\x7f" + size.to_bytes(8, "big") + payload


class FrameFlusher:
    """Runs the flushes asked for during one turn of the loop together, right after it: one
    loop callback per broadcast instead of one per connection."""

    def __init__(self) -> None:
        self._due: list[Callable[[], None]] = []
        self._scheduled = False

    def schedule(self, flush: Callable[[], None]) -> None:
        self._due.append(flush)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._run)

    def run_now(self) -> None:
        """Flush what is due at once instead of after this turn of the loop (the action log
        calls it right after a commit's broadcasts: one loop turn less per move)."""
        if self._due:
            self._run()

    def _run(self) -> None:
        self._scheduled = False
        due, self._due = self._due, []
        for flush in due:
            try:
                flush()
            except Exception:  # one broken connection must not hold back the others
                log.exception("flushing frames failed")


class FrameProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol with a direct path for outgoing text frames."""

    on_writable: Callable[[], None] | None = None
    on_text: Callable[[str], None] | None = None

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # an accepted upgrade: the app will see this scope
            scope["extensions"][SCOPE_KEY] = self

    @property
    def open_for_frames(self) -> bool:
        """Accepted, not closing, not lost: data frames may be written."""
        return self.handshake_complete and not (
            self.close_sent or self.disconnected or self.transport.is_closing()
        )

    @property
    def paused(self) -> bool:
        """The transport's buffer is above its high-water mark: hold frames until it drains."""
        return not self.writable.is_set()

    def write_texts(self, texts: Iterable[str]) -> None:
        """Write these messages as text frames in one ``transport.write``."""
        self.transport.write(b"".join([text_frame(text.encode()) for text in texts]))

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.on_writable is not None:
            self.on_writable()

    def send_receive_event_to_app(self) -> None:
        handler = self.on_text
        if (
            handler is None
            or self.curr_msg_data_type != "text"
            or self.close_sent
            or not self.queue.empty()
        ):
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:
            super().send_receive_event_to_app()  # uvicorn's answer: close 1007
            return
        self.frames = []
        try:
            handler(text)
        except Exception:
            # A bug in a handler must not take the protocol down with it: the client is
            # told (1011) and reconnects; every other connection goes on.
            log.exception("match message handler failed")
            self.on_text = None
            self.conn.send_close(1011)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
