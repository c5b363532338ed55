"""A closed match or lobby socket is freed by reference counting, not left for the collector.

The server's collector policy (``app.collector``) runs a full collection only once the heap
has doubled, so whatever a closed connection leaves in a reference cycle piles up until then:
a few thousand connect/close cycles raised a server's RSS by tens of megabytes. Here the
whole application is served in this process by uvicorn with the server's websocket protocol
(``FrameProtocol``), sockets open and close with the cyclic collector off, and the objects of
each connection must be gone once it has closed.
"""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path

import httpx
import websockets
from starlette.websockets import WebSocket
from websockets.server import ServerProtocol

from app.realtime.frames import FrameProtocol
from app.realtime.peer import Peer
from tests.app.support import open_tally_match, served_in_process

CYCLES = 20
# Connections whose task has not quite ended when the count is read.
TOLERANCE = 2


async def match_cycle(base: str, match_id: int, token: str) -> None:
    async with websockets.connect(f"{base}/ws/matches/{match_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "last_version": None}))
        async for raw in ws:
            if json.loads(raw)["type"] == "welcome":
                break


async def lobby_cycle(base: str, token: str) -> None:
    async with websockets.connect(f"{base}/ws/lobby") as ws:
        assert json.loads(await ws.recv())["type"] == "lobbies"
        await ws.send(json.dumps({"type": "hello", "token": token}))


def connection_objects() -> int:
    """Live objects of the server's side of a websocket, garbage in cycles included."""
    kinds = (FrameProtocol, ServerProtocol, Peer, WebSocket)
    return sum(1 for o in gc.get_objects() if issubclass(type(o), kinds))


async def test_closed_match_and_lobby_sockets_leave_nothing_for_the_collector(
    tmp_path: Path,
) -> None:
    async with served_in_process(tmp_path) as base:
        async with httpx.AsyncClient(base_url=base) as http:
            match_id, token = await open_tally_match(http)
        ws_base = base.replace("http://", "ws://")
        # Once each first: the match's session and the lobby feed are loaded.
        await match_cycle(ws_base, match_id, token)
        await lobby_cycle(ws_base, token)
        gc.collect()
        gc.disable()
        try:
            before = connection_objects()
            for _ in range(CYCLES):
                await match_cycle(ws_base, match_id, token)
                await lobby_cycle(ws_base, token)
            left = connection_objects() - before
            for _ in range(100):  # the server's side of the last ones closing
                if left <= TOLERANCE:
                    break
                await asyncio.sleep(0.03)
                left = connection_objects() - before
        finally:
            gc.enable()
    assert left <= TOLERANCE, f"{left} connection objects kept after {2 * CYCLES} sockets"
