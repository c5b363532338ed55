"""Your turn across processes: a player's lobby socket on one process hears ``your_turn`` from
a match another process plays, and either process lists the match with whether it awaits
him (the process that plays it adds the deadline)."""

from __future__ import annotations

from typing import Any

from tests.app.cluster.conftest import NodeFactory, needs_cluster
from tests.app.cluster.test_two_nodes import eventually
from tests.app.support import Api, Client
from tests.app.tournaments.test_calls import LobbyPage

pytestmark = needs_cluster


async def listed(api: Api, token: str, match_id: int) -> dict[str, Any]:
    reply = await api.get("/api/accounts/me/matches", token)
    assert reply.status_code == 200, reply.text
    (match,) = [m for m in reply.json()["matches"] if m["match_id"] == match_id]
    return dict(match)


async def test_your_turn_reaches_a_page_on_the_other_process(cluster: NodeFactory) -> None:
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    ann, bob = await api_one.guest("Ann"), await api_one.guest("Bob")
    ann_page = await LobbyPage(one, ann).open()
    bob_page = await LobbyPage(one, bob).open()
    control = {"turn_ms": 3_600_000, "on_timeout": "pass", "grace_ms": 0}
    body = {"game": "tally", "seats": 2, "options": {"target": 50}, "time_control": control}
    lobby = await api_two.ok("/api/lobbies", ann, body)
    await api_two.ok(f"/api/lobbies/{lobby['id']}/join", bob)
    match_id = (await api_two.ok(f"/api/lobbies/{lobby['id']}/start", ann))["match_id"]
    # Process two plays the match; Ann's page on process one hears that it awaits her.
    await eventually(lambda: [m["awaiting_you"] for m in ann_page.of_type("your_turn")] == [True])
    table = await Client(two, match_id, ann).connect()
    seq = await table.act({"type": "move", "cell": 0})
    await table.wait_for("ack", client_seq=seq)
    await eventually(lambda: [m["awaiting_you"] for m in bob_page.of_type("your_turn")] == [True])
    await eventually(lambda: len(ann_page.of_type("your_turn")) == 2)
    assert ann_page.of_type("your_turn")[1]["awaiting_you"] is False
    # Process one reads the match from its log: Bob is awaited; the deadline is the owner's.
    here, there = await listed(api_one, bob, match_id), await listed(api_two, bob, match_id)
    assert here["awaiting_you"] is True and here["deadline_ms"] is None
    assert there["awaiting_you"] is True and there["deadline_ms"] is not None
    assert (await listed(api_one, ann, match_id))["awaiting_you"] is False
    for page in (ann_page, bob_page):
        await page.close()
    await api_one.close()
    await api_two.close()
