"""A match socket that reached a process other than the match's owner, piped to the owner."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from app.sessions import wire

log = logging.getLogger(__name__)

# Close codes a relay passes on as they are; anything else (the owner vanished) becomes
# 1012 "service restart", on which clients reconnect and resume.
PASSED_ON = frozenset({1000, 1001, 1008, 1011, 1012, 1013}) | frozenset(range(4000, 5000))
# The largest message taken from the owner (a full view of the biggest game is far below).
MAX_MESSAGE_BYTES = 1 << 22


def upstream_url(owner_url: str, match_id: int, query: str) -> str:
    """The owner's websocket URL for the match, keeping the client's query string."""
    base = owner_url.rstrip("/").replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    url = f"{base}/ws/matches/{match_id}"
    return f"{url}?{query}" if query else url


async def relay(websocket: WebSocket, owner_url: str, match_id: int) -> None:
    """Pipe an accepted client socket to the owner, message for message, both ways.

    The owner sees an ordinary client: it authenticates the ``hello``, pings the link
    (so the relay hop is part of the measured round trip a grab race compensates for) and
    closes with its own codes, which reach the client unchanged.
    """
    url = upstream_url(owner_url, match_id, websocket.url.query)
    try:
        upstream = await connect(
            url,
            open_timeout=5,
            ping_interval=None,
            compression=None,
            max_size=MAX_MESSAGE_BYTES,
        )
    except (OSError, TimeoutError, InvalidHandshake) as error:
        log.warning("relay to %s failed: %r", url, error)
        text = wire.dumps(wire.error("match/unavailable", "the match's server is not reachable"))
        with contextlib.suppress(Exception):
            await websocket.send_text(text)
            await websocket.close(1013)
        return
    down = asyncio.create_task(_down(upstream, websocket), name=f"relay-down-{match_id}")
    try:
        await _up(websocket, upstream)
    finally:
        await upstream.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(down, 2)
        down.cancel()


async def _up(websocket: WebSocket, upstream: ClientConnection) -> None:
    """Client to owner, until either side goes away."""
    with contextlib.suppress(WebSocketDisconnect, ConnectionClosed):
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                return
            text = received.get("text")
            if text is not None:
                await upstream.send(text)
            elif received.get("bytes") is not None:
                await upstream.send(received["bytes"])


async def _down(upstream: ClientConnection, websocket: WebSocket) -> None:
    """Owner to client; when the owner closes, close the client with the owner's code."""
    try:
        async for message in upstream:
            if isinstance(message, str):
                await websocket.send_text(message)
            else:
                await websocket.send_bytes(message)
    except ConnectionClosed:
        pass
    except Exception:
        return  # the client went away first
    code = upstream.close_code if upstream.close_code in PASSED_ON else 1012
    with contextlib.suppress(Exception):
        await websocket.close(code or 1012)
