"""The deadline on request heads (``app.realtime.headers``) in this process, on a real
loopback socket, and the parts of uvicorn's private ``H11Protocol`` it stands on: if an
upgrade of uvicorn renames them, these tests fail before any server is left without it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import h11
import pytest
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from app.realtime.headers import HeaderDeadlineProtocol

DEADLINE_S = 0.3


async def hello_app(scope: Any, receive: Any, send: Any) -> None:
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hi"})


@pytest.fixture
async def served() -> AsyncIterator[tuple[int, list[HeaderDeadlineProtocol]]]:
    """A loopback server of ``HeaderDeadlineProtocol`` (0.3 s); its port and protocols."""
    config = Config(hello_app, http=HeaderDeadlineProtocol.with_timeout(DEADLINE_S))
    config.load()
    state = ServerState()
    made: list[HeaderDeadlineProtocol] = []

    def factory() -> HeaderDeadlineProtocol:
        protocol = config.http_protocol_class(config=config, server_state=state, app_state={})
        assert isinstance(protocol, HeaderDeadlineProtocol)
        made.append(protocol)
        return protocol

    server = await asyncio.get_running_loop().create_server(factory, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1], made
    server.close()
    await server.wait_closed()


async def closed_after(reader: asyncio.StreamReader) -> float:
    started = time.monotonic()
    async with asyncio.timeout(3):
        while await reader.read(4096):
            pass
    return time.monotonic() - started


def test_the_private_parts_it_uses_are_there() -> None:
    """``conn`` (an h11 connection), ``transport``, ``loop``; and h11's ``IDLE`` state."""
    config = Config(hello_app)
    config.load()
    loop = asyncio.new_event_loop()
    try:
        protocol = H11Protocol(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        assert isinstance(protocol.conn, h11.Connection)
        assert protocol.conn.their_state is h11.IDLE
        assert protocol.loop is loop
        assert hasattr(protocol, "transport")
        for method in ("connection_made", "data_received", "connection_lost"):
            assert callable(getattr(H11Protocol, method))
    finally:
        loop.close()


async def test_a_silent_connection_is_closed_at_the_deadline(
    served: tuple[int, list[HeaderDeadlineProtocol]],
) -> None:
    port, _ = served
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    assert DEADLINE_S * 0.8 < await closed_after(reader) < DEADLINE_S + 1
    writer.close()


async def test_a_trickled_head_is_closed_and_a_whole_one_is_served(
    served: tuple[int, list[HeaderDeadlineProtocol]],
) -> None:
    port, made = served
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    head = await reader.readuntil(b"hi")
    assert head.startswith(b"HTTP/1.1 200")
    assert made[-1].head_timer is None  # no deadline while the request is served
    writer.write(b"GET / HTTP/1.1\r\n")  # the next request's head stalls
    for _ in range(2):
        await asyncio.sleep(DEADLINE_S / 3)
        writer.write(b"X-Slow: 1\r\n")
    assert await closed_after(reader) < DEADLINE_S
    writer.close()
