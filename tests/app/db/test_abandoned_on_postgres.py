"""A seat forfeited by abandonment is logged on PostgreSQL too: its cause,
``forfeit_abandoned``, is longer than the 16 characters the column had (SQLite never checked)."""

from __future__ import annotations

import asyncio

import pytest

from tests.app.conftest import BACKENDS, ServerFactory
from tests.app.support import Api


@pytest.mark.parametrize("backend", BACKENDS)
async def test_an_abandoned_seat_forfeits_and_the_match_ends(
    backend: str, make_server: ServerFactory
) -> None:
    server = make_server(backend)
    api = Api(server)
    ann, bob = await api.guest("Ann"), await api.guest("Bob")
    # Nobody connects: with a 1 s grace (50 ms of wall time at the tests' clock rate) the
    # seats are abandoned and the first forfeit ends the duel.
    match_id = await api.table("tally", [ann, bob], time_control={"grace_ms": 1000})
    shown = {}
    for _ in range(200):
        shown = (await api.get(f"/api/matches/{match_id}")).json()
        if shown["status"] == "finished":
            break
        await asyncio.sleep(0.05)
    assert shown["status"] == "finished", server.log_text()[-2000:]
    assert "abandoned" in shown["forfeits"].values()
    assert "session failed" not in server.log_text()
    await api.close()
