"""The async database engine and session factory (SQLite pragmas for durability and speed)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, event
from sqlalchemy import create_engine as sa_create_engine
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.db.inline_sqlite import ON_LOOP_BUSY_TIMEOUT_MS, inline_creator
from app.errors import AppError
from app.jsonenc import encode_text

# The JSON columns' text: the one encoder of ``app.jsonenc`` (the action log writes it too).
json_text = encode_text


def action_params(row: dict[str, Any], created_at: Any, no_arbitration: Any) -> tuple[Any, ...]:
    """A ``match_actions`` row as a driver's parameters, in column order: JSON columns as
    compact text (the events' text as the row brings it in ``events_json``, when it does: a
    session encodes a move's events once), a missing ``arbitration`` as ``no_arbitration``
    (what SQLAlchemy's JSON type stores for None on that database), ``created_at`` as the
    driver takes it."""
    arbitration = row["arbitration"]
    events = row.get("events_json") or json_text(row["events"])
    return (
        row["match_id"],
        row["version"],
        row["seat"],
        row["account_id"],
        row["client_seq"],
        json_text(row["action"]),
        row["at_ms"],
        row["cause"],
        events,
        no_arbitration if arbitration is None else json_text(arbitration),
        created_at,
    )


# How long a transaction waits for SQLite's write lock; past it a request answers 503
# ``server/busy`` (``app.api.errors``).
WRITE_LOCK_WAIT_MS = 30_000


# What SQLite says when it cannot write now but may later: another process holds the lock,
# the disk is full, the file is unreachable. A transaction refused so wrote nothing.
SQLITE_NOT_NOW = (
    "database is locked",
    "database is busy",
    "database or disk is full",
    "disk i/o error",
    "unable to open database file",
)


class DatabaseUnavailable(AppError):
    """The database cannot be written (or reached) now: retry later (503, ``retry``)."""

    status = 503

    def __init__(self, error: BaseException | None = None) -> None:
        detail = f" ({type(error).__name__})" if error is not None else ""
        super().__init__("server/unavailable", f"the database is unavailable{detail}; retry")


def database_unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the database cannot be used *now* (down, restarting, locked by
    another process, out of space) rather than that the statement is wrong: the same write
    will succeed once the database is back. Integrity and programming errors are not."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DatabaseUnavailable | OSError | TimeoutError):
            return True  # connection refused or reset, or the disk itself refused
        if isinstance(current, sqlite3.OperationalError):
            return any(text in str(current).lower() for text in SQLITE_NOT_NOW)
        if isinstance(current, sa_exc.DBAPIError) and current.connection_invalidated:
            return True
        if type(current).__name__ in PG_CONNECTION_ERRORS:
            return True
        current = getattr(current, "orig", None) or current.__cause__
    return False


# asyncpg's errors for a server that went away, is starting or shutting down, closed an idle
# session or is out of disk (by name: the driver is only installed for PostgreSQL), and
# SQLAlchemy's adapter names for them. The action log's own connection raises asyncpg's.
PG_CONNECTION_ERRORS = frozenset(
    {
        "PostgresConnectionError",
        "ConnectionDoesNotExistError",
        "ConnectionFailureError",
        "ClientCannotConnectError",
        "CannotConnectNowError",
        "AdminShutdownError",
        "CrashShutdownError",
        "IdleSessionTimeoutError",
        "ServerNotReadyError",
        "ConnectionRejectionError",
        "TooManyConnectionsError",
        "DiskFullError",
    }
)


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL; None for another database or an in-memory one."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return str(parsed.database)
    return None


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite file so a fresh checkout can start."""
    database = sqlite_file(url)
    if database is not None:
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def create_engine(url: str) -> AsyncEngine:
    """An async engine; for SQLite, WAL with synchronous=NORMAL.

    WAL + NORMAL keeps every committed transaction across a process kill (SIGKILL), which is
    the failure the action log must survive; only a power loss may drop the last commits.
    """
    ensure_sqlite_dir(url)
    kwargs: dict[str, Any] = {}
    if make_url(url).get_backend_name() != "sqlite":
        kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
    kwargs.update(json_serializer=json_text, json_deserializer=orjson.loads)
    database = sqlite_file(url)
    if database is not None:
        # Statements run on the loop; a wait for the write lock runs on a thread.
        kwargs["async_creator"] = inline_creator(database, WRITE_LOCK_WAIT_MS)
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        busy_timeout_ms = WRITE_LOCK_WAIT_MS if database is None else ON_LOOP_BUSY_TIMEOUT_MS
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas(busy_timeout_ms))
    return engine


def _sqlite_pragmas(busy_timeout_ms: int) -> Callable[[Any, Any], None]:
    """The ``connect`` hook: WAL, synchronous=NORMAL, foreign keys, and the busy timeout.

    A request waits for the write lock rather than fail with ``database is locked``
    (hundreds of lobbies opening while matches commit their moves make a long queue of
    writers), but never on the event loop: the async engine's connections wait on their own
    thread (``app.db.inline_sqlite``) and keep 0 here. The action log sets its own."""

    def set_up(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        cursor.close()

    return set_up


def create_sqlite_sync_engine(engine: AsyncEngine) -> Engine:
    """A blocking engine on the same SQLite file (pysqlite), for the action log writer."""
    sync = sa_create_engine(
        engine.url.set(drivername="sqlite"),
        json_serializer=json_text,
        json_deserializer=orjson.loads,
    )
    event.listen(sync, "connect", _sqlite_pragmas(WRITE_LOCK_WAIT_MS))
    return sync


class InlineClosingSession(AsyncSession):
    """A session whose ``async with`` closes it in the caller's task, for a SQLite file.

    SQLAlchemy's own closes the session in a task of its own and waits for that task, so that
    a cancellation cannot abandon the close half-way: the caller gives up the loop for a turn
    while the session still holds its connection (a session that only read holds one until
    it closes). With many requests at once, each holds its connection through that turn, the
    pool runs past its size and opens connections (a thread and a file each) that are closed
    again on their return, and past its overflow requests wait for one. On the inline
    connections (``app.db.inline_sqlite``) handing a connection back never waits (its rollback
    runs on the loop and takes no lock), so it is back before the task yields and there is no
    half-way point to abandon; only a connection the pool closes (one past its size, which
    this makes rare) waits for its thread."""

    async def __aexit__(self, type_: Any, value: Any, traceback: Any) -> None:
        await self.close()


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep their objects' values after a commit; on a SQLite file, closed in
    the caller's task (``InlineClosingSession``)."""
    if sqlite_file(engine.url.render_as_string(hide_password=False)) is not None:
        return async_sessionmaker(engine, expire_on_commit=False, class_=InlineClosingSession)
    return async_sessionmaker(engine, expire_on_commit=False)
