"""A delaying TCP proxy on 127.0.0.1: a set one-way delay and jitter per direction, in order.

There is no netem here, so the fairness harness puts each bot player behind one of these.
Every chunk read from one side is written to the other ``delay + U(0, jitter)`` ms later,
but never before the chunk read before it (a TCP stream stays in order, as on a real link:
jitter then shows as bunching, not reordering).

    .venv/bin/python -m bench.delay_proxy --upstream 127.0.0.1:8000 \\
        --listen 9001 --down 100 --up 100 --jitter 10
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import asyncio
import contextlib
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Direction:
    """One way of a link: base delay and uniform jitter on top, in milliseconds."""

    delay_ms: float = 0.0
    jitter_ms: float = 0.0

    def sample(self, rng: random.Random) -> float:
        return self.delay_ms + (rng.uniform(0.0, self.jitter_ms) if self.jitter_ms else 0.0)


@dataclass(frozen=True)
class Link:
    """A player's link: ``down`` (server to client) and ``up`` (client to server)."""

    down: Direction
    up: Direction

    @classmethod
    def symmetric(cls, one_way_ms: float, jitter_ms: float = 0.0) -> Link:
        return cls(Direction(one_way_ms, jitter_ms), Direction(one_way_ms, jitter_ms))


class DelayProxy:
    """Listens on 127.0.0.1:``port`` (0: any free port) and relays to ``upstream``."""

    def __init__(self, upstream: tuple[str, int], link: Link, *, seed: int = 0) -> None:
        self.upstream = upstream
        self.link = link
        self.rng = random.Random(seed)
        self.server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def start(self, port: int = 0) -> DelayProxy:
        self.server = await asyncio.start_server(self._connection, "127.0.0.1", port)
        return self

    async def close(self) -> None:
        """Stop listening and close every relayed connection (both sides), waiting for it."""
        if self.server is not None:
            self.server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._close_writers(list(self._writers))
        if self.server is not None:
            with contextlib.suppress(Exception):
                await self.server.wait_closed()

    async def _close_writers(self, writers: list[asyncio.StreamWriter]) -> None:
        for writer in writers:
            writer.close()
        for writer in writers:
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            self._writers.discard(writer)

    async def _connection(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        self._writers.add(client_writer)
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            await self._close_writers([client_writer])
            return
        self._writers.add(server_writer)
        pumps = [
            asyncio.create_task(self._pump(client_reader, server_writer, self.link.up)),
            asyncio.create_task(self._pump(server_reader, client_writer, self.link.down)),
        ]
        self._tasks.update(pumps)
        try:
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pump in pumps:
                pump.cancel()
                self._tasks.discard(pump)
            await self._close_writers([client_writer, server_writer])

    async def _pump(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, direction: Direction
    ) -> None:
        """Read as chunks come; a second task writes each one when its delay is up."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sender = asyncio.create_task(self._deliver(queue, writer))
        self._tasks.add(sender)
        last = 0.0
        try:
            while True:
                chunk = await reader.read(65536)
                due = max(last, loop.time() + direction.sample(self.rng) / 1000)
                last = due
                await queue.put((due, chunk))
                if not chunk:
                    await sender
                    return
        finally:
            sender.cancel()
            self._tasks.discard(sender)

    @staticmethod
    async def _deliver(
        queue: asyncio.Queue[tuple[float, bytes]], writer: asyncio.StreamWriter
    ) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due, chunk = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not chunk:
                with contextlib.suppress(OSError, RuntimeError):
                    writer.write_eof()
                return
            writer.write(chunk)
            await writer.drain()


async def _main(args: argparse.Namespace) -> None:
    host, _, port = args.upstream.rpartition(":")
    link = Link(Direction(args.down, args.jitter), Direction(args.up, args.jitter))
    proxy = await DelayProxy((host or "127.0.0.1", int(port)), link, seed=args.seed).start(
        args.listen
    )
    print(f"127.0.0.1:{proxy.port} -> {args.upstream} down {args.down} up {args.up} ms")
    try:
        await asyncio.Event().wait()
    finally:
        await proxy.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", required=True, help="host:port of the real server")
    parser.add_argument("--listen", type=int, default=0, help="local port (0: any free port)")
    parser.add_argument("--down", type=float, default=0.0, help="server-to-client delay, ms")
    parser.add_argument("--up", type=float, default=0.0, help="client-to-server delay, ms")
    parser.add_argument("--jitter", type=float, default=0.0, help="extra U(0, jitter) ms each way")
    parser.add_argument("--seed", type=int, default=0)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()
