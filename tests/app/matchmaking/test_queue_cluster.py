"""Quick play across processes: two server processes on one Redis share one queue; tickets
taken by different processes meet, and a process that dies loses no other process's ticket."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.app.cluster.conftest import NodeFactory, cluster, needs_cluster, redis_url  # noqa: F401
from tests.app.matchmaking.test_queue import LobbyListener, matched, queue
from tests.app.support import Api, Client

pytestmark = needs_cluster


async def test_tickets_taken_by_two_processes_meet_and_survive_a_dead_process(
    cluster: NodeFactory,  # noqa: F811
) -> None:
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    ann, bob = await api_one.guest("ann"), await api_two.guest("bob")
    # Each hears on the other process's lobby socket: the news crosses the cluster.
    ann_feed = await LobbyListener().open(two, ann)
    bob_feed = await LobbyListener().open(one, bob)
    await asyncio.sleep(0.3)
    control: dict[str, Any] = {"turn_ms": 30_000}
    first = await queue(api_one, ann, rated=True, time_control=control)
    second = await queue(api_two, bob, rated=True, time_control=control)
    heard = [await ann_feed.wait_for("matched"), await bob_feed.wait_for("matched")]
    assert heard[0]["match_id"] == heard[1]["match_id"]
    assert heard[0]["ticket"] == first["ticket"] and heard[1]["ticket"] == second["ticket"]
    # Either process reads a ticket, whichever took it.
    state = (await api_two.get(f"/api/queue/{first['ticket']}", ann)).json()
    assert state["status"] == "matched" and state["match_id"] == heard[0]["match_id"]
    await ann_feed.close()
    await bob_feed.close()

    # A ticket taken by process two outlives it: process one pairs it with a newcomer.
    cat, dan = await api_two.guest("cat"), await api_one.guest("dan")
    waiting = await queue(api_two, cat, rated=False, time_control=control)
    await api_two.close()
    two.kill()
    arrived = await queue(api_one, dan, rated=False, time_control=control)
    met = await matched(api_one, dan, arrived["ticket"])
    cat_state = (await api_one.get(f"/api/queue/{waiting['ticket']}", cat)).json()
    assert cat_state["status"] == "matched" and cat_state["match_id"] == met["match_id"]
    seats = (await api_one.get(f"/api/matches/{met['match_id']}")).json()["seats"]
    assert sorted(s["account_id"] is not None for s in seats) == [True, True]
    await api_one.close()


async def test_a_rematch_is_accepted_through_two_processes(
    cluster: NodeFactory,  # noqa: F811
) -> None:
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    ann, bob = await api_one.guest("ann"), await api_two.guest("bob")
    match_id = await api_one.table("ambush", [ann, bob])
    ann_client = await Client(one, match_id, ann).connect()
    bob_feed = await LobbyListener().open(two, bob)
    await ann_client.act({"type": "resign"})
    for _ in range(200):
        if (await api_two.get(f"/api/matches/{match_id}")).json()["status"] != "running":
            break
        await asyncio.sleep(0.05)
    offered = await api_two.post(f"/api/matches/{match_id}/rematch", bob)
    assert offered.status_code == 200, offered.text
    assert offered.json()["accepted"] == [1 - (ann_client.seat or 0)]
    heard = await ann_client.wait_for("rematch")  # offered on two, heard on one
    assert heard["waiting"] == [ann_client.seat]
    accepted = await api_one.post(f"/api/matches/{match_id}/rematch", ann)
    new_id = accepted.json()["new_match_id"]
    assert new_id is not None and new_id != match_id
    started = await bob_feed.wait_for("rematch_started")
    assert started["match_id"] == new_id
    await bob_feed.close()
    await api_one.close()
    await api_two.close()


async def test_no_process_queues_or_pairs_a_player_seated_in_a_match_another_serves(
    cluster: NodeFactory,  # noqa: F811
) -> None:
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    ann, bob, cat = (
        await api_one.guest("ann"),
        await api_two.guest("bob"),
        await api_one.guest("cat"),
    )
    control: dict[str, Any] = {"turn_ms": 31_000}
    first = await queue(api_one, ann, time_control=control)
    match_id = await api_two.table("tally", [ann, cat])  # served by process two
    refused = await api_one.post("/api/queue", ann, {"game": "ambush", "seats": 2})
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["match_id"] == match_id
    # Ann's earlier ticket (taken by process one) is passed over by whichever process pairs.
    second = await queue(api_two, bob, time_control=control)
    await asyncio.sleep(1.5)  # a few pairing rounds
    assert (await api_two.get(f"/api/queue/{first['ticket']}", ann)).json()["status"] == "waiting"
    assert (await api_one.get(f"/api/queue/{second['ticket']}", bob)).json()["status"] == "waiting"
    await api_one.close()
    await api_two.close()
