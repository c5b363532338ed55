"""SQLite statements of the async engine run on the event loop; only a wait for another
connection's write lock goes to a thread, and the loop keeps running meanwhile."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

from sqlalchemy import text

from app.db.engine import create_engine
from app.db.inline_sqlite import InlineConnection, inline_creator


async def connected(database: Path, wait_ms: int = 5_000) -> InlineConnection:
    connection: InlineConnection = await inline_creator(str(database), wait_ms)()
    # Which thread ran a statement: SQLite calls this function where the statement runs.
    await connection.create_function("runner", 0, threading.get_ident)
    await connection.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
    await connection.commit()
    return connection


async def runner(connection: InlineConnection, sql: str = "SELECT runner()") -> int:
    cursor = await connection.execute(sql)
    row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def test_a_statement_runs_on_the_loop_with_no_wait_for_locks(tmp_path: Path) -> None:
    connection = await connected(tmp_path / "a.db")
    try:
        assert await runner(connection) == threading.get_ident()
        assert await runner(connection, "PRAGMA busy_timeout") == 0
    finally:
        await connection.close()


async def test_a_write_blocked_by_another_writer_waits_on_a_thread_while_the_loop_runs(
    tmp_path: Path,
) -> None:
    database = tmp_path / "b.db"
    connection = await connected(database)
    holder = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another connection takes the write lock
    holder.execute("INSERT INTO t VALUES (1)")
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    threading.Timer(0.3, lambda: holder.execute("COMMIT")).start()
    try:
        started = time.monotonic()
        cursor = await connection.execute("INSERT INTO t VALUES (runner())")
        waited = time.monotonic() - started
        await connection.commit()
        cursor = await connection.execute("SELECT x FROM t WHERE x != 1")
        row = await cursor.fetchone()
        assert row is not None
        # It ran on the connection's thread, after the holder committed, and the loop went on.
        assert row[0] not in (threading.get_ident(), None)
        assert waited >= 0.25 and ticks >= 10
        # Back on the loop afterwards, still without waiting there.
        assert await runner(connection) == threading.get_ident()
        assert await runner(connection, "PRAGMA busy_timeout") == 0
    finally:
        ticker.cancel()
        holder.close()
        await connection.close()


async def test_a_lock_held_past_the_wait_is_still_locked(tmp_path: Path) -> None:
    database = tmp_path / "c.db"
    connection = await connected(database, wait_ms=100)
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        await connection.execute("INSERT INTO t VALUES (2)")
    except sqlite3.OperationalError as error:
        assert "locked" in str(error)
    else:
        raise AssertionError("the insert should have given up after 100 ms")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        await connection.close()


async def test_the_engine_uses_inline_connections_for_a_sqlite_file(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path}/d.db")
    try:
        async with engine.connect() as connection:
            raw = await connection.get_raw_connection()
            assert isinstance(raw.driver_connection, InlineConnection)
            timeout = (await connection.execute(text("PRAGMA busy_timeout"))).scalar()
            mode = (await connection.execute(text("PRAGMA journal_mode"))).scalar()
            assert (timeout, mode) == (0, "wal")
    finally:
        await engine.dispose()
