"""Raw websocket frames for the fuzz campaign: hand-built client frames, the malformed cases
(``RAW_CASES``) with the close code RFC 6455 asks for, and a connection that sends them."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct

from tests.app.support import Server


def frame(opcode: int, payload: bytes, *, final: bool = True) -> bytes:
    """A masked client frame (RFC 6455 sec. 5.2)."""
    mask = os.urandom(4)
    size = len(payload)
    first = (0x80 if final else 0) | opcode
    if size < 126:
        head = bytes((first, 0x80 | size))
    elif size < 65536:
        head = bytes((first, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((first, 0x80 | 127)) + size.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def upgrade_request(path: str, header: bytes = b"") -> bytes:
    """A websocket upgrade request of ``path`` with a fresh key; ``header``, raw bytes, is one
    more header line (without its line end), sent as it is."""
    key = base64.b64encode(os.urandom(16)).decode()
    head = (
        f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
    ).encode()
    return head + (header + b"\r\n" if header else b"") + b"\r\n"


CLOSE = frame(8, struct.pack("!H", 1000))
PART = b'{"type":"chat",'
# Each case (sent after a hello, in one write) and the close code RFC 6455 asks for: 1007 for
# text that is not UTF-8 (sec. 8.1), 1002 for a protocol error (an unmasked client frame, a
# continuation with no message, a reserved opcode, a Close code no one may send), 1009 past the
# server's frame size; anything else ends in the client's own Close, answered 1000.
RAW_CASES: dict[str, tuple[bytes, int]] = {
    "bad_utf8": (frame(1, b"\xff\xfe\xfd"), 1007),
    "bad_utf8_then_close": (frame(1, b"\xc3\x28") + CLOSE, 1000),
    "bad_utf8_fragmented": (frame(1, b"ok", final=False) + frame(0, b"\xed\xa0\x80"), 1007),
    "fragments": (frame(1, PART, final=False) + frame(0, b'"text":"hi"}') + CLOSE, 1000),
    "ping_mid_fragment": (
        frame(1, PART, final=False) + frame(9, b"p") + frame(0, b'"text":"x"}') + CLOSE,
        1000,
    ),
    "close_mid_fragment": (frame(1, PART, final=False) + CLOSE, 1000),
    "continuation_first": (frame(0, b"orphan"), 1002),
    "binary": (frame(2, b"\x00\x01\x02") + CLOSE, 1000),
    "oversize_message": (
        frame(1, json.dumps({"type": "chat", "text": "x" * 9000}).encode()) + CLOSE,
        1000,
    ),
    "oversize_frame": (frame(1, b"x" * (1 << 20 | 1)), 1009),
    "reserved_opcode": (frame(3, b"?"), 1002),
    "unmasked": (bytes((0x81, 2)) + b"{}", 1002),
    "close_bad_code": (frame(8, struct.pack("!H", 999)), 1002),
}


async def raw_case(server: Server, match_id: int, token: str, data: bytes) -> int | None:
    """Say hello, send ``data`` in one write, read until the server closes; its close code."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(upgrade_request(f"/ws/matches/{match_id}"))
    await reader.readuntil(b"\r\n\r\n")
    writer.write(frame(1, json.dumps({"type": "hello", "token": token}).encode()) + data)
    received = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), 10):
            received += chunk
            if b"\x88" in received and close_code(received) is not None:
                break
    except (TimeoutError, ConnectionError):
        pass
    writer.close()
    return close_code(received)


def close_code(data: bytes) -> int | None:
    """The code of the first Close frame in the server's bytes ``data`` (1005 for a Close
    without one), or None when there is none yet."""
    at = 0
    while at + 2 <= len(data):
        opcode, size, header = data[at] & 0x0F, data[at + 1] & 0x7F, 2
        if size == 126:
            size, header = int.from_bytes(data[at + 2 : at + 4], "big"), 4
        elif size == 127:
            size, header = int.from_bytes(data[at + 2 : at + 10], "big"), 10
        if at + header + size > len(data):
            return None
        if opcode == 8:
            payload = data[at + header : at + header + size]
            return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
        at += header + size
    return None
