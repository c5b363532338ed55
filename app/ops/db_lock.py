"""The "in use" lock of a SQLite database: every server holds it shared, a restore exclusive.

SQLite's own locks cannot tell whether a server has the file open: an idle server holds no
lock at all, and a restore that moved the file away under it would leave it writing into a
file nobody reads (its -wal deleted). So every process that serves the database takes an
``fcntl.flock`` on ``<database>.lock`` shared when it starts and keeps it until it exits (the
kernel lets go when the process ends, however it ends); several servers on one file (``make
cluster``) share it. A restore takes it exclusive without waiting, and so refuses while any
server is up; a server that starts while a restore runs waits for it to finish.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from collections.abc import Iterator
from pathlib import Path

from app.db.engine import sqlite_file

log = logging.getLogger(__name__)


class DatabaseInUse(Exception):
    """The database's lock is held by another process."""


def lock_path(database: Path) -> Path:
    """The lock file beside ``database``: beside the file itself, however it is reached (a
    relative path, a symbolic link), so every process names the same lock."""
    real = database.resolve()
    return real.with_name(f"{real.name}.lock")


def _open(database: Path) -> int:
    return os.open(lock_path(database), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)


def hold_shared(database: Path) -> int:
    """Take the database's lock shared for the rest of this process's life (waiting for a
    restore that holds it to finish); returns the lock file's descriptor, kept open."""
    fd = _open(database)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        log.warning("%s is being restored: waiting for the restore to finish", database)
        fcntl.flock(fd, fcntl.LOCK_SH)
    return fd


def hold_while_running(database_url: str) -> int | None:
    """``hold_shared`` on the SQLite file of ``database_url`` (its folder made if need be);
    None for another database, which has no such lock."""
    database = sqlite_file(database_url)
    if database is None:
        return None
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    return hold_shared(Path(database))


@contextlib.contextmanager
def exclusive(database: Path) -> Iterator[None]:
    """Hold the database's lock exclusive for the block; ``DatabaseInUse`` at once when a
    server (or another restore) holds it."""
    fd = _open(database)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as error:
            raise DatabaseInUse(str(database)) from error
        yield
    finally:
        os.close(fd)  # closing the last descriptor lets the lock go
