"""The action log's PostgreSQL writes: one dedicated asyncpg connection, one prepared insert.

Through SQLAlchemy each commit cost the app about 0.9 ms of CPU (a pool checkout with its
pre-ping, the statement's compile and type processing, ``BEGIN`` and ``COMMIT``, as
bench/PERF.md measured). Here the statement is fixed and the connection held for the writer's
life: a batch is one ``executemany`` of a prepared insert, which asyncpg sends as one pipeline
ended by a single Sync, so one round trip and one implicit transaction (all the batch's rows or
none). It cost the app less CPU than one ``INSERT ... SELECT FROM unnest(...)`` of ten arrays
at every batch size measured (bench/PERF.md, "The PostgreSQL action log on a connection of its
own").
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.engine import DatabaseUnavailable, action_params, database_unavailable
from app.db.models import utcnow

# The JSON columns (PostgreSQL ``json``: SQLAlchemy's JSON there) are sent as their text and
# cast on the server, whatever codecs the connection has.
PG_INSERT = (
    "INSERT INTO match_actions (match_id, version, seat, account_id, client_seq, action, at_ms,"
    " cause, events, arbitration, created_at) VALUES ($1, $2, $3, $4, $5, $6::text::json, $7,"
    " $8, $9::text::json, $10::text::json, $11)"
)


def pg_params(row: dict[str, Any], created_at: datetime) -> tuple[Any, ...]:
    """One row as ``PG_INSERT``'s parameters, the JSON values as SQLAlchemy's JSON type sends
    them: compact text, a missing ``arbitration`` as JSON ``null`` (its ``none_as_null`` is
    off), so a row reads back the same whichever path wrote it."""
    return action_params(row, created_at, "null")


async def discard(connection: AsyncConnection) -> None:
    """Close a connection and take it out of the pool; never raises. Invalidating closes the
    driver's connection (gracefully when it can, within 2 s, else at once) and frees its place
    in the pool."""
    with contextlib.suppress(Exception):
        await connection.invalidate()
    with contextlib.suppress(Exception):
        await connection.close()


class PostgresActionLog:
    """Writes batches of ``match_actions`` rows on a connection of its own.

    The connection is checked out of the engine's pool once (so it is made with the engine's
    URL, arguments and codecs) and used through its asyncpg driver. After a connection loss
    it is dropped and the next ``write`` opens another: ``ActionLogWriter`` keeps the rows
    staged and tries again meanwhile.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._connection: AsyncConnection | None = None
        self._driver: Any = None  # the asyncpg connection
        self._insert: Any = None  # its prepared ``PG_INSERT``
        self.opened = 0  # connections opened so far

    @property
    def backend_pid(self) -> int | None:
        """The server process of the held connection; None when none is held or it is known
        to be closed (the next ``write`` opens another)."""
        if self._driver is None or self._driver.is_closed():
            return None
        return int(self._driver.get_server_pid())

    async def write(self, rows: list[dict[str, Any]]) -> None:
        """One transaction of ``rows``; raises if it did not commit (nothing was written)."""
        insert = await self._prepared()
        try:
            # One timestamp per transaction: the rows were committed together.
            created_at = utcnow()
            await insert.executemany([pg_params(row, created_at) for row in rows])
        except BaseException as error:
            # A row refused (a duplicate, a value out of range) leaves the connection as it
            # was; anything else (lost, cancelled mid-statement) may not have.
            lost = not isinstance(error, Exception) or self._driver.is_closed()
            unavailable = isinstance(error, Exception) and database_unavailable(error)
            if lost or unavailable:
                await self.close()
            if lost and isinstance(error, Exception) and not unavailable:
                # However asyncpg words it, a lost connection is not the rows' fault: they
                # stay staged for the next connection.
                raise DatabaseUnavailable(error) from error
            raise

    async def _prepared(self) -> Any:
        if self._driver is not None and self._driver.is_closed():
            # The server closed it while it was idle (a restart): open another before the
            # write, as the pool's pre-ping would, rather than fail a try.
            await self.close()
        if self._insert is None:
            connection = await self.engine.connect()
            try:
                raw = await connection.get_raw_connection()
                driver: Any = raw.driver_connection
                insert = await driver.prepare(PG_INSERT)
            except BaseException:
                await discard(connection)
                raise
            self._connection, self._driver, self._insert = connection, driver, insert
            self.opened += 1
        return self._insert

    async def close(self) -> None:
        """Close the held connection (if any): it leaves the pool rather than go back to it, its
        state unknown after a failure, and the writer's own otherwise. Never raises."""
        connection = self._connection
        self._connection = self._driver = self._insert = None
        if connection is not None:
            await discard(connection)
