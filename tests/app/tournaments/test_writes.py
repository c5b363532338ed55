"""Write transactions beside the live action log: no loop-freezing deadlock on SQLite, and
ladder updates that apply each rated match once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.__main__ import migrate
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.models import Account, Match
from app.db.repositories import MatchRepository, SeatSpec
from app.tournaments import ladders
from app.tournaments.writes import Writer
from engines.base import Outcome, SeatResult
from tests.app.support import action_row


@pytest.fixture
async def database(
    tmp_path: Path,
) -> AsyncIterator[tuple[Writer, async_sessionmaker[AsyncSession]]]:
    url = f"sqlite+aiosqlite:///{tmp_path}/w.db"
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    writer = Writer(engine, sessionmaker)
    yield writer, sessionmaker
    writer.dispose()
    await engine.dispose()


async def new_match(sessionmaker: async_sessionmaker[AsyncSession], seats: list[SeatSpec]) -> int:
    async with sessionmaker() as db:
        match = await MatchRepository(db).create(
            game="rampage",
            options={},
            seed=1,
            seats=seats,
            rated=True,
            time_control={},
            lobby_id=None,
            started_wall_ms=0,
        )
        return match.id


async def test_a_long_write_never_freezes_the_loop_with_the_action_log(
    database: tuple[Writer, async_sessionmaker[AsyncSession]],
) -> None:
    """The writer holds SQLite's write lock on a thread for 300 ms while a match appends
    actions: the appends wait for the lock (they do not fail) and the loop keeps ticking."""
    writer, sessionmaker = database
    match_id = await new_match(sessionmaker, [SeatSpec(None, "heuristic", "bot")])
    log = ActionLogWriter(writer_engine(sessionmaker))
    log.start()

    def slow(session: Session) -> None:
        session.add(Account(name="slow", password_hash=None))
        session.flush()  # the write lock is ours from here to the commit
        time.sleep(0.3)

    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    clock = asyncio.create_task(ticker())
    try:
        write = asyncio.create_task(writer.run(slow))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        await asyncio.gather(*(log.append(action_row(match_id, v)) for v in range(1, 6)))
        await write
        assert time.monotonic() - started < 2.0
    finally:
        clock.cancel()
        await log.stop()
    assert ticks >= 10


def writer_engine(sessionmaker: async_sessionmaker[AsyncSession]) -> Any:
    engine = sessionmaker.kw["bind"]
    return engine


async def test_a_rated_match_moves_each_ladder_once(
    database: tuple[Writer, async_sessionmaker[AsyncSession]],
) -> None:
    writer, sessionmaker = database
    match_id = await new_match(
        sessionmaker, [SeatSpec(None, "heuristic", "h"), SeatSpec(None, "random", "r")]
    )
    outcome = Outcome(
        [[0], [1]], {0: SeatResult(False, False, 0.2), 1: SeatResult(True, False, 1.0)}, "t"
    )
    async with sessionmaker() as db:
        await MatchRepository(db).finish(
            match_id,
            status="finished",
            version=10,
            result=outcome.to_json(),
            ledger={0: 90, 1: -90},
            forfeits={},
        )
    assert await writer.run(ladders.unapplied_matches) == [match_id]
    moved = await writer.run(partial(ladders.apply_match, match_id=match_id))
    assert len(moved) == 1
    assert await writer.run(partial(ladders.apply_match, match_id=match_id)) == []
    assert await writer.run(ladders.unapplied_matches) == []
    async with sessionmaker() as db:
        board = await db.run_sync(
            partial(ladders.leaderboard, ladder_id=moved[0], limit=10, offset=0)
        )
        unrated = await db.get(Match, match_id)
    assert unrated is not None
    assert [(e.bot, e.points, e.wins, e.losses) for e in board] == [
        ("heuristic:normal", 1590, 1, 0),  # each bot kind and level is a player of its own
        ("random:normal", 1410, 0, 1),
    ]
    assert board[0].ratings["glicko2"]["mu"] > 1500


async def test_the_action_log_never_freezes_the_loop_behind_an_aiosqlite_transaction(
    database: tuple[Writer, async_sessionmaker[AsyncSession]],
) -> None:
    """Regression: an aiosqlite transaction holding the write lock across an ``await`` (as
    ``MatchRepository.finish`` does while other matches play) used to make the action log
    wait on the event loop itself for the 5 s busy timeout, then fail the batch."""
    _, sessionmaker = database
    match_id = await new_match(sessionmaker, [SeatSpec(None, "heuristic", "bot")])
    log = ActionLogWriter(writer_engine(sessionmaker))
    log.start()
    try:
        async with sessionmaker() as db:
            db.add(Account(name="holder", password_hash=None))
            await db.flush()  # this connection holds the write lock until the commit
            append = asyncio.create_task(log.append(action_row(match_id, 1)))
            started = time.monotonic()
            await asyncio.sleep(0.05)  # the action log's turn on the loop
            await db.commit()
            assert time.monotonic() - started < 1.0
        await append
    finally:
        await log.stop()
