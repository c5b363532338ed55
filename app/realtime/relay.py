"""A match socket that reached a process other than the match's owner, piped to the owner."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import WebSocket, WebSocketDisconnect

from app.cluster import wsclient
from app.config import Settings
from app.ops.ratelimits import RELAY_HEADER, relay_token
from app.realtime.frames import FrameFlusher
from app.realtime.peer import Peer
from app.sessions import wire

log = logging.getLogger(__name__)

# Close codes a relay passes on as they are; anything else (the owner vanished) becomes
# 1012 "service restart", on which clients reconnect and resume.
PASSED_ON = frozenset({1000, 1001, 1008, 1011, 1012, 1013}) | frozenset(range(4000, 5000))
CONNECT_TIMEOUT_S = 5.0


class RelayCount:
    """How many match sockets this process is relaying now (``/api/health``)."""

    active = 0


def upstream_url(owner_url: str, match_id: int, query: str) -> str:
    """The owner's websocket URL for the match, keeping the client's query string."""
    base = owner_url.rstrip("/").replace("http://", "ws://", 1)
    url = f"{base}/ws/matches/{match_id}"
    return f"{url}?{query}" if query else url


def passed_on(code: int) -> int:
    return code if code in PASSED_ON else 1012


async def relay(
    websocket: WebSocket, owner_url: str, match_id: int, settings: Settings, flusher: FrameFlusher
) -> None:
    """Pipe an accepted client socket to the owner, message for message, both ways.

    The owner sees an ordinary client (but for ``RELAY_HEADER``: the client's socket was
    counted against its address here, not again there): it authenticates the ``hello``, pings
    the link
    (so the relay hop is part of the measured round trip a grab race compensates for) and
    closes with its own codes, which reach the client unchanged. Messages take the direct
    paths both ways: from the client socket's frames straight into a write to the owner,
    and from the owner's frames into the client's outbox, flushed once per loop turn.
    """
    peer = Peer(websocket, settings.outbox_limit, flusher=flusher)
    peer.measure_links = False  # the owner measures the link, through us
    writer = asyncio.create_task(peer.write_loop())
    early: list[str | bytes] = []  # what the client sends while we reach the owner
    upstream: wsclient.Client | None = None

    def up(message: str | bytes) -> None:
        if upstream is None:
            early.append(message)
            return
        with contextlib.suppress(wsclient.ConnectionClosed):  # its on_close closes the client
            if isinstance(message, str):
                upstream.send_text(message)
            else:
                upstream.send_bytes(message)

    if peer.frames is not None:
        peer.frames.on_text = up
    RelayCount.active += 1
    try:
        url = upstream_url(owner_url, match_id, websocket.url.query)
        try:
            upstream = await wsclient.connect(
                url,
                peer.send_text,
                lambda code: peer.close(passed_on(code)),
                CONNECT_TIMEOUT_S,
                {RELAY_HEADER: relay_token(settings.secret)},
            )
        except (OSError, TimeoutError, wsclient.ConnectionClosed) as error:
            log.warning("relay to %s failed: %r", url, error)
            peer.send(wire.error("match/unavailable", "the match's server is not reachable"))
            peer.close(1013)
            return
        for message in early:
            up(message)
        early.clear()
        with contextlib.suppress(WebSocketDisconnect):
            while True:  # what the direct path leaves to the app: the disconnect, binary
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    return
                text = received.get("text")
                up(text if text is not None else received.get("bytes") or b"")
    finally:
        RelayCount.active -= 1
        if peer.frames is not None:
            peer.frames.on_text = None
        if upstream is not None:
            with contextlib.suppress(Exception):
                await upstream.close(timeout=2)
        peer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2)
        writer.cancel()
