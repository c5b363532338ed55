"""Chaos: the disk under the SQLite file fills up mid-match (a real small filesystem: a tmpfs
of a few MB, filled by another file until the kernel says ENOSPC; SQLite then fails with
SQLITE_FULL). While it is full: the move in flight is held, unacknowledged; new actions are
refused with ``server/unavailable`` (``retry: true``); a REST write is a 503 with a code. Once
space returns: the held move is acknowledged, play goes on without a restart, the log holds
every acknowledged action and ``PRAGMA integrity_check`` says ok."""

from __future__ import annotations

import contextlib
import errno
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.support import Api, Server
from tests.fault.chaos_support import (
    DOWN_LOG_LINE,
    Duo,
    assert_retryable_refusal,
    no_tracebacks,
    serving,
    sqlite_path,
    stay_down,
    wait_for_log,
)

DISK_SIZE = "8m"


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[Path]:
    """A tmpfs of ``DISK_SIZE`` mounted on ``folder`` (skips where mounting is not allowed)."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_SIZE}", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the filesystem is full; returns it (delete it to free the space)."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        for chunk in (1 << 16, 1 << 12, 1 << 9):
            while True:
                try:
                    out.write(b"\0" * chunk)
                except OSError as full:
                    assert full.errno == errno.ENOSPC, full
                    break
    return filler


def truncate_wal(database: Path) -> None:
    """Copy the WAL into the database and cut it to zero bytes, so that the next commit needs
    new space on the disk (a WAL with room left would take a few more commits)."""
    connection = sqlite3.connect(database, timeout=10)
    try:
        for _ in range(100):
            busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
            time.sleep(0.05)
        raise AssertionError("the WAL could not be truncated")
    finally:
        connection.close()


def integrity(database: Path) -> str:
    connection = sqlite3.connect(database)
    try:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        connection.close()


async def test_a_full_disk_refuses_with_codes_loses_nothing_and_recovers_when_space_returns(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        url = f"sqlite+aiosqlite:///{disk}/rampart.db"
        async with serving(tmp_path, url) as (server, api):
            await full_mid_match(server, api, disk)
        assert integrity(disk / "rampart.db") == "ok"


async def full_mid_match(server: Server, api: Api, disk: Path) -> None:
    one = await Duo.start(server, api, ("ann", "bob"))
    two = await Duo.start(server, api, ("cat", "dan"))
    await one.play(2)
    await two.play(2)
    truncate_wal(sqlite_path(server))
    filler = fill(disk)
    held_by, held_seq, held_action = await one.send_move()
    await wait_for_log(server, DOWN_LOG_LINE)
    assert not any(m.get("client_seq") == held_seq for m in held_by.messages)
    mover, seq, action = await two.send_move()
    assert_retryable_refusal(await two.answer(mover, seq))
    await stay_down(two, mover, seq, action)
    # A REST write meets the full disk too: a 503 with a stable code, not a 500.
    rest = await api.client.post("/api/accounts", json={"name": "eve"})
    assert rest.status_code == 503, rest.text
    assert rest.json()["error"]["code"] == "server/unavailable"
    assert not any(m.get("client_seq") == held_seq for m in held_by.messages)
    filler.unlink()  # space returns
    reply = await one.answer(held_by, held_seq)
    one.record(held_by, reply, held_action)
    assert reply["version"] == 3
    start = len(mover.messages)
    await two.resend(mover, seq, action)
    two.record(mover, await two.answer(mover, seq, start), action)
    await one.play(3)
    await two.play(3)
    await one.assert_log_holds_every_ack(api)
    await two.assert_log_holds_every_ack(api)
    assert (await api.client.post("/api/accounts", json={"name": "eve"})).status_code == 201
    no_tracebacks(server)
