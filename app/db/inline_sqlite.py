"""SQLite for the async engine without a thread hop per statement: waits alone go to a thread.

aiosqlite runs every call (cursor, execute, fetch, commit) on the connection's own thread and
wakes the event loop with the result: two GIL hand-overs and a self-pipe write per call, a
dozen per request. Worse, a request's transaction holds SQLite's write lock from its first
write until its COMMIT, and each step in between waits for the loop to come round to it: with
a thousand matches playing, a loop turn takes several milliseconds, so the lock was held for
tens of milliseconds per request, and every move's group commit queued behind it. Measured
(``bench/load.py --matches 1000 --open-rate 10``), opening ten tables a second took the moves'
p99 from 5 to over 200 ms.

``InlineConnection`` runs each call where it is awaited, on the loop, with SQLite's busy
timeout at zero: a local statement takes microseconds, and a transaction runs from its first
write to its COMMIT without yielding, so the lock is held only as long as the SQL takes. Only
when another connection holds the write lock (another process, a checkpoint, a test's
writer) does the call go to the connection's thread and wait there, up to
``WRITE_LOCK_WAIT_MS``, while the loop goes on serving every other match.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import aiosqlite

# Statements never wait for the lock on the loop; ``InlineConnection`` waits on its thread.
ON_LOOP_BUSY_TIMEOUT_MS = 0


def locked_elsewhere(error: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused a statement because another connection holds a lock."""
    return "database is locked" in str(error) or "database is busy" in str(error)


class InlineConnection(aiosqlite.Connection):
    """An aiosqlite connection whose calls run inline; a call refused for another
    connection's write lock is run again on the connection's thread, waiting for the lock."""

    def __init__(self, connector: Callable[[], sqlite3.Connection], wait_ms: int) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self._thread.daemon = True  # as SQLAlchemy's aiosqlite dialect sets it
        self.wait_ms = wait_ms

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        try:
            return fn(*args, **kwargs)
        except sqlite3.OperationalError as error:
            if not locked_elsewhere(error):
                raise
        # A refused statement changed nothing; run it again where waiting blocks no one.
        return await super()._execute(self._waiting, fn, args, kwargs)  # type: ignore[no-untyped-call]

    def _waiting(self, fn: Callable[..., Any], args: Any, kwargs: Any) -> Any:
        """On the connection's thread: ``fn`` with SQLite's busy timeout at ``wait_ms``."""
        connection = self._conn
        connection.execute(f"PRAGMA busy_timeout={self.wait_ms}")
        try:
            return fn(*args, **kwargs)
        finally:
            connection.execute(f"PRAGMA busy_timeout={ON_LOOP_BUSY_TIMEOUT_MS}")


def inline_creator(database: str, wait_ms: int) -> Callable[[], Any]:
    """``create_async_engine(async_creator=...)`` for a SQLite file: new connections are
    ``InlineConnection``s (opened on their thread, as aiosqlite opens them)."""

    async def connect() -> InlineConnection:
        def open_file() -> sqlite3.Connection:
            # Used from the loop and from the connection's thread, never at once.
            timeout_s = ON_LOOP_BUSY_TIMEOUT_MS / 1000
            return sqlite3.connect(database, timeout=timeout_s, check_same_thread=False)

        connection = InlineConnection(open_file, wait_ms)
        await connection  # starts its thread and opens the file there
        return connection

    return connect
