"""Cheap reads: a match's state and event log are served from the live session or from what
earlier reads kept, never by replaying or re-encoding the whole log on each request."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI

from app.__main__ import migrate
from app.api.routes import matches as match_routes
from app.config import Settings
from app.db import repositories
from app.main import create_app
from app.realtime.services import provided
from app.sessions import commands
from app.sessions.listener import Unmeasured
from app.sessions.read_gate import ReadGate, ReadsBusy
from app.sessions.session import GameSession
from bench.tally.engine import TallyEngine
from engines import registry
from engines.base import events_for
from engines.playout import apply_entry, play


class Peer(Unmeasured):
    """A connection that keeps nothing of what the session sends it."""

    def __init__(self, seat: int | None, account_id: int | None) -> None:
        self.seat = seat
        self.account_id = account_id

    def send_text(self, text: str) -> None:
        pass

    def close(self, code: int = 1000) -> None:
        pass


@asynccontextmanager
async def rampart(folder: Path) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The whole application in this process (so a spy sees the engine's calls), started."""
    url = f"sqlite+aiosqlite:///{folder}/rampart.db"
    await asyncio.to_thread(migrate, url)
    app = create_app(Settings(database_url=url, bench_games=True))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://rampart") as client:
            yield app, client


@pytest.fixture
def applied(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every action the tally engine applies, anywhere in the process (its seat)."""
    made: list[int] = []
    real = TallyEngine.apply

    def spy(self: TallyEngine, state: Any, seat: int, action: Any, at_ms: int) -> Any:
        made.append(seat)
        return real(self, state, seat, action, at_ms)

    monkeypatch.setattr(TallyEngine, "apply", spy)
    yield made


class Table:
    """A two-seat tally match with secrets, its players' tokens, and moves made through the
    hub's session (as a socket would)."""

    def __init__(
        self, app: FastAPI, client: httpx.AsyncClient, names: tuple[str, str] = ("Ann", "Bob")
    ) -> None:
        self.app, self.client, self.names = app, client, names
        self.tokens: list[str] = []
        self.match_id = 0

    async def open(self) -> Table:
        for name in self.names:
            made = await self.client.post("/api/accounts", json={"name": name})
            self.tokens.append(made.json()["token"])
        options = {"secrets": True}
        body = {"game": "tally", "seats": 2, "options": options, "public": True}
        lobby = (await self.post("/api/lobbies", 0, body)).json()
        await self.post(f"/api/lobbies/{lobby['id']}/join", 1, {})
        self.match_id = (await self.post(f"/api/lobbies/{lobby['id']}/start", 0, {})).json()[
            "match_id"
        ]
        return self

    async def post(self, path: str, seat: int, body: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.tokens[seat]}"}
        reply = await self.client.post(path, json=body, headers=headers)
        assert reply.status_code < 300, reply.text
        return reply

    async def get(self, path: str, seat: int | None = None, **params: Any) -> httpx.Response:
        headers = {} if seat is None else {"authorization": f"Bearer {self.tokens[seat]}"}
        reply = await self.client.get(path, params=params, headers=headers)
        assert reply.status_code == 200, reply.text
        return reply

    async def session(self) -> GameSession:
        session: GameSession = await provided(self.app).hub.get(self.match_id)
        return session

    async def play(self, moves: int, *, resign: bool = False) -> None:
        session = await self.session()
        peers = [Peer(seat, None) for seat in range(2)]
        for _ in range(moves):
            seat = session.state.turn
            cell = (session.state.n * 7 + seat) % 20
            session.submit(
                commands.Submit(
                    peers[seat], seat, session.version + 1, {"type": "move", "cell": cell}
                )
            )
            await self.settled(session)
        if resign:
            session.submit(commands.Submit(peers[1], 1, session.version + 1, {"type": "resign"}))
            await self.settled(session)

    @staticmethod
    async def settled(session: GameSession) -> None:
        for _ in range(500):
            if session.idle():
                return
            await asyncio.sleep(0.002)
        raise AssertionError("the session never settled")

    async def state(self, seat: int | None = None, **params: Any) -> dict[str, Any]:
        reply = await self.get(f"/api/matches/{self.match_id}/state", seat, **params)
        body: dict[str, Any] = reply.json()
        return body


def snapshots(app: FastAPI) -> list[bytes]:
    """Every snapshot the application keeps."""
    return [b for kept in provided(app).hub.reads._kept.values() for b in kept.by_version.values()]


async def test_a_live_match_state_is_read_from_its_session(
    tmp_path: Path, applied: list[int]
) -> None:
    async with rampart(tmp_path) as (app, client):
        table = await Table(app, client).open()
        await table.play(10)
        session = await table.session()
        applied.clear()
        ann, bob, anyone = await table.state(0), await table.state(1), await table.state()
        assert applied == []  # nothing replayed
        assert ann["version"] == bob["version"] == anyone["version"] == 10
        assert ann["view"]["n"] == 10
        assert ann["view"]["secret"] == session.state.secrets[0]
        assert bob["view"]["secret"] == session.state.secrets[1]
        assert "secret" not in anyone["view"] and "state" not in anyone
        at_ten = await table.state(1, version=10)
        assert at_ten == bob and applied == []


async def test_past_versions_replay_from_kept_snapshots_and_a_finished_match_is_kept(
    tmp_path: Path, applied: list[int]
) -> None:
    async with rampart(tmp_path) as (app, client):
        table = await Table(app, client).open()
        await table.play(140)
        applied.clear()
        first = await table.state(0, version=139)
        assert len(applied) == 139  # the first read of the match replays it all
        applied.clear()
        again = await table.state(0, version=139)
        assert again == first and len(applied) == 139 - 128  # from the snapshot at 128
        matches, counted = provided(app).hub.reads.kept()
        assert matches == 1 and counted == sum(len(b) for b in snapshots(app))
        applied.clear()
        early = await table.state(None, version=70)
        assert early["view"]["n"] == 70 and "secret" not in early["view"]
        assert len(applied) == 70 - 64
        # Finished, and no longer loaded here (as on another process, or after a restart).
        await table.play(0, resign=True)
        provided(app).hub.sessions.pop(table.match_id)
        applied.clear()
        ended = await table.state()
        assert ended["version"] == 141 and ended["state"]["over"] is True
        assert len(applied) == 141 - 128
        applied.clear()
        assert await table.state() == ended
        assert len(applied) == 141 - 128  # never more than the actions since a snapshot


async def test_an_event_log_is_encoded_once_per_audience(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    redacted: list[int | None] = []

    def spy(events: Any, seat: int | None) -> list[dict[str, Any]]:
        redacted.append(seat)
        return events_for(events, seat)

    monkeypatch.setattr(match_routes, "events_for", spy)
    async with rampart(tmp_path) as (app, client):
        table = await Table(app, client).open()
        await table.play(30)
        path = f"/api/matches/{table.match_id}/events"
        first = (await table.get(path, 1)).text
        assert redacted == [1] * 30
        assert (await table.get(path, 1)).text == first and redacted == [1] * 30
        await table.play(2)
        longer = (await table.get(path, 1)).text.splitlines()
        assert redacted == [1] * 32 and longer[:31] == first.splitlines()
        assert len(longer) == 33
        # Another audience gets its own lines: a spectator never sees a seat's secret.
        anyone = (await table.get(path)).text
        assert redacted[32:] == [None] * 32 and '"secret"' not in anyone
        assert '"secret"' in first


async def test_the_match_history_counts_up_to_a_cap_and_pages_no_deeper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(repositories, "MATCH_COUNT_CAP", 2)
    monkeypatch.setattr(match_routes, "MATCH_COUNT_CAP", 2)
    async with rampart(tmp_path) as (app, client):
        for k in range(3):
            await Table(app, client, (f"Ann{k}", f"Bob{k}")).open()
        listed = (await client.get("/api/matches")).json()
        assert listed["total"] == 2 and listed["total_capped"] is True
        assert len(listed["matches"]) == 3  # the page itself is whole
        one = (await client.get("/api/matches", params={"limit": 1, "offset": 2})).json()
        assert len(one["matches"]) == 1
        deep = await client.get("/api/matches", params={"offset": 10_001})
        assert deep.status_code == 422 and deep.json()["error"]["code"] == "request/invalid"


async def test_rebuilding_reads_take_turns_and_a_full_line_is_refused_busy(
    tmp_path: Path,
) -> None:
    gate = ReadGate(at_once=1, waiting=1)
    release = asyncio.Event()
    ran: list[str] = []

    async def reader(name: str) -> None:
        async with gate.turn():
            ran.append(name)
            await release.wait()

    first, second = asyncio.create_task(reader("a")), asyncio.create_task(reader("b"))
    await asyncio.sleep(0.01)
    assert ran == ["a"] and gate.admitted == 2
    with pytest.raises(ReadsBusy):
        async with gate.turn():
            pass
    release.set()
    await asyncio.gather(first, second)
    assert ran == ["a", "b"] and gate.admitted == 0
    # Over REST: a read that must replay while the line is full is a 503 to retry.
    async with rampart(tmp_path) as (app, client):
        table = await Table(app, client).open()
        await table.play(3)
        reads = provided(app).hub.reads
        reads.gate = reads.logs.gate = ReadGate(at_once=1, waiting=0)
        async with reads.gate.turn():
            path = f"/api/matches/{table.match_id}/state"
            busy = await client.get(path, params={"version": 2})
            assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
            assert busy.json()["error"]["code"] == "server/busy"
            assert (await client.get(path)).status_code == 200  # the live session: no turn
        assert (await client.get(path, params={"version": 2})).status_code == 200


@pytest.mark.parametrize(
    ("game", "seats"), [("ambush", 4), ("rampage", 2), ("castles", 2), ("ember", 3)]
)
def test_a_state_rebuilt_from_a_kept_snapshot_is_the_state_replayed(game: str, seats: int) -> None:
    """What ``reads.py`` relies on: a snapshot (the engine's JSON, encoded as kept) restored
    and played on is the state a replay from the start reaches, for every game."""
    engine = registry.get(game)
    bots = importlib.import_module(f"engines.{game}.bots")
    record = play(engine, [bots.HeuristicBot(s, s + 1) for s in range(seats)], 5)
    middle = len(record.log) // 2
    state = engine.setup(seats, 5, {})
    for entry in record.log[:middle]:
        apply_entry(engine, state, entry)
    restored = engine.from_json(orjson.loads(orjson.dumps(engine.to_json(state))))
    for entry in record.log[middle:]:
        apply_entry(engine, restored, entry)
    assert engine.to_json(restored) == engine.to_json(record.state)
    for seat in (None, *range(seats)):
        assert engine.view(restored, seat) == engine.view(record.state, seat)
