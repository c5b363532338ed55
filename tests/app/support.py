"""Test support: real server processes, REST helpers, a websocket client for the protocol, and
a hub with one match in this process."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import httpx
import orjson
import uvicorn
import websockets
from fastapi import FastAPI
from rampart_client import HeldView

from app.__main__ import migrate, serve_command
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.repositories import AccountRepository, MatchRepository, SeatSpec
from app.main import create_app
from app.realtime.frames import FrameProtocol
from app.sessions.hub import Hub
from app.sessions.listener import Unmeasured
from bench.tally.engine import TallyEngine
from engines import registry

ROOT = Path(__file__).resolve().parents[2]
# Every test client shares 127.0.0.1, as real players do not: the limits per client address
# are lifted unless a test sets them (``tests/app/ops/test_edge_limits.py``); per account they hold.
UNLIMITED_ADDRESS = {
    "RAMPART_ACCOUNT_ADDRESS_LIMIT": "",
    "RAMPART_TABLE_ADDRESS_LIMIT": "",
    "RAMPART_READ_ADDRESS_LIMIT": "",
    "RAMPART_SOCKETS_PER_ADDRESS": "0",
}
PG_URL = os.environ.get("RAMPART_TEST_PG_URL")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def new_pg_database() -> str:
    """A fresh, empty database on the test PostgreSQL server; returns its URL."""
    import asyncpg  # only needed with PostgreSQL

    assert PG_URL
    name = "rampart_" + uuid.uuid4().hex[:12]
    admin = PG_URL.replace("postgresql+asyncpg://", "postgresql://")

    async def create() -> None:
        connection = await asyncpg.connect(admin)
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()

    # Run on a thread of its own: callers may be inside a running event loop.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, create()).result()
    return PG_URL.rsplit("/", 1)[0] + "/" + name


@dataclass
class Server:
    """One ``python -m app`` process on a free port; ``restart`` keeps the database."""

    database_url: str
    env: dict[str, str] = field(default_factory=dict)
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, log_dir: Path) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "RAMPART_BENCH_GAMES": "1",
            "RAMPART_CLOCK_RATE": "20",
            "PYTHONPATH": str(ROOT),
            **UNLIMITED_ADDRESS,
            **self.env,
        }
        self.log_path = log_dir / f"server-{self.port}.log"
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                serve_command(self.port),
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited:\n{self.log_path.read_text()}")
            try:
                if httpx.get(f"{self.http}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start:\n{self.log_path.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown hooks, no flush beyond what was committed."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    def log_text(self) -> str:
        return self.log_path.read_text() if self.log_path else ""


@contextlib.contextmanager
def both_running(nodes: tuple[Server, Server], log_dir: Path) -> Iterator[tuple[Server, Server]]:
    """Start both server processes of ``nodes`` (their logs in ``log_dir``) for the ``with``
    block, and stop them both after it, even when one failed to start."""
    try:
        for node in nodes:
            node.start(log_dir)
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def app_command(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m app ARGS`` (an operator's subcommand) against ``database_url``."""
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


