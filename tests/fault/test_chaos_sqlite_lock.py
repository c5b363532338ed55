"""Chaos: the SQLite file write-locked by another process mid-match (``BEGIN EXCLUSIVE`` held
from a separate process). While it is: the move in flight is held, unacknowledged; new actions
are refused at once with ``server/unavailable`` (``retry: true``); other matches still welcome
newcomers and answer REST reads. Released: the held move is acknowledged, the refused one sent
again is played, and the log holds every acknowledged action. No restart."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from app.realtime.peer import DEAD_LINK_MS
from tests.app.support import Api, Client, Server
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

# Holds SQLite's write lock from another process until a line arrives on its stdin.
LOCKER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], timeout=10, isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
connection.execute("COMMIT")
"""


@contextlib.contextmanager
def locked_by_another_process(database: Path) -> Iterator[Callable[[], None]]:
    """The file write-locked by a separate process; yields ``release``."""
    locker = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(database)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert locker.stdin is not None and locker.stdout is not None
    assert locker.stdout.readline().strip() == "locked"

    def release() -> None:
        if locker.poll() is None:
            assert locker.stdin is not None
            locker.stdin.write("\n")
            locker.stdin.flush()
            locker.wait(10)

    try:
        yield release
    finally:
        if locker.poll() is None:
            locker.kill()
            locker.wait(10)
        locker.stdin.close()
        locker.stdout.close()


async def test_a_locked_database_refuses_new_actions_retryably_and_play_resumes_by_itself(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as (server, api):
        await locked_mid_match(server, api)


async def locked_mid_match(server: Server, api: Api) -> None:
    one = await Duo.start(server, api, ("ann", "bob"))
    two = await Duo.start(server, api, ("cat", "dan"))
    await one.play(2)
    await two.play(2)
    with locked_by_another_process(sqlite_path(server)) as release:
        held_by, held_seq, held_action = await one.send_move()
        await wait_for_log(server, DOWN_LOG_LINE)
        # The held move is not acknowledged (nor shown to anyone) while it is not durable.
        assert not any(m.get("client_seq") == held_seq for m in held_by.messages)
        assert all(client.version == 2 for client in one.clients)
        # Sent again meanwhile, it is neither refused nor played twice.
        await one.resend(held_by, held_seq, held_action)
        # Another match: a new action is refused at once, retryably, and nothing moves.
        mover, seq, action = await two.send_move()
        refusal = await two.answer(mover, seq)
        assert_retryable_refusal(refusal)
        # Longer than the server's dead-link time (no answered ping for that long): the
        # sockets of the held match, quiet meanwhile, must stay open all the same.
        await stay_down(two, mover, seq, action, minimum_s=DEAD_LINK_MS / 1000 + 1.5)
        # That match still serves: a newcomer is welcomed, REST reads answer.
        watcher = await Client(server, two.match_id, None).connect()
        assert watcher.version == 2
        state = await api.get(f"/api/matches/{two.match_id}/state", two.tokens[0])
        assert state.status_code == 200, state.text
        assert not any(m.get("client_seq") == held_seq for m in held_by.messages)
        release()
    # The lock is gone: the held move is acknowledged once written, then everyone hears it.
    reply = await one.answer(held_by, held_seq)
    one.record(held_by, reply, held_action)
    assert reply["version"] == 3
    assert [m["type"] for m in held_by.messages if m.get("client_seq") == held_seq] == ["ack"]
    # The refused move, sent again with the same client_seq, is played now.
    start = len(mover.messages)
    await two.resend(mover, seq, action)
    two.record(mover, await two.answer(mover, seq, start), action)
    await watcher.wait_for("patch", version=3)
    await one.play(3)
    await two.play(3)
    await one.assert_log_holds_every_ack(api)
    await two.assert_log_holds_every_ack(api)
    assert sorted(one.acked) == [1, 2, 3, 4, 5, 6]
    no_tracebacks(server)
