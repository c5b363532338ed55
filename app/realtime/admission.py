"""Who may hold a websocket: at most ``RAMPART_SOCKETS_PER_ADDRESS`` open match and lobby
sockets per client address (the cluster's, with Redis), and a hello within
``RAMPART_HELLO_TIMEOUT_S`` of opening."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import WebSocket
from starlette.types import Message

from app.ops.ratelimits import client_address, relayed
from app.realtime.services import Services
from app.sessions import wire

# Close codes: too many sockets from the client's address; no hello in time.
CLOSE_CROWDED = 4429
CLOSE_NO_HELLO = 4408


@asynccontextmanager
async def admitted(websocket: WebSocket, services: Services) -> AsyncIterator[bool]:
    """True while the socket holds one of its address's places; False (after accepting it,
    sending ``error{code: "rate/limited"}`` and closing it 4429) when the address has none
    left. A relay from another process of the cluster was counted where the client
    connected."""
    limits = services.limits
    if relayed(websocket.headers, services.settings.secret):
        yield True
        return
    address = client_address(websocket.scope.get("client"))
    if not await limits.sockets.acquire(address):
        refusal = wire.error("rate/limited", "too many open sockets from this address")
        await websocket.accept()
        await websocket.send_text(wire.dumps(refusal))
        await websocket.close(CLOSE_CROWDED)
        yield False
        return
    try:
        yield True
    finally:
        await limits.sockets.release(address)


class HelloDeadline:
    """The time a socket has to say hello, from when it opened; ``receive`` returns None once
    it has passed without a hello."""

    def __init__(self, timeout_s: float) -> None:
        self.at = time.monotonic() + timeout_s
        self.greeted = False

    async def receive(self, websocket: WebSocket) -> Message | None:
        if self.greeted:
            return await websocket.receive()
        try:
            return await asyncio.wait_for(websocket.receive(), max(0.0, self.at - time.monotonic()))
        except TimeoutError:
            return None
