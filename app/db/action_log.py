"""The action log writer: group commit of ``match_actions`` rows from every live session.

Each session awaits its own row's commit before it broadcasts (persist, then tell), but rows
from many matches that arrive while a transaction is in flight share the next one. Under load
this turns N commits (and N round trips to the SQLite thread) into one, which is what keeps
p99 latency flat as the number of matches grows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import WRITE_LOCK_WAIT_MS, create_sqlite_sync_engine, json_text
from app.db.models import MatchAction, utcnow

log = logging.getLogger(__name__)


CHECKPOINT_EVERY_S = 1.0
COLUMNS = (
    "match_id",
    "version",
    "seat",
    "account_id",
    "client_seq",
    "action",
    "at_ms",
    "cause",
    "events",
    "arbitration",
    "created_at",
)
JSON_COLUMNS = frozenset({"action", "events", "arbitration"})
SQLITE_INSERT = (
    f"INSERT INTO match_actions ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
)


def sqlite_params(row: dict[str, Any]) -> tuple[Any, ...]:
    """One row as pysqlite parameters, stored exactly as SQLAlchemy's types store them."""
    values = []
    for column in COLUMNS:
        value = row[column]
        if column in JSON_COLUMNS:
            value = None if value is None else json_text(value)
        elif column == "created_at":
            value = value.strftime("%Y-%m-%d %H:%M:%S.%f")
        values.append(value)
    return tuple(values)


# How long a batch written off the loop waits for another connection's write lock.
SQLITE_WAIT_MS = WRITE_LOCK_WAIT_MS


def _locked_elsewhere(error: sqlite3.OperationalError) -> bool:
    return "database is locked" in str(error) or "database is busy" in str(error)


class ActionLogWriter:
    """Appends rows in batches; ``append`` returns once the row is committed (or raises).

    On SQLite the batch is written inline on the event loop with the blocking driver: a local
    WAL append takes well under a millisecond, far less than the round trips to aiosqlite's
    thread (each one a GIL hand-over) that it replaces. PostgreSQL stays fully async.
    """

    def __init__(self, engine: AsyncEngine, max_batch: int = 500) -> None:
        self.engine = engine
        self._sync = create_sqlite_sync_engine(engine) if engine.dialect.name == "sqlite" else None
        self._pooled: Any = None
        self._raw: sqlite3.Connection | None = None
        self._busy_timeout_ms: int | None = None
        self.max_batch = max_batch
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self.batches = 0
        self.rows = 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="action-log-writer")
        if self._sync is not None:
            self._checkpointer = asyncio.create_task(self._checkpoints(), name="wal-checkpoints")

    async def _checkpoints(self) -> None:
        written = 0
        while True:
            await asyncio.sleep(CHECKPOINT_EVERY_S)
            if self.rows != written:
                written = self.rows
                try:
                    await asyncio.to_thread(self._checkpoint)
                except Exception as error:  # the next round tries again
                    log.warning("WAL checkpoint failed: %r", error)

    def _checkpoint(self) -> None:
        assert self._sync is not None
        connection = sqlite3.connect(str(self._sync.url.database), timeout=5)
        try:
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            connection.close()

    async def stop(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._pooled is not None:
            self._pooled.close()
        if self._sync is not None:
            self._sync.dispose()
        for _, future in self._pending:
            if not future.done():
                future.set_exception(RuntimeError("the action log writer stopped"))
        self._pending.clear()

    async def append(self, row: dict[str, Any]) -> None:
        """Persist one version of a match. Raises when its transaction fails (a duplicate
        ``(match_id, version)`` included), so the caller never broadcasts an unlogged action."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(({**row, "created_at": utcnow()}, future))
        self._wake.set()
        await future

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
                await self._write(batch)

    def _write_sqlite(self, rows: list[dict[str, Any]], *, wait_ms: int) -> None:
        # One pysqlite connection for the writer's whole life, used without SQLAlchemy: the
        # statement is fixed, and SQLAlchemy's per-call execution context and transaction
        # bookkeeping cost more than the insert itself.
        assert self._sync is not None
        connection = self._raw
        if connection is None:
            self._pooled = self._sync.raw_connection()  # held: the pool must not reuse it
            connection = self._raw = self._pooled.driver_connection
            assert isinstance(connection, sqlite3.Connection)
            # Checkpoints (copying the WAL into the database, with an fsync) would run inside
            # some commit on the event loop; ``_checkpoints`` runs them on a thread instead.
            connection.execute("PRAGMA wal_autocheckpoint=0")
        if self._busy_timeout_ms != wait_ms:
            connection.execute(f"PRAGMA busy_timeout={int(wait_ms)}")
            self._busy_timeout_ms = wait_ms
        try:
            connection.executemany(SQLITE_INSERT, [sqlite_params(row) for row in rows])
            connection.commit()
        except Exception:
            connection.rollback()
            raise

    async def _write(self, batch: list[tuple[dict[str, Any], asyncio.Future[None]]]) -> None:
        rows = [row for row, _ in batch]
        try:
            if self._sync is not None:
                # The statement is fixed: hand it to the driver directly and skip SQLAlchemy's
                # per-call compile and type processing, the largest cost of an append.
                try:
                    self._write_sqlite(rows, wait_ms=0)
                except sqlite3.OperationalError as busy:
                    if not _locked_elsewhere(busy):
                        raise
                    # Another connection holds the write lock, perhaps an aiosqlite transaction
                    # waiting for this very loop to run its next statement: waiting for the
                    # lock here would freeze the loop until the busy timeout (a deadlock that
                    # fails this batch). Wait on a thread instead; the loop keeps running.
                    await asyncio.to_thread(self._write_sqlite, rows, wait_ms=SQLITE_WAIT_MS)
            else:
                async with self.engine.begin() as connection:
                    await connection.execute(insert(MatchAction), rows)
        except Exception as error:
            if len(batch) == 1:
                if not batch[0][1].done():
                    batch[0][1].set_exception(error)
                return
            # One bad row must not fail its neighbours: retry them one by one.
            log.warning("action log batch of %d failed (%r); retrying singly", len(batch), error)
            for item in batch:
                await self._write([item])
            return
        self.batches += 1
        self.rows += len(batch)
        for _, future in batch:
            if not future.done():
                future.set_result(None)
