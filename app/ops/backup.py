"""``python -m app backup PATH`` and ``restore PATH``: online copies of the embedded SQLite file.

A backup is SQLite's own online backup (``sqlite3.Connection.backup``) copied in one step:
under WAL it reads one consistent snapshot while the server keeps committing moves (a WAL
reader blocks no writer), so it is safe while serving. The copy is checked
(``PRAGMA integrity_check``) before it replaces ``PATH``, so a half-written file never takes
a backup's name.

A restore first checks that the file is a Rampart database this code knows (SQLite, sound,
Rampart's tables, a schema revision among the migrations'), then takes the database's "in use"
lock exclusive (``app.ops.db_lock``: every server holds it shared for its whole life), so it
refuses while any server uses the database. Holding it, it keeps the database it replaces
beside it, copies the backup in the same way as a backup and migrates it to the newest schema.
PostgreSQL has its own tools (``pg_dump``/``pg_restore``, see the README): these commands
refuse any other database. Every refusal is a ``BackupError`` with a one-line message.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from alembic.script import ScriptDirectory

from app.db.engine import sqlite_file
from app.ops.db_lock import DatabaseInUse, exclusive

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
SQLITE_HEADER = b"SQLite format 3\x00"
# The tables of the first migration, which every revision has.
RAMPART_TABLES = frozenset({"accounts", "matches", "lobbies", "match_actions", "match_seats"})


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@cache
def known_revisions() -> frozenset[str]:
    """The schema revisions of the migrations this code ships."""
    return frozenset(r.revision for r in ScriptDirectory(str(MIGRATIONS)).walk_revisions())


def _database_file(database_url: str) -> Path:
    database = sqlite_file(database_url)
    if database is None:
        raise BackupError(
            "backup and restore handle the embedded SQLite database only; for PostgreSQL use "
            "pg_dump and pg_restore (README, 'Operating')"
        )
    return Path(database)


def _cannot(action: str, path: Path, error: OSError) -> BackupError:
    """An OS error as one line: what could not be done to which file, and the system's reason."""
    return BackupError(f"cannot {action} {error.filename or path}: {error.strerror or error}")


def _copy(source: sqlite3.Connection, target_path: Path) -> None:
    """Copy ``source`` into a new file at ``target_path`` (replaced atomically once checked)."""
    partial = target_path.with_name(f".{target_path.name}.partial")
    try:
        partial.open("wb").close()  # a plain open first: its error names the reason
    except OSError as error:
        raise _cannot("write", target_path, error) from error
    try:
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
    except sqlite3.Error as error:
        raise BackupError(f"the copy to {target_path} failed: {error}") from error
    except OSError as error:
        raise _cannot("write", target_path, error) from error
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def backup(database_url: str, path: Path) -> int:
    """Copy the live database to ``path``; returns the copy's size in bytes."""
    database = _database_file(database_url)
    if not database.exists():
        raise BackupError(f"no database at {database}")
    if path.is_dir():
        raise BackupError(f"{path} is a directory: name the backup file, e.g. {path}/rampart.db")
    if path.resolve() == database.resolve():
        raise BackupError(f"{path} is the database itself: name another file")
    try:
        database.open("rb").close()
    except OSError as error:
        raise _cannot("read", database, error) from error
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _cannot("write", path, error) from error
    try:
        source = sqlite3.connect(database, timeout=30)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open the database {database}: {error}") from error
    try:
        _copy(source, path)
    finally:
        source.close()
    return path.stat().st_size


def check_backup(path: Path) -> sqlite3.Connection:
    """Open the backup at ``path`` read-only once it is shown to be a sound Rampart database of
    a schema revision this code knows; a ``BackupError`` says what it is instead."""
    if not path.exists():
        raise BackupError(f"no backup at {path}")
    if path.is_dir():
        raise BackupError(f"{path} is a directory, not a backup file")
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        raise _cannot("read", path, error) from error
    if not header:
        raise BackupError(f"{path} is empty (0 bytes), not a Rampart database")
    if header != SQLITE_HEADER:
        raise BackupError(f"{path} is not a SQLite database, so not a Rampart backup")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        verdict = source.execute("PRAGMA integrity_check").fetchone()
        if verdict is None or verdict[0] != "ok":
            raise BackupError(f"{path} is not a sound SQLite database: {verdict}")
        tables = {row[0] for row in source.execute("SELECT name FROM sqlite_master")}
        missing = RAMPART_TABLES - tables
        if "alembic_version" not in tables or missing:
            raise BackupError(
                f"{path} is a SQLite database but not Rampart's (no "
                f"{', '.join(sorted(missing)) or 'alembic_version'} table)"
            )
        revisions = [row[0] for row in source.execute("SELECT version_num FROM alembic_version")]
        if len(revisions) != 1 or revisions[0] not in known_revisions():
            raise BackupError(
                f"{path} has schema revision {', '.join(revisions) or 'none'}, which this "
                f"version of Rampart does not know (it knows {min(known_revisions())} to "
                f"{max(known_revisions())}): restore it with the version that made it"
            )
    except sqlite3.Error as error:
        source.close()
        raise BackupError(f"{path} is not a readable SQLite database: {error}") from error
    except BackupError:
        source.close()
        raise
    return source


def restore(database_url: str, path: Path, migrate: Callable[[str], None]) -> Path | None:
    """Replace the configured database with the backup at ``path`` and ``migrate`` it, while no
    server uses it; returns where the replaced database was kept (None when there was none)."""
    database = _database_file(database_url)
    if path.exists() and database.exists() and path.resolve() == database.resolve():
        raise BackupError(f"{path} is the database itself: restore from a backup file")
    source = check_backup(path)
    try:
        try:
            database.parent.mkdir(parents=True, exist_ok=True)
            with exclusive(database):
                kept = _set_aside(database)
                try:
                    _copy(source, database)
                except BackupError:
                    if kept is not None:
                        os.replace(kept, database)  # put the database back as it was
                    raise
                migrate(database_url)
        except OSError as error:
            raise _cannot("write", database, error) from error
        except DatabaseInUse as error:
            raise BackupError(
                f"{database} is in use by a running server: stop every server using it "
                "before restoring"
            ) from error
    finally:
        source.close()
    return kept


def _set_aside(database: Path) -> Path | None:
    """Move the database (and its -wal/-shm files) out of the way, to ``NAME.before-restore-T``;
    refuses while a process holds it open for writing (one that does not take the lock)."""
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
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = database.with_name(f"{database.name}.before-restore-{stamp}")
    for again in range(2, 1000):
        if not kept.exists():
            break
        kept = database.with_name(f"{database.name}.before-restore-{stamp}-{again}")
    os.replace(database, kept)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{database}{suffix}").unlink()
    return kept
