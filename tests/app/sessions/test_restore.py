"""A session restored from its log after a failed message (``GameSession.restore``) is the
match its log rebuilds, built as a loaded one is: a server bot whose turn it is plays on."""

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
from tests.app.support import RecordingPeer

POISON = 13  # the cell on which the broken engine below fails
RATE = 50.0  # match time runs 50 times faster: a tally bot's 1-3 s pause is 20-60 ms


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """A tally match of one player (seat 0) against a server bot (seat 1)."""
    url = f"sqlite+aiosqlite:///{tmp_path}/restore.db"
    await asyncio.to_thread(migrate, url)
    registered = "tally" not in registry.ids()
    if registered:
        registry.register(TallyEngine())
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    writer = ActionLogWriter(engine)
    writer.start()
    hub = Hub(Settings(database_url=url, clock_rate=RATE), sessionmaker, writer)
    async with sessionmaker() as db:
        player = await AccountRepository(db).create("ann", None)
        match = await MatchRepository(db).create(
            game="tally",
            options={"target": 50},
            seed=9,
            seats=[SeatSpec(player.id, None, "ann"), SeatSpec(None, "random", "bot")],
            rated=False,
            time_control={},
            lobby_id=None,
            started_wall_ms=int(time.time() * 1000),
        )
    try:
        yield {"hub": hub, "match_id": match.id, "account_id": player.id}
    finally:
        await hub.stop()
        await writer.stop()
        await engine.dispose()
        if registered:
            registry.unregister("tally")


async def until(condition: Any, seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.01)
    return bool(condition())


async def test_a_bot_on_turn_when_the_state_is_restored_still_plays(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await world["hub"].get(world["match_id"])
    ann = RecordingPeer(0, world["account_id"])
    session.submit(commands.Attach(ann, None))
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    assert await until(lambda: session.version == 1)
    assert session.bots[1].plan is not None  # the bot's turn: it plans its move

    apply = session.engine.apply

    def broken(state: Any, seat: int, action: dict[str, Any], at_ms: int) -> Any:
        if action.get("cell") == POISON:
            state.n += 100  # half-applied, as an engine bug would leave it
            raise RuntimeError("engine bug")
        return apply(state, seat, action, at_ms)

    monkeypatch.setattr(session.engine, "apply", broken)
    session.submit(commands.Submit(ann, 0, 2, {"type": "move", "cell": POISON}))
    assert await until(lambda: any(m.get("code") == "server/internal" for m in ann.sent))
    # Restored from the log at version 1; the bot, on turn there, moves as it would have.
    assert await until(lambda: session.version >= 2)
    assert session.state.n < 100
    patches = [m["version"] for m in ann.sent if m["type"] == "patch"]
    assert patches[:2] == [1, 2]
