"""The action log on PostgreSQL writes on a connection of its own with a prepared insert: rows
read back through SQLAlchemy exactly as its own insert stored them, a bad row fails alone on a
connection that stays, and a connection the server terminates (idle or mid-write) is opened
again with the staged row still committed and only then acknowledged."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.__main__ import migrate
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker, database_unavailable
from app.db.models import MatchAction
from app.db.pg_action_log import PostgresActionLog
from app.db.repositories import AccountRepository, MatchRepository, SeatSpec
from tests.app.support import PG_URL, action_row, new_pg_database

# The tests that need the test PostgreSQL server (all but the first).
needs_postgres = pytest.mark.skipif(not PG_URL, reason="RAMPART_TEST_PG_URL is not set")


COLUMNS = [column.name for column in MatchAction.__table__.columns]


@pytest.fixture
async def world() -> AsyncIterator[tuple[AsyncEngine, ActionLogWriter, int]]:
    """A migrated database of its own, one match in it, and a started writer."""
    url = new_pg_database()
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    async with create_sessionmaker(engine)() as db:
        player = await AccountRepository(db).create("ann", None)
        match = await MatchRepository(db).create(
            game="tally",
            options={},
            seed=1,
            seats=[SeatSpec(player.id, None, player.name)],
            rated=False,
            time_control={},
            lobby_id=None,
            started_wall_ms=0,
        )
    writer = ActionLogWriter(engine)
    writer.start()
    try:
        yield engine, writer, match.id
    finally:
        await writer.stop()
        await engine.dispose()


@pytest.mark.parametrize(
    ("error", "unavailable"),
    [
        (asyncpg.exceptions.ConnectionDoesNotExistError("closed mid-operation"), True),
        (asyncpg.exceptions.AdminShutdownError("terminating connection"), True),
        (asyncpg.exceptions.CannotConnectNowError("the database system is starting up"), True),
        (asyncpg.exceptions.IdleSessionTimeoutError("idle-session timeout"), True),
        (asyncpg.exceptions.ClientCannotConnectError("cannot connect"), True),
        (asyncpg.exceptions.PostgresConnectionError("connection exception"), True),
        (asyncpg.exceptions.DiskFullError("could not extend file"), True),
        (ConnectionResetError(), True),
        (asyncpg.exceptions.UniqueViolationError("duplicate key"), False),
        (asyncpg.exceptions.StringDataRightTruncationError("value too long"), False),
    ],
)
def test_asyncpgs_own_errors_say_whether_the_database_is_unavailable(
    error: Exception, unavailable: bool
) -> None:
    """The writer's connection raises asyncpg's errors unwrapped by SQLAlchemy."""
    assert database_unavailable(error) is unavailable


def own_log(writer: ActionLogWriter) -> PostgresActionLog:
    assert writer.postgres is not None, "PostgreSQL writes go through the writer's connection"
    return writer.postgres


def rich_row(match_id: int, version: int) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "version": version,
        "seat": 3,
        "account_id": 7,
        "client_seq": 2**40 + version,  # a BIGINT past 32 bits
        "action": {"type": "play", "card": "Zweihänder ⚔", "targets": [1, {"deep": [None, True]}]},
        "at_ms": 2**41,
        "cause": "forfeit_abandoned",
        "events": [{"type": "said", "text": 'naïve «quote» "esc" \\ 日本'}, [], {}, 1.5],
        "arbitration": {"mode": "arbiter", "decisions": [{"seat": 0, "dt": -12}]},
    }


async def stored(engine: AsyncEngine, match_id: int) -> list[dict[str, Any]]:
    """Every row of the match as SQLAlchemy reads it, with its JSON columns' stored text."""
    async with engine.connect() as connection:
        rows = (
            await connection.execute(
                select(MatchAction).where(MatchAction.match_id == match_id).order_by("version")
            )
        ).all()
        texts = (
            await connection.execute(
                text(
                    "SELECT version, action::text, events::text, arbitration::text,"
                    " arbitration IS NULL, pg_typeof(action)::text FROM match_actions"
                    " WHERE match_id = :m ORDER BY version"
                ),
                {"m": match_id},
            )
        ).all()
    return [
        {**{name: getattr(row, name) for name in COLUMNS}, "stored": tuple(texts_row[1:])}
        for row, texts_row in zip(rows, texts, strict=True)
    ]


@pytest.mark.postgres
@needs_postgres
async def test_rows_read_back_exactly_as_sqlalchemy_stores_them(
    world: tuple[AsyncEngine, ActionLogWriter, int],
) -> None:
    engine, writer, match_id = world
    before = datetime.now(UTC)
    written = [rich_row(match_id, 1), action_row(match_id, 2), rich_row(match_id, 3)]
    await asyncio.gather(*(writer.append(row) for row in written))  # one batch
    after = datetime.now(UTC)
    assert own_log(writer).opened == 1
    # The same rows through SQLAlchemy's own insert, as the writer wrote them before.
    async with engine.begin() as connection:
        await connection.execute(
            insert(MatchAction),
            [{**row, "version": row["version"] + 100, "created_at": after} for row in written],
        )
    ours, theirs = (await stored(engine, match_id))[:3], (await stored(engine, match_id))[3:]
    for row, mine, reference in zip(written, ours, theirs, strict=True):
        assert {name: mine[name] for name in row} == row
        assert before <= mine["created_at"] <= after
        assert mine["created_at"].tzinfo is not None
        assert mine["stored"] == reference["stored"]  # the same text, type and NULL-ness
    assert ours[0]["created_at"] == ours[2]["created_at"]  # one transaction, one time


