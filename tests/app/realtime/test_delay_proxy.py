"""The harness's delaying proxy: the set delay each way, bytes intact and in order."""

from __future__ import annotations

import asyncio

from bench.delay_proxy import DelayProxy, Direction, Link


async def test_the_proxy_delays_each_direction_and_keeps_order() -> None:
    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(1024):
            writer.write(data)
            await writer.drain()
        writer.close()
        await writer.wait_closed()

    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    upstream = ("127.0.0.1", server.sockets[0].getsockname()[1])
    link = Link(Direction(30, 0), Direction(20, 10))
    proxy = await DelayProxy(upstream, link, seed=1).start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        loop = asyncio.get_running_loop()
        trips = []
        for k in range(5):
            sent = loop.time()
            writer.write(f"{k:04d}".encode())
            await writer.drain()
            assert await reader.readexactly(4) == f"{k:04d}".encode()
            trips.append((loop.time() - sent) * 1000)
        # A burst comes back whole and in order, however the jitter fell.
        writer.write(b"".join(f"{k:04d}".encode() for k in range(50)))
        burst = await reader.readexactly(200)
        assert burst == b"".join(f"{k:04d}".encode() for k in range(50))
        writer.close()
        await writer.wait_closed()
    finally:
        await proxy.close()
        server.close()
        await server.wait_closed()
    # At least the set delay each way (30 + 20 ms); the upper bound only catches a lost chunk.
    assert all(49 <= trip <= 500 for trip in trips), trips
