"""Chaos: Redis restarted (empty: no persistence) under a two-process cluster mid-match.
Each process owns one match; each match has a seat on each process (one direct, one relayed).
Across the restart: the matches go on, a socket the server closes reconnects and resumes, new
sockets on either process reach each match, the processes agree on who serves each match and
no session fails (two owners at once would make one of them fail its next write), and the
log holds every acknowledged action."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.support import Api, Client, Server, free_port
from tests.fault.chaos_support import OUTAGE_S, Duo, ThrowawayPostgres, no_tracebacks

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")


class RestartableRedis:
    """A ``redis-server`` without persistence on a fixed port, to stop and start again."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        for _ in range(200):
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 0.1),
            ):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[RestartableRedis]:
    redis = RestartableRedis(folder)
    redis.start()
    try:
        yield redis
    finally:
        redis.kill()


class Table:
    """A ``Duo`` whose seats sit on different processes and reconnect when dropped."""

    def __init__(self, duo: Duo, homes: list[Server]) -> None:
        self.duo, self.homes = duo, homes
        self.reconnects = 0

    async def mend(self) -> None:
        """Reconnect every socket the server closed, resuming from the version it had."""
        for k, client in enumerate(self.duo.clients):
            if not dropped(client):
                continue
            fresh = Client(self.homes[k], self.duo.match_id, self.duo.tokens[k])
            fresh.seq = client.seq
            await connect_retrying(fresh, last_version=client.version)
            self.duo.clients[k] = fresh
            self.reconnects += 1

    async def play(self, moves: int) -> None:
        """Moves as a client plays them: a move whose socket dropped before its answer is sent
        again, with the same client_seq, on the new socket."""
        for _ in range(moves):
            await self.mend()
            mover, seq, action = await self.duo.send_move()
            while True:
                try:
                    reply = await self.duo.answer(mover, seq, timeout=10)
                except AssertionError:
                    if not dropped(mover):
                        raise
                    await self.mend()
                    mover = next(c for c in self.duo.clients if c.seat == mover.seat)
                    await self.duo.resend(mover, seq, action)
                    continue
                self.duo.record(mover, reply, action)
                break
            for k in range(len(self.duo.clients)):
                await self.wait_patch(k, reply["version"])

    async def wait_patch(self, k: int, version: int) -> None:
        while True:
            client = self.duo.clients[k]
            try:
                await client.wait_until(lambda c: c.version >= version, timeout=10)
                return
            except AssertionError:
                if not dropped(client):
                    raise
                await self.mend()


def dropped(client: Client) -> bool:
    return client._reader is not None and client._reader.done()


async def connect_retrying(client: Client, last_version: int | None = None) -> None:
    """Connect as a browser does: a refusal to come back later (1012, 1013) is retried."""
    for _ in range(50):
        try:
            await client.connect(last_version=last_version)
            return
        except (AssertionError, OSError) as refused:
            last: Any = refused
            if client.ws is not None:
                await client.close()
            await asyncio.sleep(0.2)
    raise AssertionError(f"could not reconnect: {last!r}")


async def routes(api: Api, match_id: int) -> str:
    reply = await api.get(f"/api/matches/{match_id}/route")
    assert reply.status_code == 200, reply.text
    return str(reply.json()["node"])


async def test_a_redis_restart_under_two_processes_keeps_matches_going(tmp_path: Path) -> None:
    postgres = ThrowawayPostgres()
    try:
        await asyncio.to_thread(postgres.create)
        with redis_server(tmp_path) as redis:
            env = {"RAMPART_REDIS_URL": redis.url, "RAMPART_NODE_TTL_S": "1"}
            one, two = Server(postgres.url, env), Server(postgres.url, env)
            try:
                await asyncio.to_thread(one.start, tmp_path)
                await asyncio.to_thread(two.start, tmp_path)
                await restart_mid_match(one, two, redis)
            finally:
                await Client.close_all()
                await asyncio.to_thread(one.stop)
                await asyncio.to_thread(two.stop)
    finally:
        await asyncio.to_thread(postgres.destroy)


async def restart_mid_match(one: Server, two: Server, redis: RestartableRedis) -> None:
    api_one, api_two = Api(one), Api(two)
    try:
        # Match a is opened on (so owned by) one, match b on two; each has a seat on both.
        a = Table(await Duo.start(one, api_one, ("ann", "bob")), [one, one])
        b = Table(await Duo.start(two, api_two, ("cat", "dan")), [two, two])
        for table, other in ((a, two), (b, one)):
            moved = Client(other, table.duo.match_id, table.duo.tokens[1])
            await moved.connect()
            await table.duo.clients[1].close()
            table.duo.clients[1], table.homes[1] = moved, other
        await a.play(2)
        await b.play(2)
        owners = {t.duo.match_id: await routes(api_one, t.duo.match_id) for t in (a, b)}
        await asyncio.to_thread(redis.kill)
        await a.play(1)  # Redis is not on the path of a move
        await b.play(1)
        # Past the node TTL (every process's key would have lapsed), or the full outage.
        await asyncio.sleep(max(1.5, OUTAGE_S))
        await asyncio.to_thread(redis.start)  # empty
        for _ in range(4):  # a few node TTLs of play after the restart
            await a.play(1)
            await b.play(1)
            await asyncio.sleep(0.5)
        # New sockets on either process reach both matches and hear the latest version.
        for table in (a, b):
            for server in (one, two):
                watcher = Client(server, table.duo.match_id, None)
                await connect_retrying(watcher)
                assert watcher.version == max(table.duo.acked)
        # One owner per match, the same from both processes (the first, as before).
        for table in (a, b):
            match_id = table.duo.match_id
            assert await routes(api_one, match_id) == await routes(api_two, match_id)
            assert await routes(api_one, match_id) == owners[match_id]
        for table in (a, b):
            await table.duo.assert_log_holds_every_ack(api_one)
        no_tracebacks(one)
        no_tracebacks(two)
    finally:
        await api_one.close()
        await api_two.close()
