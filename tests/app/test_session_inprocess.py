"""The hub and session in-process: a failed log write never reaches a client, the session is
rebuilt from the log, and a restart rebuilds bots and clocks from the same log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.__main__ import migrate
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.repositories import AccountRepository, MatchRepository, SeatSpec
from app.sessions import commands
from app.sessions.hub import Hub
from bench.tally.engine import TallyEngine
from engines import registry


class FakePeer:
    """A connection that records what the session sends it."""

    def __init__(self, seat: int | None, account_id: int | None) -> None:
        self.seat = seat
        self.account_id = account_id
        self.sent: list[str] = []
        self.closed: int | None = None

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int = 1000) -> None:
        self.closed = code


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    url = f"sqlite+aiosqlite:///{tmp_path}/inproc.db"
    await asyncio.to_thread(migrate, url)
    if "tally" not in registry.ids():
        registry.register(TallyEngine())
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    writer = ActionLogWriter(engine)
    writer.start()
    hub = Hub(Settings(database_url=url), sessionmaker, writer)
    async with sessionmaker() as db:
        players = [await AccountRepository(db).create(f"p{i}", None) for i in range(2)]
        match = await MatchRepository(db).create(
            game="tally",
            options={"target": 3},
            seed=9,
            seats=[SeatSpec(p.id, None, p.name) for p in players],
            rated=False,
            time_control={},
            lobby_id=None,
            started_wall_ms=int(time.time() * 1000),
        )
    yield {"hub": hub, "writer": writer, "match_id": match.id, "players": players}
    await hub.stop()
    await writer.stop()
    await engine.dispose()
    registry.unregister("tally")


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


async def test_a_failed_write_is_never_broadcast_and_the_session_is_rebuilt(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    hub, writer, match_id = world["hub"], world["writer"], world["match_id"]
    session = await hub.get(match_id)
    ann = FakePeer(0, world["players"][0].id)
    session.submit(commands.Attach(ann, None))
    await settle()

    async def broken(_row: dict[str, Any]) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(writer, "append", broken)
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    with caplog.at_level("CRITICAL", logger="app.sessions.hub"):
        await settle()
    assert ann.closed == 1011
    assert not any('"type":"patch"' in text or '"type":"ack"' in text for text in ann.sent)
    monkeypatch.undo()
    await asyncio.sleep(0.6)  # the hub reloads the match from its log
    rebuilt = await hub.get(match_id)
    assert rebuilt is not session and rebuilt.version == 0
    again = FakePeer(0, world["players"][0].id)
    rebuilt.submit(commands.Attach(again, None))
    rebuilt.submit(commands.Submit(again, 0, 1, {"type": "move", "cell": 0}))
    await settle()
    assert any('"type":"ack"' in text for text in again.sent)
    assert rebuilt.version == 1
