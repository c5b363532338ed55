"""``python -m app backup`` while a server plays, ``restore`` into a new one: every match in the
copy replays to the same states as on the original server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.__main__ import migrate
from app.ops.db_lock import DatabaseInUse, exclusive, hold_shared
from tests.app.conftest import ServerFactory
from tests.app.support import ROOT, Api, Client, Server, app_command


async def play(players: list[Client], moves: int) -> None:
    """Alternate ``moves`` acknowledged tally moves between the two players."""
    for _ in range(moves):
        for seat, player in enumerate(players):
            await player.wait_until(lambda c, s=seat: c.view["turn"] == s and c.legal)
            seq = await player.act({"type": "move", "cell": (player.version * 3 + seat) % 20})
            await player.wait_for("ack", client_seq=seq)


async def test_backup_while_serving_then_restore_replays_the_same_states(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = make_server()
    api = Api(server)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_ids = [await api.table("tally", tokens, options={"target": 40}) for _ in range(2)]
    tables = [[await Client(server, m, t).connect() for t in tokens] for m in match_ids]
    await play(tables[0], 3)
    await play(tables[1], 2)

    # The copy is taken while the first table keeps playing.
    backup_path = tmp_path / "copies" / "rampart-backup.db"
    playing = asyncio.create_task(play(tables[0], 6))
    done = await asyncio.to_thread(app_command, server.database_url, "backup", str(backup_path))
    await playing
    assert done.returncode == 0, done.stderr
    assert "backed up to" in done.stdout
    with sqlite3.connect(backup_path) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        kept = dict(
            copy.execute(
                "SELECT match_id, max(version) FROM match_actions GROUP BY match_id"
            ).fetchall()
        )
    assert set(kept) == set(match_ids)

    # Restore into a new database (in the same folder: the generated secret is kept beside
    # the database, so the players' tokens still work) and serve it.
    restored_url = f"sqlite+aiosqlite:///{tmp_path}/restored.db"
    done = await asyncio.to_thread(app_command, restored_url, "restore", str(backup_path))
    assert done.returncode == 0, done.stderr
    restored = Server(restored_url)
    restored.start(tmp_path)
    try:
        again = Api(restored)
        for match_id in match_ids:
            version = kept[match_id]
            before = (await api.get(f"/api/matches/{match_id}/state", version=version)).json()
            after = (await again.get(f"/api/matches/{match_id}/state")).json()
            assert after["version"] == version
            assert after["view"] == before["view"]
            for seat, token in enumerate(tokens):
                mine = await again.get(f"/api/matches/{match_id}/state", token, seat=seat)
                theirs = await api.get(
                    f"/api/matches/{match_id}/state", token, version=version, seat=seat
                )
                assert mine.json()["view"] == theirs.json()["view"]
        # The restored match is live: a player reconnects and plays on from the copy.
        ann = await Client(restored, match_ids[1], tokens[0]).connect()
        assert ann.version == kept[match_ids[1]]
        await again.close()
    finally:
        restored.stop()
    await api.close()


def test_backup_refuses_a_postgres_database_and_restore_a_missing_file(tmp_path: Path) -> None:
    done = app_command("postgresql+asyncpg://u@127.0.0.1:1/x", "backup", str(tmp_path / "b.db"))
    assert done.returncode == 1
    assert "pg_dump" in done.stderr
    done = app_command(f"sqlite+aiosqlite:///{tmp_path}/r.db", "restore", str(tmp_path / "none"))
    assert done.returncode == 1
    assert "no backup at" in done.stderr


def test_restore_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    done = app_command(f"sqlite+aiosqlite:///{tmp_path}/r.db", "restore", str(junk))
    assert done.returncode == 1
    assert "not" in done.stderr and "database" in done.stderr
    assert not (tmp_path / "r.db").exists()


def accounts_in(database: Path) -> set[str]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return {row[0] for row in db.execute("SELECT name FROM accounts")}


def refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    """The command failed with one line on stderr, its own (``backup: ...``), that holds
    ``words``, and no traceback (other lines are start-up warnings, such as a stale build)."""
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    command = done.args[done.args.index("app") + 1]
    (line,) = [line for line in done.stderr.splitlines() if line.startswith(f"{command}:")]
    for word in words:
        assert word in line, done.stderr


async def test_restore_refuses_while_any_server_uses_the_database(tmp_path: Path) -> None:
    """Every server holds the database's lock shared for its whole life, so a restore refuses
    while one (idle or not, one of several on the file) is up; an account made after the
    refusal is in the database, nothing lost."""
    url = f"sqlite+aiosqlite:///{tmp_path}/live.db"
    servers = [Server(url), Server(url)]  # two processes on one file, as ``make cluster``
    try:
        for server in servers:
            server.start(tmp_path)
        api = Api(servers[0])
        await api.guest("ann")
        copy = tmp_path / "copy.db"
        assert app_command(url, "backup", str(copy)).returncode == 0
        refused(app_command(url, "restore", str(copy)), "in use by a running server")
        await api.guest("bob")  # the server goes on with the database it had
        await api.close()
        servers[0].stop()
        refused(app_command(url, "restore", str(copy)), "in use by a running server")
    finally:
        for server in servers:
            server.stop()
    assert accounts_in(tmp_path / "live.db") == {"ann", "bob"}
    done = app_command(url, "restore", str(copy))
    assert done.returncode == 0, done.stderr
    assert accounts_in(tmp_path / "live.db") == {"ann"}
    (kept,) = tmp_path.glob("live.db.before-restore-*")
    assert accounts_in(kept) == {"ann", "bob"}


def test_the_lock_is_shared_by_servers_and_exclusive_for_a_restore(tmp_path: Path) -> None:
    database = tmp_path / "r.db"
    first, second = hold_shared(database), hold_shared(database)  # two servers at once
    with pytest.raises(DatabaseInUse), exclusive(database):
        pass
    os.close(first)
    with pytest.raises(DatabaseInUse), exclusive(database):
        pass
    os.close(second)
    with exclusive(database):
        # A server starting now waits for the restore to finish.
        waiting = concurrent.futures.ThreadPoolExecutor(1)
        started = waiting.submit(hold_shared, database)
        with pytest.raises(concurrent.futures.TimeoutError):
            started.result(timeout=0.2)
    os.close(started.result(timeout=5))
    waiting.shutdown()


def test_the_lock_is_the_files_however_it_is_named(tmp_path: Path) -> None:
    """A server reaching the database through a symbolic link holds the same lock."""
    database = tmp_path / "r.db"
    database.write_bytes(b"")
    (tmp_path / "link.db").symlink_to(database)
    held = hold_shared(tmp_path / "link.db")
    with pytest.raises(DatabaseInUse), exclusive(database):
        pass
    os.close(held)


@pytest.fixture(scope="module")
def rampart_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated Rampart database with one account."""
    database = tmp_path_factory.mktemp("good") / "rampart.db"
    migrate(f"sqlite+aiosqlite:///{database}")
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute(
            "INSERT INTO accounts (name, name_key, password_hash, created_at) "
            "VALUES ('ann', 'ann', NULL, CURRENT_TIMESTAMP)"
        )
    return database


