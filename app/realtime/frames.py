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
Whole, small, masked text frames are even unmasked and read here (``_split``), without
the websockets parser; every other frame still goes to it, whole and in order.

Everything else (handshake, ping/pong control frames, binary frames, the close handshake)
stays uvicorn's, with two answers made clean. A text message that is not UTF-8 closes its
connection 1007 with one log line, not a traceback, and never breaks the protocol (uvicorn's
own answer raised when the client's Close came in the same read, dropping the connection
with "protocol.data_received() call failed"). A Close in the middle of a fragmented message is
a normal closing handshake: RFC 6455 lets control frames come between fragments (sec. 5.4)
and asks nothing more of a Close (sec. 5.5.1), so the unfinished message is dropped and the
Close answered with its own code, where websockets failed the connection with 1002.

``FrameProtocol`` is uvicorn's sans-io websockets protocol plus a scope extension
(``SCOPE_KEY``) through which ``app.realtime.peer.Peer`` finds it; without it (the Starlette
test client, another server) a peer sends through ``WebSocket.send_text`` as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.utils import apply_mask

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


# The first byte of a final text frame, and the bit that says a frame is masked.
FINAL_TEXT = 0x81
MASKED = 0x80


def frame_extent(buffer: bytes, start: int) -> tuple[int, int] | None:
    """The header length (mask included) and payload length of the frame at ``start``
    (RFC 6455 sec. 5.2), or None while its header is incomplete."""
    available = len(buffer) - start
    if available < 2:
        return None
    second = buffer[start + 1]
    length = second & 0x7F
    header = 2
    if length == 126:
        if available < 4:
            return None
        length, header = int.from_bytes(buffer[start + 2 : start + 4], "big"), 4
    elif length == 127:
        if available < 10:
            return None
        length, header = int.from_bytes(buffer[start + 2 : start + 10], "big"), 10
    return (header + 4 if second & MASKED else header), length


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


class ClosingMidMessage(ServerProtocol):
    """websockets' server protocol, except that a Close between the fragments of a message
    drops the message and closes normally (RFC 6455 sec. 5.4, 5.5.1) instead of failing
    the connection with 1002 ("incomplete fragmented message")."""

    def recv_frame(self, frame: Frame) -> None:
        if frame.opcode is Opcode.CLOSE:
            self.current_size = None
        super().recv_frame(frame)


class FrameProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol with a direct path for outgoing text frames."""

    on_writable: Callable[[], None] | None = None
    on_text: Callable[[str], None] | None = None
    # Reading frames here needs to know where they start. The upgrade request ends at its
    # blank line; if nothing followed it before the handshake completed (clients must wait
    # for the response, RFC 6455 sec. 4.1), frames start right after it. Otherwise, or once
    # anything unusual shows up, every byte goes to the websockets parser as before.
    _seen = 0  # bytes received before the current call
    _request_head = b""
    _request_end: int | None = None
    _splitting: bool | None = None  # decided by the first data after the handshake
    _held = b""  # the start of a frame whose end has not arrived
    _fragmented = False  # a fragmented message is under way (its frames go to websockets)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn.__class__ = ClosingMidMessage  # the same object, one behaviour changed

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # an accepted upgrade: the app will see this scope
            scope["extensions"][SCOPE_KEY] = self

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the references that close cycles through this connection: the scope's
        extension (the scope is this object's own), the handlers a peer and the gateway set
        (bound methods of objects that hold this one), and the websockets parser (a suspended
        generator whose frame holds the protocol object it parses for; no data can arrive
        now). A closed connection is then freed by reference counting as soon as its task
        ends, instead of waiting as cyclic garbage for a full collection, which the server's
        collector policy (``app.collector``) runs only after the heap has doubled: about a
        hundred objects per socket, tens of megabytes of RSS after a few thousand
        connections."""
        super().connection_lost(exc)
        self.on_writable = None
        self.on_text = None
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(SCOPE_KEY, None)
        self.conn.parser.close()

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

    def data_received(self, data: bytes) -> None:
        if self._splitting is None:
            if not self.handshake_complete:
                self._note_request(data)
                super().data_received(data)
                return
            self._splitting = self._request_end == self._seen
        if self._splitting:
            self._split(data)
        else:
            super().data_received(data)

    def _note_request(self, data: bytes) -> None:
        if self._request_end is None and len(self._request_head) < 65536:
            self._request_head += data
            end = self._request_head.find(b"\r\n\r\n")
            if end >= 0:
                self._request_end = end + 4
                self._request_head = b""
        self._seen += len(data)

    def _split(self, data: bytes) -> None:
        """Read whole small text frames here; hand every other frame, whole and in order, to
        the websockets parser. A frame that has not fully arrived waits in ``_held``."""
        buffer = self._held + data if self._held else data
        size = len(buffer)
        start = run = 0  # frames from ``run`` to ``start`` are for the websockets parser
        while start < size:
            extent = frame_extent(buffer, start)
            if extent is None:
                break
            header, length = extent
            if header > 8:  # a frame of 64 KiB or more: the parser takes it and all after
                self._splitting = False
                self._held = b""
                super().data_received(buffer[run:])
                return
            end = start + header + length
            if end > size:
                break
            first = buffer[start]
            if first == FINAL_TEXT and header in (6, 8) and self._direct_ok():
                mask = buffer[start + header - 4 : start + header]
                payload = apply_mask(buffer[start + header : end], mask)
                try:
                    text = payload.decode()
                except UnicodeDecodeError:
                    pass  # the parser's answer: close 1007
                else:
                    direct = True
                    if run < start:  # the frames before it first, to the parser
                        super().data_received(buffer[run:start])
                        run = start
                        direct = self._direct_ok()  # unless the parser queued something
                    if direct:
                        self._deliver(text)
                        start = run = end
                        continue
            opcode, final = first & 0x0F, first & 0x80
            if opcode in (1, 2) and not final:
                self._fragmented = True
            elif opcode == 0 and final:
                self._fragmented = False
            start = end
        self._held = buffer[start:]
        if run < start:
            super().data_received(buffer[run:start])

    def _direct_ok(self) -> bool:
        return (
            self.on_text is not None
            and not self._fragmented
            and not self.frames
            and not self.close_sent
            and self.queue.empty()
        )

    def _deliver(self, text: str) -> None:
        handler = self.on_text
        assert handler is not None
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

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type != "text" or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        try:
            text = data.decode()
        except UnicodeDecodeError:
            self.frames = []
            self._refuse_invalid_utf8()
            return
        if self.on_text is None or not self.queue.empty():
            super().send_receive_event_to_app()  # queued for the app, in order
            return
        self.frames = []
        self._deliver(text)

    def _refuse_invalid_utf8(self) -> None:
        """Close 1007 (RFC 6455 sec. 8.1), unless the client's own Close came first (then the
        closing handshake is under way and the message is simply dropped)."""
        log.info("closing a websocket: a text message is not UTF-8 (1007)")
        if self.conn.state is not State.OPEN:
            return
        self.conn.send_close(1007)
        self.handle_parser_exception()
