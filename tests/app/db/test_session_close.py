"""A session on a SQLite file closes in its caller's task: its connection is back in the pool
before the task gives up the loop, so many requests at once share a few connections instead
of opening (and closing) one each beyond the pool's size."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import event, text

from app.db.engine import create_engine, create_sessionmaker


async def test_sessions_opened_at_once_share_one_connection(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    opened: list[Any] = []
    event.listen(engine.sync_engine.pool, "connect", lambda connection, _: opened.append(1))
    sessions = create_sessionmaker(engine)

    async def read() -> int:
        async with sessions() as db:
            return int((await db.execute(text("SELECT 1"))).scalar_one())

    try:
        await read()  # opening the first connection waits for its thread: not at once
        assert len(opened) == 1
        assert await asyncio.gather(*(read() for _ in range(40))) == [1] * 40
        assert len(opened) == 1
        assert engine.sync_engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    finally:
        await engine.dispose()


async def test_a_session_that_fails_is_rolled_back_and_closed(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    sessions = create_sessionmaker(engine)
    async with sessions() as db:
        await db.execute(text("CREATE TABLE t (x INTEGER)"))
        await db.commit()
    try:
        try:
            async with sessions() as db:
                await db.execute(text("INSERT INTO t VALUES (1)"))
                raise RuntimeError("the request failed")
        except RuntimeError:
            pass
        assert engine.sync_engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        async with sessions() as db:
            assert (await db.execute(text("SELECT count(*) FROM t"))).scalar_one() == 0
    finally:
        await engine.dispose()
