"""``python -m app backup PATH`` and ``restore PATH``: online copies of the embedded SQLite file.

A backup is SQLite's own online backup (``sqlite3.Connection.backup``) copied in one step:
under WAL it reads one consistent snapshot while the server keeps committing moves (a WAL
reader blocks no writer), so it is safe while serving. The copy is checked
(``PRAGMA integrity_check``) before it replaces ``PATH``, so a half-written file never takes
a backup's name. A restore copies a checked backup into the configured database the same way,
keeping the database it replaces beside it, then migrates it to the newest schema; the server
must be stopped while it runs. PostgreSQL has its own tools (``pg_dump``/``pg_restore``, see
the README): these commands refuse any other database.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from app.db.engine import sqlite_file


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def _database_file(database_url: str) -> Path:
    database = sqlite_file(database_url)
    if database is None:
        raise BackupError(
            "backup and restore handle the embedded SQLite database only; for PostgreSQL use "
            "pg_dump and pg_restore (README, 'Operating')"
        )
    return Path(database)


def _copy(source: sqlite3.Connection, target_path: Path) -> None:
    """Copy ``source`` into a new file at ``target_path`` (replaced atomically once checked)."""
    partial = target_path.with_name(f".{target_path.name}.partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    target = sqlite3.connect(partial)
    try:
        source.backup(target)  # one step: a single consistent snapshot of the source
        verdict = target.execute("PRAGMA integrity_check").fetchone()
        if verdict is None or verdict[0] != "ok":
            raise BackupError(f"the copy failed its integrity check: {verdict}")
        # A self-contained file: no -wal beside it to lose when it is moved or mailed.
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
    os.replace(partial, target_path)


def backup(database_url: str, path: Path) -> int:
    """Copy the live database to ``path``; returns the copy's size in bytes."""
    database = _database_file(database_url)
    if not database.exists():
        raise BackupError(f"no database at {database}")
    path.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(database, timeout=30)
    try:
        _copy(source, path)
    finally:
        source.close()
    return path.stat().st_size


def restore(database_url: str, path: Path) -> Path | None:
    """Replace the configured database with the backup at ``path``; returns where the replaced
    database was kept (None when there was none)."""
    database = _database_file(database_url)
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        verdict = source.execute("PRAGMA integrity_check").fetchone()
        if verdict is None or verdict[0] != "ok":
            raise BackupError(f"{path} is not a sound SQLite database: {verdict}")
        kept = _set_aside(database)
        database.parent.mkdir(parents=True, exist_ok=True)
        _copy(source, database)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a SQLite database: {error}") from error
    finally:
        source.close()
    return kept


def _set_aside(database: Path) -> Path | None:
    """Move the database (and its -wal/-shm files) out of the way, to ``NAME.before-restore-T``;
    refuses while a server holds it open for writing."""
    if not database.exists():
        return None
    probe = sqlite3.connect(database, timeout=0)
    try:
        probe.execute("BEGIN IMMEDIATE")  # fails at once if a writer is active
        probe.execute("ROLLBACK")
        probe.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError as error:
        raise BackupError(f"{database} is in use: stop the server before restoring") from error
    finally:
        probe.close()
    kept = database.with_name(f"{database.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
    os.replace(database, kept)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{database}{suffix}").unlink()
    return kept
