"""The action log writer: group commit of ``match_actions`` rows from every live session.

Each session hears of its own row's commit before it broadcasts (persist, then tell), but rows
from many matches staged during one turn of the event loop share one transaction, written in
a loop callback right after that turn. Under load this turns N commits into one, which is
what keeps p99 latency flat as the number of matches grows. ``stage`` takes a callback (the
sessions' fast lane: no task wake-ups between a move and its broadcast); ``append`` is the
same as an awaitable.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import (
    action_params,
    create_sqlite_sync_engine,
    database_unavailable,
)
from app.db.inline_sqlite import locked_elsewhere
from app.db.models import MatchAction, utcnow
from app.db.pg_action_log import PostgresActionLog

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
# The columns a staged row gives (``created_at`` is its transaction's). A session's row also
# brings its events' JSON text, ``events_json``, which the writer stores as is (``action_params``).
ROW_COLUMNS = COLUMNS[:-1]
SQLITE_INSERT = (
    f"INSERT INTO match_actions ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
)
# How SQLAlchemy's DateTime stores a value in SQLite.
SQLITE_DATETIME = "%Y-%m-%d %H:%M:%S.%f"


def sqlite_params(row: dict[str, Any], created_at: str) -> tuple[Any, ...]:
    """One row as pysqlite parameters (in ``COLUMNS`` order), stored exactly as SQLAlchemy's
    types store them: JSON as compact text, no arbitration as SQL NULL, ``created_at`` as
    its text form."""
    return action_params(row, created_at, None)


# How long one try of a batch written off the loop waits for another connection's write lock;
# past it the database counts as unavailable (new actions are refused, retryable) while the
# drain keeps trying. Locks of this process's own connections last microseconds.
LOCK_WAIT_MS = 1_000
# The pause between tries while the database cannot be written grows to RETRY_MAX_S.
RETRY_FIRST_S = 0.05
RETRY_MAX_S = 1.0


Written = Callable[[BaseException | None], None]
"""Told once a staged row is committed (None) or could not be (the error)."""


class ActionLogWriter:
    """Appends rows in batches; ``stage`` calls back once the row is committed (or failed).

    On SQLite the batch is written inline on the event loop with the blocking driver: a local
    WAL append takes well under a millisecond, far less than the round trips to aiosqlite's
    thread (each one a GIL hand-over) that it replaces. Only when another connection holds the
    write lock, or a batch fails, does a drain task take over (waiting on a thread, retrying
    rows one by one). PostgreSQL always goes through the drain task, fully async, on a
    connection of the writer's own with a prepared insert (``PostgresActionLog``).
    """

    def __init__(self, engine: AsyncEngine, max_batch: int = 500) -> None:
        self.engine = engine
        self._sync = create_sqlite_sync_engine(engine) if engine.dialect.name == "sqlite" else None
        # PostgreSQL (asyncpg): the writer's own connection and prepared insert.
        self.postgres = PostgresActionLog(engine) if engine.dialect.driver == "asyncpg" else None
        self._pooled: Any = None
        self._raw: sqlite3.Connection | None = None
        self._busy_timeout_ms: int | None = None
        self.max_batch = max_batch
        self._pending: list[tuple[dict[str, Any], Written]] = []
        self._kicked = False
        self._draining: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._stopped = False
        # Called after each commit's callbacks have run (the app flushes their broadcasts).
        self.after_commit: Callable[[], None] | None = None
        self.batches = 0
        self.rows = 0
        # Set while staged rows wait for a database that cannot be written (the last error);
        # sessions refuse new actions meanwhile (``GameSession.submit``).
        self.unavailable: BaseException | None = None
        self.outages = 0

    def start(self) -> None:
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
        self._stopped = True
        for task in (self._checkpointer, self._draining):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._pooled is not None:
            self._pooled.close()
        if self.postgres is not None:
            await self.postgres.close()
        if self._sync is not None:
            self._sync.dispose()
        pending, self._pending = self._pending, []
        self._settle(pending, RuntimeError("the action log writer stopped"))

    async def flush(self, timeout_s: float) -> bool:
        """Wait until every row staged so far is committed (or failed): True when none is left,
        False if some still wait after ``timeout_s`` (the database cannot be written)."""
        loop = asyncio.get_running_loop()
        give_up_at = loop.time() + timeout_s
        while self._pending or self._kicked or self._draining is not None:
            if loop.time() >= give_up_at:
                return False
            await asyncio.sleep(0.005)
        return True

    def stage(self, row: dict[str, Any], written: Written) -> None:
        """Persist one version of a match; ``written(None)`` once committed, ``written(error)``
        when its transaction failed (a duplicate ``(match_id, version)`` included), so the
        caller never broadcasts an unlogged action. Called back from a loop callback, in the
        order rows were staged."""
        if self._stopped:
            written(RuntimeError("the action log writer stopped"))
            return
        self._pending.append((row, written))
        if not self._kicked:
            self._kicked = True
            asyncio.get_running_loop().call_soon(self._kick)

    async def append(self, row: dict[str, Any]) -> None:
        """``stage`` as an awaitable: returns once the row is committed, raises if it failed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def written(error: BaseException | None) -> None:
            if future.done():
                return
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)

        self.stage(row, written)
        await future

    def holds(self, match_id: int, account_id: int | None, seat: int, client_seq: int) -> bool:
        """Whether that action is staged and not yet committed (held while the database
        cannot be written): its answer comes once it is."""
        return any(
            row["match_id"] == match_id
            and row["client_seq"] == client_seq
            and row["seat"] == seat
            and row["account_id"] == account_id
            for row, _ in self._pending
        )

    def _kick(self) -> None:
        """Write everything staged during the last turn of the loop, inline when it can."""
        self._kicked = False
        if self._draining is not None or not self._pending:
            return  # the drain task takes them in order
        if self._sync is not None:
            try:
                while self._pending:
                    batch = self._pending[: self.max_batch]
                    self._write_sqlite([row for row, _ in batch], wait_ms=0)
                    del self._pending[: len(batch)]
                    self._committed(batch)
                return
            except Exception:
                # Locked elsewhere, the database unavailable, or a bad row: the drain task
                # waits for the lock on a thread, holds rows until the database is back, and
                # retries a failed batch's rows one by one.
                pass
        self._draining = asyncio.create_task(self._drain(), name="action-log-drain")

    async def _drain(self) -> None:
        """Write the staged rows in order. While the database cannot be written (down, locked
        by another process, out of space) the rows stay staged, unacknowledged, and are tried
        again with a growing pause until it can: nothing is lost and nothing is told early."""
        pause = RETRY_FIRST_S
        try:
            while self._pending:
                batch = self._pending[: self.max_batch]
                try:
                    await self._write_rows([row for row, _ in batch])
                except Exception as error:
                    if not database_unavailable(error):
                        del self._pending[: len(batch)]
                        await self._write_singly(batch, error)
                        continue
                    self._went_down(error)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_MAX_S)
                    continue
                del self._pending[: len(batch)]
                pause = RETRY_FIRST_S
                self._came_back()
                self._committed(batch)
        finally:
            self._draining = None

    async def _write_singly(
        self, batch: list[tuple[dict[str, Any], Written]], error: BaseException
    ) -> None:
        """A batch failed for a reason of its own rows: one bad row must not fail its
        neighbours, so each is tried alone. Should the database go away meanwhile, the rest
        go back to the head of the queue."""
        if len(batch) > 1:
            log.warning("action log batch of %d failed (%r); retrying singly", len(batch), error)
        for index, item in enumerate(batch):
            try:
                if len(batch) > 1:
                    await self._write_rows([item[0]])
            except Exception as failure:
                if database_unavailable(failure):
                    self._pending[:0] = batch[index:]
                    self._went_down(failure)
                    return
                self._settle([item], failure)
                continue
            if len(batch) == 1:
                self._settle([item], error)  # the one row is the bad one
                continue
            self._committed([item])

    def _went_down(self, error: BaseException) -> None:
        if self.unavailable is None:
            self.outages += 1
            log.warning(
                "the database cannot be written (%r): %d actions held until it can, new "
                "actions refused with server/unavailable",
                error,
                len(self._pending),
            )
        self.unavailable = error

    def _came_back(self) -> None:
        if self.unavailable is not None:
            log.warning("the database is back: held actions written")
        self.unavailable = None

    def _committed(self, batch: list[tuple[dict[str, Any], Written]]) -> None:
        self.batches += 1
        self.rows += len(batch)
        self._settle(batch, None)
        if self.after_commit is not None:
            try:
                self.after_commit()
            except Exception:
                log.exception("the action log's after-commit hook failed")

    @staticmethod
    def _settle(batch: list[tuple[dict[str, Any], Written]], error: BaseException | None) -> None:
        for _, written in batch:
            try:
                written(error)
            except Exception:  # one listener's bug must not hold back the other rows' news
                log.exception("an action log listener failed")

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
            # One timestamp per transaction: the rows were committed together.
            created_at = utcnow().strftime(SQLITE_DATETIME)
            connection.executemany(SQLITE_INSERT, [sqlite_params(row, created_at) for row in rows])
            connection.commit()
        except Exception as error:
            with contextlib.suppress(sqlite3.Error):
                connection.rollback()
            if isinstance(error, sqlite3.OperationalError) and not locked_elsewhere(error):
                # Out of space, an I/O error: open a fresh connection for the next try
                # rather than trust this one's state.
                self._reopen_sqlite()
            raise

    def _reopen_sqlite(self) -> None:
        if self._pooled is not None:
            with contextlib.suppress(Exception):
                self._pooled.invalidate()
        self._pooled = self._raw = None
        self._busy_timeout_ms = None

    async def _write_rows(self, rows: list[dict[str, Any]]) -> None:
        """One transaction of ``rows``; raises if it did not commit (nothing was written)."""
        if self._sync is not None:
            # The statement is fixed: hand it to the driver directly and skip SQLAlchemy's
            # per-call compile and type processing, the largest cost of an append.
            try:
                self._write_sqlite(rows, wait_ms=0)
            except sqlite3.OperationalError as busy:
                if not locked_elsewhere(busy):
                    raise
                # Another connection holds the write lock, perhaps a request's transaction
                # waiting for this very loop to run its next step: waiting for the lock
                # here would freeze the loop (a deadlock). Wait on a thread instead; the
                # loop keeps running. Past ``LOCK_WAIT_MS`` the database counts as
                # unavailable (another process holds it) and the drain keeps trying.
                await asyncio.to_thread(self._write_sqlite, rows, wait_ms=LOCK_WAIT_MS)
            return
        if self.postgres is not None:
            # A connection of its own and a prepared statement: SQLAlchemy's pool checkout,
            # compile and BEGIN/COMMIT cost the app more CPU than the rows themselves.
            await self.postgres.write(rows)
            return
        created_at = utcnow()  # another driver: through SQLAlchemy, the row's columns only
        async with self.engine.begin() as connection:
            await connection.execute(
                insert(MatchAction),
                [
                    {**{name: row[name] for name in ROW_COLUMNS}, "created_at": created_at}
                    for row in rows
                ],
            )