class Api:
    """REST helpers over httpx."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.client = httpx.AsyncClient(base_url=server.http, timeout=10)

    async def close(self) -> None:
        await self.client.aclose()

    async def guest(self, name: str) -> str:
        """A guest's token. Names are unique on a server, so when an earlier test on the same
        server took ``name`` the guest becomes ``name 2``, ``name 3``, ..."""
        for attempt in range(1, 100):
            wanted = name if attempt == 1 else f"{name} {attempt}"
            reply = await self.client.post("/api/accounts", json={"name": wanted})
            if reply.status_code != 409:
                break
        assert reply.status_code == 201, reply.text
        return str(reply.json()["token"])

    async def post(self, path: str, token: str | None, body: Any = None) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return await self.client.post(path, json=body or {}, headers=headers)

    async def get(self, path: str, token: str | None = None, **params: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return await self.client.get(path, headers=headers, params=params)

    async def ok(self, path: str, token: str | None, body: Any = None) -> dict[str, Any]:
        reply = await self.post(path, token, body)
        assert reply.status_code in (200, 201), reply.text
        data: dict[str, Any] = reply.json()
        return data

    async def table(
        self,
        game: str,
        tokens: list[str],
        *,
        seats: int | None = None,
        options: dict[str, Any] | None = None,
        bots: str | None = None,
        time_control: dict[str, Any] | None = None,
        rated: bool = False,
    ) -> int:
        """Create a table with the first token as host, seat the others, add bots, start."""
        body: dict[str, Any] = {
            "game": game,
            "seats": seats or len(tokens),
            "options": options or {},
            "rated": rated,
        }
        if time_control is not None:
            body["time_control"] = time_control
        lobby = await self.ok("/api/lobbies", tokens[0], body)
        for token in tokens[1:]:
            await self.ok(f"/api/lobbies/{lobby['id']}/join", token)
        if bots:
            await self.ok(f"/api/lobbies/{lobby['id']}/bots", tokens[0], {"kind": bots})
        started = await self.ok(f"/api/lobbies/{lobby['id']}/start", tokens[0])
        return int(started["match_id"])


class Client:
    """A protocol client: collects every message; helpers wait for the ones a test needs."""

    opened: ClassVar[list[Client]] = []

    def __init__(self, server: Server, match_id: int, token: str | None) -> None:
        Client.opened.append(self)
        self.url = f"{server.ws}/ws/matches/{match_id}"
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.ws: Any = None
        self.seq = 0
        self._reader: asyncio.Task[None] | None = None
        self._arrived = asyncio.Event()
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.version = 0
        self.seat: int | None = None
        self.patches = HeldView()

    async def connect(self, *, hello: bool = True, last_version: int | None = None) -> Client:
        self.ws = await websockets.connect(self.url, max_size=None)
        self._reader = asyncio.create_task(self._read())
        if hello:
            await self.send({"type": "hello", "token": self.token, "last_version": last_version})
            welcome = await self.wait_for("welcome")
            self.seat = welcome["seat"]
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "ping":
                    await self.ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                    continue
                if message["type"] in ("welcome", "patch"):
                    # A diff patch is filled in to the whole view (the official client's
                    # ``HeldView``); one that does not fit the version held asks for the whole
                    # view again.
                    if self.patches.read(message, fill_in=True) != "resync":
                        self.view = message["view"]
                        self.legal = self.patches.legal
                        self.version = message["version"]
                    else:
                        resync = {"type": "resync", "last_version": self.patches.version}
                        await self.ws.send(json.dumps(resync))
                self.messages.append(message)
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self._arrived.set()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, text: str) -> None:
        await self.ws.send(text)

    async def act(self, action: dict[str, Any], **extra: Any) -> int:
        self.seq += 1
        await self.send({"type": "action", "client_seq": self.seq, "action": action, **extra})
        return self.seq

    async def wait_for(
        self, kind: str, timeout: float = 10, start: int = 0, **fields: Any
    ) -> dict[str, Any]:
        """The first message (from index ``start``) of ``kind`` whose fields match."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for message in self.messages[start:]:
                if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                    return message
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0 or (self._reader is not None and self._reader.done()):
                seen = [m["type"] for m in self.messages[-10:]]
                raise AssertionError(f"no {kind} {fields} within {timeout}s; last: {seen}")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), remaining)

    async def wait_until(self, predicate: Any, timeout: float = 20) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not predicate(self):
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0 or (self._reader is not None and self._reader.done()):
                raise AssertionError("condition not reached")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), remaining)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader
            self._reader = None

    @classmethod
    async def close_all(cls) -> None:
        while cls.opened:
            await cls.opened.pop().close()


