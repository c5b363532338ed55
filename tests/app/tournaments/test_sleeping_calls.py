"""A tournament table that fell asleep before its players were called: the first call that
reaches a player's page wakes it and starts his seat's grace again from that call; a later
call leaves it asleep."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.app.conftest import module_server
from tests.app.support import Api, Server
from tests.app.tournaments.test_calls import LobbyPage, duel

SLEEPY = {"RAMPART_HIBERNATE_AFTER_S": "0.3", "RAMPART_WAKE_POLL_S": "0.1"}


@pytest.fixture(scope="module")
def sleepy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Matches idle 0.3 s fall asleep; match time runs 20x wall time."""
    yield from module_server(tmp_path_factory, "sleepy-calls", SLEEPY)


def carry(server: Server, match_id: int) -> dict[str, Any] | None:
    """What the match's ``match_wakeups`` row keeps (None: it is awake)."""
    path = server.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        query = "SELECT carry FROM match_wakeups WHERE match_id = ?"
        row = db.execute(query, (match_id,)).fetchone()
    if row is None:
        return None
    kept = row[0]
    return dict(json.loads(kept) if isinstance(kept, str) else kept)


async def until(predicate: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := predicate()):
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.05)
    return found


async def test_a_sleeping_table_is_woken_by_the_first_call_and_its_grace_starts_again(
    sleepy_server: Server,
) -> None:
    api = Api(sleepy_server)
    try:
        tid, ann, bob = await duel(api, 3_600_000)
        before_start = time.monotonic()
        await api.ok(f"/api/tournaments/{tid}/start", ann)  # nobody has a page open
        started = time.monotonic()
        rounds = (await api.get(f"/api/tournaments/{tid}/rounds")).json()
        ((table,),) = [r["pairings"] for r in rounds]
        match_id = table["match_id"]
        match = (await api.get(f"/api/matches/{match_id}")).json()
        (bob_seat,) = [s["seat"] for s in match["seats"] if s["name"].startswith("Bob")]
        ann_seat = 1 - bob_seat
        asleep = await until(lambda: carry(sleepy_server, match_id))
        assert asleep["called"] == []
        assert asleep["away"][str(bob_seat)] == asleep["away"][str(ann_seat)]  # the opening

        await asyncio.sleep(1.0)  # 20 s of match time
        opening = time.monotonic()
        page = await LobbyPage(sleepy_server, bob).open()
        assert (await page.wait_for("table_ready"))["match_id"] == match_id
        called = time.monotonic()
        # Woken, told, and asleep again once quiet: Bob's seat is away since the call.
        await until(lambda: (carry(sleepy_server, match_id) or {}).get("called") == [bob_seat])
        again = carry(sleepy_server, match_id)
        assert again is not None
        # Match time runs 20x: the call came between the page's opening and its answer.
        since_call = again["away"][str(bob_seat)] - again["away"][str(ann_seat)]
        earliest, latest = (opening - started) * 20_000, (called - before_start) * 20_000
        assert earliest - 500 <= since_call <= latest + 500, (again, earliest, latest)

        # A later call changes nothing, so it leaves the table asleep.
        late = await LobbyPage(sleepy_server, bob).open()
        await late.wait_for("table_ready")
        for _ in range(10):
            assert carry(sleepy_server, match_id) == again
            await asyncio.sleep(0.05)
        await page.close()
        await late.close()
    finally:
        await api.close()
