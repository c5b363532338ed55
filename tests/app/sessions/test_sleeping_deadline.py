"""A sleeping correspondence match still tells its player when his move is due: the deadline
of ``GET /api/accounts/me/matches`` comes from the clocks its wake-up row kept."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from app.sessions.timecontrol import DAY_MS
from tests.app.conftest import module_server
from tests.app.sessions.test_sleep_server import SLEEPY, until, wakeup_row
from tests.app.support import Api, Server

RATE = 20  # match ms per wall ms in these servers


@pytest.fixture(scope="module")
def sleepy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from module_server(tmp_path_factory, "sleepy-days", SLEEPY)


async def test_a_sleeping_correspondence_match_keeps_its_deadline(sleepy_server: Server) -> None:
    api = Api(sleepy_server)
    try:
        tokens = [await api.guest("slow hand"), await api.guest("slower hand")]
        control = {"days_per_move": 1}
        match_id = await api.table("tally", tokens, options={"target": 9}, time_control=control)
        await until(lambda: wakeup_row(sleepy_server, match_id) is not None)
        started = (await api.get(f"/api/matches/{match_id}")).json()["started_at"]
        started_ms = datetime.fromisoformat(started).timestamp() * 1000
        mine = (await api.get("/api/accounts/me/matches", tokens[0])).json()["matches"]
        (listed,) = [m for m in mine if m["match_id"] == match_id]
        assert listed["awaiting_you"] is True
        assert listed["deadline_ms"] is not None
        # Seat 0's day (72 minutes of wall time here) runs from the match's start.
        assert abs(listed["deadline_ms"] - (started_ms + DAY_MS / RATE)) < 2_000
        assert wakeup_row(sleepy_server, match_id) is not None  # reading it did not wake it
        theirs = (await api.get("/api/accounts/me/matches", tokens[1])).json()["matches"]
        (other,) = [m for m in theirs if m["match_id"] == match_id]
        assert other["awaiting_you"] is False and other["deadline_ms"] is None
    finally:
        await api.close()