async def drive_with_bot(client: Client, bot: Any, *, rate: float, timeout: float) -> None:
    """Play ``client``'s seat with an engine bot over the wire until the match is over.

    The bot sees only what the wire gives this seat (patch events and views, legal actions);
    match time is estimated from the last patch's ``at_ms`` and the server's clock rate.
    Grabs go out as ``grab`` messages, everything else as ``action``.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = 0
    anchor_ms, anchor_t = 0, loop.time()
    sent_for: tuple[int, str] | None = None
    planned: tuple[int, Any] | None = None
    asked_at = loop.time()
    while True:
        for message in client.messages[seen:]:
            if message["type"] == "welcome":
                anchor_ms, anchor_t = message["at_ms"], loop.time()
                bot.observe([], message["view"])
            elif message["type"] == "patch":
                anchor_ms, anchor_t = message["at_ms"], loop.time()
                bot.observe(message["events"], message["view"])
        seen = len(client.messages)
        view = client.view
        assert view is not None
        if view.get("outcome") is not None:
            return
        assert loop.time() < deadline, f"match not over within {timeout}s"
        now_ms = anchor_ms + int((loop.time() - anchor_t) * 1000 * rate)
        # Ask once per version, as the server does for its own bots: not every bot keeps its
        # plan when asked again with a later now_ms.
        if planned is None or planned[0] != client.version or loop.time() - asked_at > 1.0:
            decision = bot.decide(view, client.legal, now_ms) if client.legal else None
            planned, asked_at = (client.version, decision), loop.time()
        decision = planned[1]
        wait = 0.5
        if decision is not None:
            key = (client.version, json.dumps(decision.action, sort_keys=True))
            wait = max(0.0, (decision.at_ms - now_ms) / (1000 * rate))
            if wait <= 0.001 and key != sent_for:
                sent_for = key
                client.seq += 1
                action = decision.action
                if action.get("type") == "grab":
                    await client.send(
                        {
                            "type": "grab",
                            "client_seq": client.seq,
                            "cell": action["cell"],
                            "ref": client.version,
                            "dt": 0,
                        }
                    )
                else:
                    await client.send(
                        {"type": "action", "client_seq": client.seq, "action": action}
                    )
                # Refused or not, ask again after the next version (or a pause).
                planned = None if client.version != key[0] else (client.version, None)
                wait = 0.5
        client._arrived.clear()
        if len(client.messages) > seen:
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(client._arrived.wait(), max(wait, 0.001))


def action_row(match_id: int, version: int) -> dict[str, Any]:
    """A ``match_actions`` row as a session hands it to the action log."""
    return {
        "match_id": match_id,
        "version": version,
        "seat": 0,
        "account_id": None,
        "client_seq": None,
        "action": {"type": "pass"},
        "at_ms": version,
        "cause": "bot",
        "events": [],
        "arbitration": None,
    }


@contextlib.asynccontextmanager
async def match_in_process(
    folder: Path, game: str, options: dict[str, Any], seed: int
) -> AsyncIterator[dict[str, Any]]:
    """A migrated SQLite database in ``folder``, the action log writer, a hub, and one
    unrated two-player match of ``game``: ``hub``, ``writer``, ``match_id`` and ``players``."""
    url = f"sqlite+aiosqlite:///{folder}/inproc.db"
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    writer = ActionLogWriter(engine)
    writer.start()
    hub = Hub(Settings(database_url=url), sessionmaker, writer)
    async with sessionmaker() as db:
        players = [await AccountRepository(db).create(f"p{i}", None) for i in range(2)]
        match = await MatchRepository(db).create(
            game=game,
            options=options,
            seed=seed,
            seats=[SeatSpec(p.id, None, p.name) for p in players],
            rated=False,
            time_control={},
            lobby_id=None,
            started_wall_ms=int(time.time() * 1000),
        )
    try:
        yield {"hub": hub, "writer": writer, "match_id": match.id, "players": players}
    finally:
        await hub.stop()
        await writer.stop()
        await engine.dispose()


@contextlib.asynccontextmanager
async def tally_in_process(folder: Path) -> AsyncIterator[dict[str, Any]]:
    """``match_in_process`` of the bench ``tally`` game (target 3, seed 9), the game
    registered for the while."""
    if "tally" not in registry.ids():
        registry.register(TallyEngine())
    try:
        async with match_in_process(folder, "tally", {"target": 3}, seed=9) as world:
            yield world
    finally:
        registry.unregister("tally")


class RecordingPeer(Unmeasured):
    """An in-process connection that records, parsed, what the session sends it."""

    def __init__(self, seat: int | None, account_id: int | None) -> None:
        self.seat = seat
        self.account_id = account_id
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    def send_text(self, text: str) -> None:
        self.sent.append(orjson.loads(text))

    def close(self, code: int = 1000) -> None:
        self.closed = code

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [message for message in self.sent if message["type"] == kind]


@contextlib.asynccontextmanager
async def served_in_process(
    folder: Path, prepare: Callable[[FastAPI], None] | None = None
) -> AsyncIterator[str]:
    """The application on uvicorn in this process, as ``python -m app`` serves it (a fresh
    SQLite database in ``folder``, the bench games), after ``prepare`` had it; yields its base
    URL (``http://...``)."""
    url = f"sqlite+aiosqlite:///{folder}/rampart.db"
    await asyncio.to_thread(migrate, url)
    port = free_port()
    app = create_app(Settings(database_url=url, bench_games=True))
    if prepare is not None:
        prepare(app)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws=FrameProtocol,
        ws_per_message_deflate=False,
        log_level="warning",
        log_config=None,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "the server did not start"
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def open_tally_match(http: httpx.AsyncClient) -> tuple[int, str]:
    """A two-seat ``tally`` match opened over REST: its id and its first player's token."""
    tokens = []
    for name in ("ann", "bob"):
        reply = await http.post("/api/accounts", json={"name": name})
        tokens.append(reply.json()["token"])
    auth = [{"authorization": f"Bearer {t}"} for t in tokens]
    body = {"game": "tally", "seats": 2, "options": {"target": 100}}
    lobby = (await http.post("/api/lobbies", json=body, headers=auth[0])).json()
    await http.post(f"/api/lobbies/{lobby['id']}/join", json={}, headers=auth[1])
    started = await http.post(f"/api/lobbies/{lobby['id']}/start", json={}, headers=auth[0])
    return int(started.json()["match_id"]), tokens[0]
