"""A lean websocket client (an asyncio protocol, a callback per message) for relays and load.

Two users: a process relaying a match socket to the match's owner (``app.realtime.relay``),
and the load generator (``bench/loadgen``). Why not the ``websockets`` client: each message
went through its frame parser and assembler and each send through ``Connection.send`` (an
async context manager, a lock, a fresh ``os.urandom`` mask). Under load most messages are
pings (every 250 ms per Ambush! socket), and that was most of the load generator's CPU. Here a
message is a callback and a send is one ``transport.write``.

It speaks RFC 6455 as a client must: the upgrade handshake with its accept check, masked
frames (sec. 5.3), fragmented messages reassembled, protocol pings answered, the close
handshake. No extensions are offered (no compression). ``ws://`` only: it talks to our own
processes.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import random
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

from websockets.utils import apply_mask

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0
HANDSHAKE_LIMIT = 65536


class ConnectionClosed(Exception):
    """The socket closed (``code`` is the peer's close code, 1006 when it just went away)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"websocket closed ({code})")
        self.code = code


def accept_for(key: bytes) -> bytes:
    """The ``Sec-WebSocket-Accept`` a server must answer to ``key`` (RFC 6455 sec. 4.2.2)."""
    return base64.b64encode(hashlib.sha1(key + GUID).digest())


def client_frame(opcode: int, payload: bytes, mask: bytes) -> bytes:
    """One final frame from a client: masked with ``mask`` (4 bytes), as sec. 5.3 requires."""
    size = len(payload)
    if size < 126:
        header = bytes((0x80 | opcode, 0x80 | size))
    elif size < 65536:
        header = bytes((0x80 | opcode, 0xFE)) + size.to_bytes(2, "big")
    else:
        header = bytes((0x80 | opcode, 0xFF)) + size.to_bytes(8, "big")
    return header + mask + apply_mask(payload, mask)


class ClientProtocol(asyncio.Protocol):
    """One client connection: ``on_text`` gets each text message; ``on_close`` once, when the
    connection ends for any reason."""

    def __init__(
        self,
        host: str,
        path: str,
        on_text: Callable[[str], None],
        on_close: Callable[[int], None] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.host, self.path = host, path
        self.headers = headers or {}
        self.transport: asyncio.Transport | None = None
        self.key = base64.b64encode(os.urandom(16))
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.on_text = on_text
        self.on_close = on_close
        # Messages that arrive before ``connect`` has returned (with the upgrade response,
        # say) wait here, so ``on_text`` never runs before its owner holds the connection.
        self._early: list[str] | None = []
        self._buffer = b""
        self._handshaken = False
        self._fragments: list[bytes] = []
        self._fragment_opcode = 0
        self._close_sent = False
        # A mask per frame must be unpredictable to the network path (sec. 10.3), which guards
        # intermediaries against scripts in a browser; between our own processes (and on the
        # benchmark's loopback) a generator seeded per connection is enough and costs no syscall.
        self._masks = random.Random(os.urandom(8))

    # ----- asyncio callbacks ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        stream = self.transport = cast(asyncio.Transport, transport)
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n"
            + "".join(f"{name}: {value}\r\n" for name, value in self.headers.items())
            + "\r\n"
        )
        stream.write(request.encode())

    def data_received(self, data: bytes) -> None:
        self._buffer = self._buffer + data if self._buffer else data
        if not self._handshaken and not self._read_handshake():
            return
        self._read_frames()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionClosed(1006))
        self._finish(1006)

    # ----- sending ----------------------------------------------------------------------------

    def send_text(self, text: str) -> None:
        self._send(TEXT, text.encode())

    def send_bytes(self, data: bytes) -> None:
        self._send(BINARY, data)

    def _send(self, opcode: int, payload: bytes) -> None:
        transport = self.transport
        if transport is None or transport.is_closing() or self._close_sent:
            raise ConnectionClosed(self.closed.result() if self.closed.done() else 1006)
        transport.write(client_frame(opcode, payload, self._masks.randbytes(4)))

    async def close(self, code: int = 1000, timeout: float = 5.0) -> None:
        """The close handshake: send a close frame, wait for the server's, then drop the
        socket (the server closes TCP first, sec. 7.1.1; after ``timeout`` we do)."""
        if self.transport is None or self.closed.done():
            return
        if not self._close_sent:
            self._send(CLOSE, code.to_bytes(2, "big"))
            self._close_sent = True
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        except TimeoutError:
            self.transport.close()

    # ----- reading ----------------------------------------------------------------------------

    def _read_handshake(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buffer) > HANDSHAKE_LIMIT:
                self._fail_handshake("the upgrade response is too long")
            return False
        head, self._buffer = self._buffer[:end].decode("latin-1"), self._buffer[end + 4 :]
        status, *lines = head.split("\r\n")
        headers = {}
        for line in lines:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if status.split(" ", 2)[1:2] != ["101"]:
            self._fail_handshake(f"the server refused the upgrade: {status}")
            return False
        if headers.get("sec-websocket-accept", "").encode() != accept_for(self.key):
            self._fail_handshake("wrong Sec-WebSocket-Accept")
            return False
        self._handshaken = True
        self.opened.set_result(None)
        return True

    def _fail_handshake(self, why: str) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(why))
        assert self.transport is not None
        self.transport.close()

    def _read_frames(self) -> None:
        buffer = self._buffer
        size, start = len(buffer), 0
        while size - start >= 2:
            first, second = buffer[start], buffer[start + 1]
            length, header = second & 0x7F, 2
            if length == 126:
                if size - start < 4:
                    break
                length, header = int.from_bytes(buffer[start + 2 : start + 4], "big"), 4
            elif length == 127:
                if size - start < 10:
                    break
                length, header = int.from_bytes(buffer[start + 2 : start + 10], "big"), 10
            if second & 0x80:  # servers must not mask (sec. 5.1)
                self._protocol_error()
                return
            end = start + header + length
            if end > size:
                break
            self._frame(first, buffer[start + header : end])
            start = end
            if self.transport is None or self.transport.is_closing():
                return
        self._buffer = buffer[start:] if start else buffer

    def _frame(self, first: int, payload: bytes) -> None:
        opcode, final = first & 0x0F, first & 0x80
        if opcode == TEXT and final and not self._fragments:
            self._text(payload.decode())
        elif opcode in (TEXT, BINARY) and not self._fragments:
            self._fragment_opcode = opcode
            self._fragments.append(payload)
            if final:
                self._message()
        elif opcode == CONTINUATION and self._fragments:
            self._fragments.append(payload)
            if final:
                self._message()
        elif opcode == PING:
            if not self._close_sent:
                self._send(PONG, payload)
        elif opcode == PONG:
            pass
        elif opcode == CLOSE:
            code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            if not self._close_sent:
                self._send(CLOSE, payload[:2])
                self._close_sent = True
            self._finish(code)
            assert self.transport is not None
            self.transport.close()
        else:
            self._protocol_error()

    def _message(self) -> None:
        payload = b"".join(self._fragments)
        self._fragments = []
        if self._fragment_opcode == TEXT:
            self._text(payload.decode())
        # binary messages: our servers send none; they are ignored

    def _text(self, text: str) -> None:
        if self._early is None:
            self.on_text(text)
        else:
            self._early.append(text)

    def release(self) -> None:
        """Deliver what arrived during the handshake; from now on messages go straight on."""
        early, self._early = self._early, None
        for text in early or ():
            self.on_text(text)

    def _protocol_error(self) -> None:
        if not self._close_sent:
            self._send(CLOSE, (1002).to_bytes(2, "big"))
            self._close_sent = True
        self._finish(1002)
        assert self.transport is not None
        self.transport.close()

    def _finish(self, code: int) -> None:
        if not self.closed.done():
            self.closed.set_result(code)
            if self.on_close is not None:
                self.on_close(code)


async def connect(
    url: str,
    on_text: Callable[[str], None],
    on_close: Callable[[int], None] | None = None,
    timeout: float = 30.0,
    headers: dict[str, str] | None = None,
) -> ClientProtocol:
    """Open ``ws://host:port/path`` and finish the upgrade handshake; ``on_text`` gets every
    text message from the first on, starting right after this returns (in a loop callback,
    so the caller can store the connection first); ``on_close`` the close code once the
    connection ends; ``headers`` go with the upgrade request."""
    parts = urlsplit(url)
    if parts.scheme != "ws" or parts.hostname is None:
        raise ValueError(f"only ws:// URLs: {url!r}")
    port = parts.port or 80
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    host = f"{parts.hostname}:{port}"
    loop = asyncio.get_running_loop()
    _, protocol = await asyncio.wait_for(
        loop.create_connection(
            lambda: ClientProtocol(host, path, on_text, on_close, headers), parts.hostname, port
        ),
        timeout,
    )
    await asyncio.wait_for(protocol.opened, timeout)
    asyncio.get_running_loop().call_soon(protocol.release)
    return protocol