def not_rampart(path: Path, kind: str, good: Path) -> None:
    """Make at ``path`` a file (or folder) of ``kind`` that is no Rampart backup."""
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "not sqlite":
        path.write_bytes(b"PK\x03\x04 a zip file, say" * 100)
    elif kind == "other sqlite":
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    elif kind == "unknown revision":
        shutil.copy(good, path)
        with contextlib.closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    else:
        path.mkdir()


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("empty", ["empty (0 bytes)"]),
        ("not sqlite", ["not a SQLite database"]),
        ("other sqlite", ["not Rampart's", "accounts"]),
        ("unknown revision", ["9999_from_the_future", "does not know"]),
        ("directory", ["is a directory"]),
    ],
)
def test_restore_refuses_what_is_not_a_rampart_database_it_knows(
    tmp_path: Path, rampart_db: Path, kind: str, words: list[str]
) -> None:
    """Each refused with one line and rc 1, the current database left as it was."""
    database = tmp_path / "r.db"
    shutil.copy(rampart_db, database)
    candidate = tmp_path / "candidate.db"
    not_rampart(candidate, kind, rampart_db)
    refused(app_command(f"sqlite+aiosqlite:///{database}", "restore", str(candidate)), *words)
    assert accounts_in(database) == {"ann"}
    assert not list(tmp_path.glob("r.db.before-restore-*"))


def without_file_permissions() -> list[str]:
    """A command prefix under which file permissions apply even to root."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("root without setpriv: file permissions cannot be tested")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]


def test_bad_paths_are_one_line_refusals(tmp_path: Path, rampart_db: Path) -> None:
    url = f"sqlite+aiosqlite:///{rampart_db}"
    refused(app_command(url, "backup", "/proc/nope/x.db"), "cannot write", "/proc/nope")
    refused(app_command(url, "backup", str(tmp_path)), "is a directory")
    refused(app_command(url, "backup", str(rampart_db)), "the database itself")
    refused(app_command(url, "restore", str(rampart_db)), "the database itself")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    unreadable = tmp_path / "unreadable.db"
    shutil.copy(rampart_db, unreadable)
    unreadable.chmod(0)
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    for args, words in [
        (["backup", str(locked / "b.db")], ["cannot write", "Permission denied"]),
        (["restore", str(unreadable)], ["cannot read", "Permission denied"]),
    ]:
        done = subprocess.run(
            [*without_file_permissions(), sys.executable, "-m", "app", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        refused(done, *words)
    restored_into = f"sqlite+aiosqlite:///{tmp_path}/nowhere/x/r.db"
    (tmp_path / "nowhere").write_text("a file where a folder should be")
    refused(app_command(restored_into, "restore", str(rampart_db)), "Not a directory")
    assert accounts_in(rampart_db) == {"ann"}