@pytest.mark.postgres
@needs_postgres
async def test_a_bad_row_fails_alone_and_the_connection_stays(
    world: tuple[AsyncEngine, ActionLogWriter, int],
) -> None:
    engine, writer, match_id = world
    await writer.append(action_row(match_id, 1))
    too_long = {**action_row(match_id, 3), "cause": "x" * 33}
    outcomes = await asyncio.gather(
        writer.append(action_row(match_id, 1)),  # a duplicate
        writer.append(action_row(match_id, 2)),
        writer.append(too_long),
        writer.append(action_row(match_id, 4)),
        return_exceptions=True,
    )
    assert [type(outcome).__name__ for outcome in outcomes] == [
        "UniqueViolationError",
        "NoneType",
        "StringDataRightTruncationError",
        "NoneType",
    ]
    assert [row["version"] for row in await stored(engine, match_id)] == [1, 2, 4]
    assert own_log(writer).opened == 1
    assert writer.outages == 0


async def terminate(engine: AsyncEngine, pid: int) -> None:
    async with engine.connect() as connection:
        await connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})


async def wait_until(condition: Any, what: str) -> None:
    for _ in range(500):
        if await condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting until {what}")


@pytest.mark.postgres
@needs_postgres
async def test_a_connection_terminated_while_idle_is_opened_again_without_an_outage(
    world: tuple[AsyncEngine, ActionLogWriter, int],
) -> None:
    engine, writer, match_id = world
    await writer.append(action_row(match_id, 1))
    log = own_log(writer)
    pid = log.backend_pid
    assert pid is not None
    await terminate(engine, pid)

    async def noticed() -> bool:
        return log.backend_pid is None

    await wait_until(noticed, "the writer's connection is seen closed")
    await writer.append(action_row(match_id, 2))
    assert log.opened == 2
    assert log.backend_pid not in (None, pid)
    assert writer.outages == 0  # found closed before the write, as a pre-ping would
    assert [row["version"] for row in await stored(engine, match_id)] == [1, 2]


@pytest.mark.postgres
@needs_postgres
async def test_a_connection_terminated_mid_write_is_opened_again_and_the_row_kept(
    world: tuple[AsyncEngine, ActionLogWriter, int],
) -> None:
    engine, writer, match_id = world
    await writer.append(action_row(match_id, 1))
    log = own_log(writer)
    first_pid = log.backend_pid
    assert first_pid is not None

    async def writers_waiting() -> list[int]:
        """The server processes whose insert into match_actions waits on a lock."""
        async with engine.connect() as connection:
            found = await connection.execute(
                text(
                    "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND query LIKE 'INSERT INTO match_actions%'"
                )
            )
            return [int(pid) for (pid,) in found]

    async with engine.connect() as blocker:
        # Hold the table so the next insert waits on the server, in flight.
        await blocker.execute(text("LOCK TABLE match_actions IN EXCLUSIVE MODE"))
        acked = asyncio.ensure_future(writer.append(action_row(match_id, 2)))

        async def first_waits() -> bool:
            return await writers_waiting() == [first_pid]

        await wait_until(first_waits, "the insert waits on the lock")
        await terminate(engine, first_pid)

        async def another_waits() -> bool:
            return len(await writers_waiting()) == 1 and first_pid not in await writers_waiting()

        await wait_until(another_waits, "a new connection tries the insert again")
        assert writer.outages == 1
        assert writer.unavailable is not None
        assert not acked.done()  # not acknowledged before it is committed
        await blocker.rollback()
    await asyncio.wait_for(acked, 10)
    assert writer.unavailable is None
    assert log.opened == 2
    assert log.backend_pid not in (None, first_pid)
    assert [row["version"] for row in await stored(engine, match_id)] == [1, 2]


@pytest.mark.postgres
@needs_postgres
async def test_stop_closes_the_writers_connection(
    world: tuple[AsyncEngine, ActionLogWriter, int],
) -> None:
    engine, writer, match_id = world
    await writer.append(action_row(match_id, 1))
    pid = own_log(writer).backend_pid
    assert pid is not None
    await writer.stop()
    assert own_log(writer).backend_pid is None

    async def gone() -> bool:
        async with engine.connect() as connection:
            found = await connection.execute(
                text("SELECT 1 FROM pg_stat_activity WHERE pid = :p"), {"p": pid}
            )
            return found.first() is None

    await wait_until(gone, "the writer's server process ends")
