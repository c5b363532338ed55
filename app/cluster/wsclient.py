"""A websocket client with a callback per message, for relays and load.

Two users: a process relaying a match socket to the match's owner (``app.realtime.relay``),
and the load generator (``bench/loadgen``). The protocol is websockets' sans-I/O
``ClientProtocol`` (the upgrade handshake and its checks, masked frames, protocol pings
answered, the close handshake); this module drives it from an asyncio ``Protocol``, so a
message reaches its callback in the loop callback that read it, with no task, queue or lock
between, and a send is one frame handed to the transport. No extensions are offered (no
compression), and ``ws://`` only: it talks to our own processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

from websockets.client import ClientProtocol
from websockets.exceptions import InvalidState
from websockets.frames import CloseCode, Frame, Opcode
from websockets.protocol import CLOSED, OPEN
from websockets.typing import BytesLike
from websockets.uri import WebSocketURI, parse_uri

# After the close handshake the server closes TCP (RFC 6455 sec. 7.1.1); past this we do.
CLOSE_TIMEOUT_S = 5.0


class ConnectionClosed(Exception):
    """The socket closed (``code`` is the peer's close code, 1006 when it just went away)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"websocket closed ({code})")
        self.code = code


class Client(asyncio.Protocol):
    """One client connection: ``on_text`` gets each text message; ``on_close`` the close code
    once, when the connection ends for any reason (binary messages are ignored: our servers
    send none)."""

    def __init__(
        self,
        uri: WebSocketURI,
        on_text: Callable[[str], None],
        on_close: Callable[[int], None] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        # Our own processes' messages: no size limit beyond the server's own.
        self.protocol = ClientProtocol(uri, max_size=None)
        self.request = self.protocol.connect()
        for name, value in (headers or {}).items():
            self.request.headers[name] = value
        self.transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[int] = loop.create_future()
        self.on_text = on_text
        self.on_close = on_close
        # Messages that arrive before ``connect`` has returned (with the upgrade response,
        # say) wait here, so ``on_text`` never runs before its owner holds the connection.
        self._early: list[str] | None = []
        self._fragments: list[BytesLike] = []
        self._fragmented_text = False
        self._abort_timer: asyncio.TimerHandle | None = None

    # ----- asyncio callbacks ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.protocol.send_request(self.request)
        self._write()

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        protocol.receive_data(data)
        self._write()  # pongs, the reply to a close, or the end of a refused upgrade
        events = protocol.events_received()
        if not self.opened.done():
            if protocol.handshake_exc is not None:
                refusal = ConnectionError(f"the upgrade failed: {protocol.handshake_exc}")
                self.opened.set_exception(refusal)
                return
            if protocol.state is OPEN:
                self.opened.set_result(None)
        for event in events:
            if isinstance(event, Frame):
                self._frame(event)
        if self._abort_timer is None and protocol.close_expected():
            self._abort_timer = asyncio.get_running_loop().call_later(CLOSE_TIMEOUT_S, self._abort)

    def eof_received(self) -> bool:
        self.protocol.receive_eof()
        self._write()
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionClosed(1006))
        if self._abort_timer is not None:
            self._abort_timer.cancel()
        received = self.protocol.close_rcvd
        self._finish(received.code if received is not None else 1006)

    # ----- sending ----------------------------------------------------------------------------

    def send_text(self, text: str) -> None:
        self._send(self.protocol.send_text, text.encode())

    def send_bytes(self, data: bytes) -> None:
        self._send(self.protocol.send_binary, data)

    def _send(self, send: Callable[[bytes], None], payload: bytes) -> None:
        transport = self.transport
        if transport is None or transport.is_closing() or self.closed.done():
            raise ConnectionClosed(self.closed.result() if self.closed.done() else 1006)
        try:
            send(payload)
        except InvalidState:  # we have sent our close already
            raise ConnectionClosed(1006) from None
        transport.writelines(self.protocol.data_to_send())

    async def close(self, code: int = 1000, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """The close handshake: send a close frame, wait for the server's, then drop the
        socket (the server closes TCP first, sec. 7.1.1; after ``timeout`` we do)."""
        if self.transport is None or self.closed.done():
            return
        if self.protocol.state is OPEN:
            self.protocol.send_close(code)
            self._write()
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        except TimeoutError:
            self.transport.close()

    # ----- reading ----------------------------------------------------------------------------

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT and frame.fin:
            self._text(frame.data)
        elif opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            self._fragmented_text = opcode is Opcode.TEXT
            self._fragments = [frame.data]
        elif opcode is Opcode.CONT:
            self._fragments.append(frame.data)
            if frame.fin:
                payload, self._fragments = b"".join(self._fragments), []
                if self._fragmented_text:
                    self._text(payload)
        elif opcode is Opcode.CLOSE:
            received = self.protocol.close_rcvd
            self._finish(received.code if received is not None else CloseCode.NO_STATUS_RCVD)
        # pings are answered by the protocol; pongs and whole binary messages need nothing

    def _text(self, payload: BytesLike) -> None:
        try:
            text = str(payload, "utf-8")
        except UnicodeDecodeError:
            self.protocol.fail(CloseCode.INVALID_DATA, "invalid UTF-8")
            self._write()
            self._finish(CloseCode.INVALID_DATA)
            return
        if self._early is None:
            self.on_text(text)
        else:
            self._early.append(text)

    def release(self) -> None:
        """Deliver what arrived during the handshake; from now on messages go straight on."""
        early, self._early = self._early, None
        for text in early or ():
            self.on_text(text)

    # ----- ending -----------------------------------------------------------------------------

    def _write(self) -> None:
        """Hand the protocol's pending output to the transport; its end of stream (an empty
        chunk) closes the transport."""
        transport = self.transport
        if transport is None:
            return
        for chunk in self.protocol.data_to_send():
            if chunk:
                transport.write(chunk)
            else:
                transport.close()

    def _abort(self) -> None:
        if self.transport is not None and self.protocol.state is not CLOSED:
            self.transport.close()

    def _finish(self, code: int) -> None:
        if not self.closed.done():
            self.closed.set_result(int(code))
            if self.on_close is not None:
                self.on_close(int(code))


async def connect(
    url: str,
    on_text: Callable[[str], None],
    on_close: Callable[[int], None] | None = None,
    timeout: float = 30.0,
    headers: dict[str, str] | None = None,
) -> Client:
    """Open ``ws://host:port/path`` and finish the upgrade handshake; ``on_text`` gets every
    text message from the first on, starting right after this returns (in a loop callback,
    so the caller can store the connection first); ``on_close`` the close code once the
    connection ends; ``headers`` go with the upgrade request."""
    uri = parse_uri(url)
    if uri.secure:
        raise ValueError(f"only ws:// URLs: {url!r}")
    loop = asyncio.get_running_loop()
    _, client = await asyncio.wait_for(
        loop.create_connection(lambda: Client(uri, on_text, on_close, headers), uri.host, uri.port),
        timeout,
    )
    await asyncio.wait_for(client.opened, timeout)
    loop.call_soon(client.release)
    return client
