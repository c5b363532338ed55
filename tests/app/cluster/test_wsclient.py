"""The load generator's websocket client against the ``websockets`` server: RFC 6455 both ways."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.uri import parse_uri
from websockets.utils import accept_key

from app.cluster import wsclient


class Received:
    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: list[int] = []
        self.arrived = asyncio.Event()

    def text(self, text: str) -> None:
        self.texts.append(text)
        self.arrived.set()

    async def next(self) -> str:
        while not self.texts:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 5)
        return self.texts.pop(0)


async def scripted(connection: ServerConnection) -> None:
    """Greets at once (before the client could send anything), then obeys commands."""
    await connection.send("welcome")
    async for message in connection:
        assert isinstance(message, str)
        if message == "fragments":
            await connection.send(["frag", "ment", "ed"])
        elif message == "ping":
            await asyncio.wait_for(await connection.ping(b"abc"), 5)
            await connection.send("pong seen")
        elif message == "close":
            await connection.close(4001, "bye")
        else:
            await connection.send(f"echo:{message}")


@pytest.fixture
async def server() -> AsyncIterator[str]:
    async with serve(scripted, "127.0.0.1", 0, max_size=None) as running:
        port = next(iter(running.sockets)).getsockname()[1]
        yield f"ws://127.0.0.1:{port}/room"


async def test_messages_of_every_length_round_trip_and_the_first_is_not_lost(server: str) -> None:
    got = Received()
    client = await wsclient.connect(server, got.text, got.closed.append)
    assert await got.next() == "welcome"  # it came with, or right after, the upgrade
    for size in (0, 125, 126, 65535, 65536, 200_000):
        body = "é" * size
        client.send_text(body)
        assert await got.next() == f"echo:{body}"
    await client.close()
    assert got.closed == [1000]


async def test_fragments_pings_and_a_server_close(server: str) -> None:
    got = Received()
    client = await wsclient.connect(server, got.text, got.closed.append)
    await got.next()
    client.send_text("fragments")
    assert await got.next() == "fragmented"
    client.send_text("ping")  # the server waits for our pong before it answers
    assert await got.next() == "pong seen"
    client.send_text("close")
    assert await asyncio.wait_for(client.closed, 5) == 4001
    assert got.closed == [4001]
    with pytest.raises(wsclient.ConnectionClosed):
        client.send_text("too late")


async def test_a_refused_upgrade_is_an_error(unused_tcp_port: int) -> None:
    async def not_websocket(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Any:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    listener = await asyncio.start_server(not_websocket, "127.0.0.1", unused_tcp_port)
    async with listener:
        with pytest.raises(ConnectionError, match="404"):
            await wsclient.connect(f"ws://127.0.0.1:{unused_tcp_port}/x", lambda _: None)


class FakeTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def writelines(self, data: list[bytes]) -> None:
        self.written.extend(data)

    def is_closing(self) -> bool:
        return False


def upgraded(client: wsclient.Client) -> bytes:
    """The server's answer to the client's upgrade request."""
    accept = accept_key(client.protocol.key).encode()
    return (
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
    )


async def test_a_message_that_comes_with_the_upgrade_waits_until_connect_has_returned() -> None:
    got: list[str] = []
    client = wsclient.Client(parse_uri("ws://h:1/"), got.append)
    client.connection_made(FakeTransport())  # type: ignore[arg-type]
    client.data_received(upgraded(client) + b"\x81\x05hello" + b"\x81\x02")  # the 2nd is cut
    assert client.opened.done() and got == []
    client.release()
    assert got == ["hello"]
    client.data_received(b"hi")
    assert got == ["hello", "hi"]


async def test_the_upgrade_request_carries_the_headers_and_the_path() -> None:
    transport = FakeTransport()
    client = wsclient.Client(parse_uri("ws://h:1/ws/matches/7?node=a"), print, None, {"X-A": "1"})
    client.connection_made(transport)  # type: ignore[arg-type]
    request = b"".join(transport.written)
    assert request.startswith(b"GET /ws/matches/7?node=a HTTP/1.1\r\n")
    assert b"\r\nX-A: 1\r\n" in request and b"\r\nHost: h:1\r\n" in request


async def test_text_that_is_not_utf8_closes_the_connection_1007() -> None:
    got = Received()
    transport = FakeTransport()
    client = wsclient.Client(parse_uri("ws://h:1/"), got.text, got.closed.append)
    client.connection_made(transport)  # type: ignore[arg-type]
    client.data_received(upgraded(client))
    client.release()
    client.data_received(b"\x81\x02\xc3\x28")
    assert got.texts == [] and got.closed == [1007]
    close = transport.written[-1]
    assert close[0] == 0x88 and close[1] & 0x80  # a final close frame, masked as a client's
