"""A tournament's call to a table crosses processes: a page on another process than the one
that opened the table is called, and word that it was reaches the process running the match,
whose grace for that player then starts again."""

from __future__ import annotations

import asyncio

from tests.app.cluster.conftest import NodeFactory, needs_cluster
from tests.app.support import Api, Client
from tests.app.tournaments.test_calls import LobbyPage

pytestmark = needs_cluster


async def test_a_call_on_another_process_starts_the_grace_where_the_match_runs(
    cluster: NodeFactory,
) -> None:
    """At the nodes' 20x clock a 60 s grace is 3 s of wall time. Ann's page, on process two,
    opens 1.5 s after her table opened on process one: she is forfeited 3 s after that call,
    not 3 s after the opening."""
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    ann, bob = await api_one.guest("ann"), await api_one.guest("bob")
    body = {"game": "rampage", "format": "swiss", "rounds": 1, "time_control": {"grace_ms": 60_000}}
    tid = (await api_one.ok("/api/tournaments", ann, body))["id"]
    await api_one.ok(f"/api/tournaments/{tid}/open", ann)
    for token in (ann, bob):
        await api_one.ok(f"/api/tournaments/{tid}/register", token)
    bob_page = await LobbyPage(two, bob).open()
    await asyncio.sleep(0.3)  # the hello is read before the start
    await api_one.ok(f"/api/tournaments/{tid}/start", ann)  # the table opens on process one
    opened = asyncio.get_running_loop().time()
    call = await bob_page.wait_for("table_ready")  # heard on process two
    match_id = call["match_id"]
    assert call["fresh"] and call["tournament_id"] == tid
    assert (await api_two.get(f"/api/matches/{match_id}/route")).json()["node"] == one.http
    await Client(one, match_id, bob).connect()  # Bob sits down at once
    await asyncio.sleep(1.5)
    ann_page = await LobbyPage(two, ann).open()
    assert (await ann_page.wait_for("table_ready"))["fresh"] is False
    await asyncio.sleep(opened + 3.8 - asyncio.get_running_loop().time())
    match = (await api_two.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "running", match  # 3.8 s after the opening: not forfeited
    deadline = opened + 12
    while (await api_two.get(f"/api/matches/{match_id}")).json()["status"] == "running":
        assert asyncio.get_running_loop().time() < deadline, "the grace never ran out"
        await asyncio.sleep(0.2)
    assert asyncio.get_running_loop().time() - opened >= 4.4  # 1.5 s + 3 s, less slack
    await ann_page.wait_for("table_closed")
    await bob_page.wait_for("table_closed")
    for page in (ann_page, bob_page):
        await page.close()
    await api_one.close()
    await api_two.close()
