"""Chaos test support: two-seat tally matches played over the wire, and the checks every
chaos test makes (what was acknowledged is in the log, the refusal while down is retryable)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.app.support import Api, Client, Server, free_port

DOWN_LOG_LINE = "the database cannot be written"
# How long an outage lasts beyond the checks made during it (0 in CI; ``bench/chaos.py``
# sets 10 s, the campaign's full size).
OUTAGE_S = float(os.environ.get("RAMPART_CHAOS_OUTAGE_S", "0"))


@contextlib.asynccontextmanager
async def serving(
    folder: Path, database_url: str | None = None, **env: str
) -> AsyncIterator[tuple[Server, Api]]:
    """A real server (default: SQLite in ``folder``) and its REST client for the block; every
    socket opened meanwhile is closed after it."""
    server = Server(database_url or f"sqlite+aiosqlite:///{folder}/rampart.db", env)
    await asyncio.to_thread(server.start, folder)
    api = Api(server)
    try:
        yield server, api
    finally:
        await Client.close_all()
        await api.close()
        await asyncio.to_thread(server.stop)


@dataclass
class Duo:
    """One tally match of two guests, each on a socket; ``acked`` maps version -> action."""

    server: Server
    match_id: int
    tokens: list[str]
    clients: list[Client]
    acked: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    cell: int = 0

    @classmethod
    async def start(cls, server: Server, api: Api, names: tuple[str, str]) -> Duo:
        tokens = [await api.guest(name) for name in names]
        match_id = await api.table("tally", tokens)
        clients = [await Client(server, match_id, token).connect() for token in tokens]
        return cls(server, match_id, tokens, clients)

    def on_turn(self) -> Client:
        """The client whose seat is to move (by the last view either of them saw)."""
        newest = max(self.clients, key=lambda client: client.version)
        assert newest.view is not None
        turn = newest.view["turn"]
        return next(client for client in self.clients if client.seat == turn)

    async def send_move(self) -> tuple[Client, int, dict[str, Any]]:
        """The seat on turn sends a move; returns who sent it, its client_seq and the action."""
        client = self.on_turn()
        self.cell = (self.cell + 1) % 20
        action = {"type": "move", "cell": self.cell}
        seq = await client.act(action)
        return client, seq, action

    async def resend(self, client: Client, seq: int, action: dict[str, Any]) -> None:
        await client.send({"type": "action", "client_seq": seq, "action": action})

    async def answer(
        self, client: Client, seq: int, start: int = 0, timeout: float = 15
    ) -> dict[str, Any]:
        """The first ``ack`` or ``error`` for ``seq`` from message index ``start`` on."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for message in client.messages[start:]:
                if message.get("client_seq") == seq and message["type"] in ("ack", "error"):
                    return message
            start = len(client.messages)
            remaining = deadline - asyncio.get_running_loop().time()
            assert remaining > 0, f"no answer to client_seq {seq}; last: {client.messages[-3:]}"
            await client.wait_until(lambda c, n=start: len(c.messages) > n, timeout=remaining)

    async def play(self, moves: int) -> None:
        """``moves`` moves, each acknowledged and seen by both seats."""
        for _ in range(moves):
            client, seq, action = await self.send_move()
            reply = await self.answer(client, seq)
            self.record(client, reply, action)
            for everyone in self.clients:
                await everyone.wait_for("patch", version=reply["version"])

    def record(self, client: Client, reply: dict[str, Any], action: dict[str, Any]) -> None:
        assert reply["type"] == "ack", reply
        self.acked[reply["version"]] = (client.seat or 0, action)

    async def assert_log_holds_every_ack(self, api: Api) -> None:
        """The action log runs 1..N without a gap and holds every acknowledged action at the
        version its ack named, from the seat that sent it."""
        lines: dict[int, dict[str, Any]] = {}
        for seat, token in enumerate(self.tokens):
            reply = await api.get(f"/api/matches/{self.match_id}/events", token)
            assert reply.status_code == 200, reply.text
            for raw in reply.text.splitlines()[1:]:
                line = json.loads(raw)
                if line.get("seat") == seat and "action" in line:
                    lines[line["version"]] = line
                lines.setdefault(line["version"], line)
        versions = sorted(lines)
        assert versions == list(range(1, len(versions) + 1)), versions
        for version, (seat, action) in self.acked.items():
            assert version in lines, f"acknowledged version {version} is not in the log"
            assert lines[version]["seat"] == seat
            assert lines[version]["action"] == action


async def wait_for_log(server: Server, text: str, timeout: float = 20) -> None:
    """Until the server's log has ``text`` (the server says what state it is in)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while text not in server.log_text():
        assert asyncio.get_running_loop().time() < deadline, f"server never logged {text!r}"
        await asyncio.sleep(0.05)


async def stay_down(
    duo: Duo, mover: Client, seq: int, action: dict[str, Any], minimum_s: float = 0.0
) -> None:
    """Keep the outage ``OUTAGE_S`` (at least ``minimum_s``) seconds, the refused move sent
    again every second: it is refused each time, retryably, and never played."""
    loop = asyncio.get_running_loop()
    end = loop.time() + max(OUTAGE_S, minimum_s)
    while loop.time() < end:
        await asyncio.sleep(1)
        start = len(mover.messages)
        await duo.resend(mover, seq, action)
        assert_retryable_refusal(await duo.answer(mover, seq, start))


def assert_retryable_refusal(reply: dict[str, Any]) -> None:
    assert reply["type"] == "error", reply
    assert reply["code"] == "server/unavailable", reply
    assert reply.get("retry") is True, reply


def no_tracebacks(server: Server) -> None:
    log = server.log_text()
    assert "Traceback" not in log, log[-3000:]
    assert "session failed" not in log, log[-3000:]


def sqlite_path(server: Server) -> Path:
    return Path(server.database_url.split("///", 1)[1])


class ThrowawayPostgres:
    """A PostgreSQL cluster of the test's own (``initdb`` in a temp folder, a free port), as
    ``scripts/with-postgres.sh`` makes one, that the test may stop and start."""

    def __init__(self) -> None:
        bindirs = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name)
        usable = [b for b in bindirs if (b / "initdb").exists()]
        if not usable:
            pytest.skip("PostgreSQL is not installed")
        self.bin = usable[-1]
        # Not under pytest's folder: the postgres user may not enter root's private folders.
        self.folder = Path(tempfile.mkdtemp(prefix="rampart-chaos-pg-"))
        self.port = free_port()
        self.as_pg = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_pg, *command], check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        if self.as_pg:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.folder / "data"),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
        )
        self.start()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.folder / "data"),
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "-o",
            options,
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", mode, "-w", "stop"
        )

    def destroy(self) -> None:
        with contextlib.suppress(Exception):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)
