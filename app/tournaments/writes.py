"""Write transactions for tournaments and ladders, run as one synchronous function each.

Why: on SQLite the action log writer commits on the event loop with the blocking driver (and a
5 s busy timeout). An aiosqlite transaction that holds the write lock across an ``await`` lets
that writer block the loop while the lock holder waits for the loop: both stall until the busy
timeout and the live match fails. So on SQLite every write here runs start to commit on a worker
thread with a blocking connection, which never needs the loop to finish. On other databases the
same function runs through ``AsyncSession.run_sync``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from app.db.engine import create_sqlite_sync_engine

T = TypeVar("T")


class Writer:
    def __init__(self, engine: AsyncEngine, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker
        self._sync: Engine | None = (
            create_sqlite_sync_engine(engine) if engine.dialect.name == "sqlite" else None
        )

    async def run(self, work: Callable[[Session], T]) -> T:
        """Run ``work(session)`` in one transaction and commit; its exceptions propagate and
        roll the transaction back."""
        if self._sync is not None:
            return await asyncio.to_thread(self._run_blocking, work)
        async with self.sessionmaker() as session:
            result = await session.run_sync(work)
            await session.commit()
            return result

    def _run_blocking(self, work: Callable[[Session], T]) -> T:
        assert self._sync is not None
        with Session(self._sync, expire_on_commit=False) as session:
            result = work(session)
            session.commit()
            return result

    def dispose(self) -> None:
        if self._sync is not None:
            self._sync.dispose()
