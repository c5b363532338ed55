"""Sleeping matches in a server process: a hello wakes one, a REST read does not, and a
deadline of a sleeping match fires with nobody connected, across a restart too."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.conftest import module_server
from tests.app.support import Api, Client, Server, app_command

SLEEPY = {"RAMPART_HIBERNATE_AFTER_S": "0.3", "RAMPART_WAKE_POLL_S": "0.1"}


@pytest.fixture(scope="module")
def sleepy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Matches idle 0.3 s fall asleep; match time runs 20x wall time."""
    yield from module_server(tmp_path_factory, "sleepy", SLEEPY)


def wakeup_row(server: Server, match_id: int) -> tuple[Any, ...] | None:
    """The match's ``match_wakeups`` row (``due_at``, ``taken_by``), read from its SQLite file."""
    path = server.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        query = "SELECT due_at, taken_by FROM match_wakeups WHERE match_id = ?"
        row: tuple[Any, ...] | None = db.execute(query, (match_id,)).fetchone()
        return row


async def until(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.05)


async def live_matches(api: Api) -> int:
    text = (await api.get("/metrics")).text
    found = re.search(r"^rampart_matches_live (\S+)$", text, re.MULTILINE)
    assert found is not None, text
    return int(float(found.group(1)))


async def test_a_hello_wakes_a_sleeping_match_and_its_next_move_is_accepted(
    sleepy_server: Server,
) -> None:
    api = Api(sleepy_server)
    try:
        tokens = [await api.guest("dozer"), await api.guest("waker")]
        control = {"grace_ms": 0}
        match_id = await api.table("tally", tokens, options={"target": 9}, time_control=control)
        ann = await Client(sleepy_server, match_id, tokens[0]).connect()
        seq = await ann.act({"type": "move", "cell": 0})
        await ann.wait_for("ack", client_seq=seq)
        await ann.close()
        await until(lambda: wakeup_row(sleepy_server, match_id) is not None)
        # A REST read answers from the log and leaves it asleep.
        state = (await api.get(f"/api/matches/{match_id}/state")).json()
        assert state["version"] == 1
        assert wakeup_row(sleepy_server, match_id) is not None
        bob = await Client(sleepy_server, match_id, tokens[1]).connect()
        assert bob.version == 1 and bob.view is not None and bob.view["turn"] == 1
        assert wakeup_row(sleepy_server, match_id) is None
        seq = await bob.act({"type": "move", "cell": 3})
        assert (await bob.wait_for("ack", client_seq=seq))["version"] == 2
    finally:
        await api.close()


async def test_a_sleeping_match_times_out_with_nobody_connected(sleepy_server: Server) -> None:
    api = Api(sleepy_server)
    try:
        tokens = [await api.guest("absent"), await api.guest("also absent")]
        # 40 s of match time: 2 s of wall time, long after it fell asleep.
        control = {"turn_ms": 40_000, "on_timeout": "forfeit", "grace_ms": 0}
        match_id = await api.table("tally", tokens, options={"target": 9}, time_control=control)
        await until(lambda: wakeup_row(sleepy_server, match_id) is not None)
        row = wakeup_row(sleepy_server, match_id)
        assert row is not None and row[0] is not None
        await until(lambda: wakeup_row(sleepy_server, match_id) is None, timeout=10)
        for _ in range(100):
            match = (await api.get(f"/api/matches/{match_id}")).json()
            if match["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        assert match["status"] == "finished"
        assert match["forfeits"] == {"0": "time"}
    finally:
        await api.close()


async def test_a_deadline_due_while_the_server_was_down_fires_after_the_restart(
    tmp_path: Path,
) -> None:
    env = {**SLEEPY, "RAMPART_CLOCK_RATE": "100"}
    server = Server(f"sqlite+aiosqlite:///{tmp_path}/restart.db", env)
    server.start(tmp_path)
    api = Api(server)
    try:
        tokens = [await api.guest("sleeper"), await api.guest("dreamer")]
        # 200 s of match time: 2 s of wall time.
        control = {"turn_ms": 200_000, "on_timeout": "forfeit", "grace_ms": 0}
        match_id = await api.table("tally", tokens, options={"target": 9}, time_control=control)
        # Nothing is ever due in this one (no clock, no grace): it sleeps through the restart.
        idle = {"grace_ms": 0}
        awake = await api.table("tally", tokens, options={"target": 9}, time_control=idle)
        await until(lambda: wakeup_row(server, match_id) is not None)
        await until(lambda: wakeup_row(server, awake) is not None)
        row = wakeup_row(server, match_id)
        assert row is not None
        server.kill()  # no shutdown hooks: what is in SQL is all there is
        await api.close()
        while time.time() * 1000 < row[0] + 200:
            await asyncio.sleep(0.1)  # its deadline passes while no server runs
        server.start(tmp_path)
        api = Api(server)
        for _ in range(200):
            match = (await api.get(f"/api/matches/{match_id}")).json()
            if match["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        assert match["status"] == "finished" and match["forfeits"] == {"0": "time"}
        assert match["result"]["placings"][0] == [1]
        # The other match was asleep too: start-up left it in SQL, not in memory.
        assert wakeup_row(server, awake) is not None
        assert await live_matches(api) == 0
    finally:
        await api.close()
        server.stop()


async def test_a_ban_resigns_the_seat_of_a_sleeping_match(sleepy_server: Server) -> None:
    api = Api(sleepy_server)
    try:
        warden = await api.guest("Sleep Warden")
        name = (await api.get("/api/accounts/me", warden)).json()["name"]
        granted = app_command(sleepy_server.database_url, "admin", "grant", name)
        assert granted.returncode == 0, granted.stderr
        tokens = [await api.guest("good sleeper"), await api.guest("bad sleeper")]
        bad_id = (await api.get("/api/accounts/me", tokens[1])).json()["id"]
        control = {"grace_ms": 0}
        match_id = await api.table("tally", tokens, options={"target": 9}, time_control=control)
        await until(lambda: wakeup_row(sleepy_server, match_id) is not None)
        banned = await api.ok(f"/api/admin/players/{bad_id}/ban", warden, {"reason": "abuse"})
        assert banned["resigned_in"] == [match_id]
        for _ in range(100):
            match = (await api.get(f"/api/matches/{match_id}")).json()
            if match["status"] == "finished":
                break
            await asyncio.sleep(0.05)
        assert match["forfeits"] == {"1": "banned"}
    finally:
        await api.close()
