"""Quick play never seats a player in a second live match: a player seated in a running match
is refused a ticket (``queue/already_playing``, with the match to rejoin), and a ticket whose
owner sat down in a match after queueing is passed over by the pairing while that match runs."""

from __future__ import annotations

import asyncio

from tests.app.matchmaking.test_queue import matched, own_pool, queue, ticket_state
from tests.app.moderation.test_moderation import finished, play, play_to_the_end
from tests.app.support import Api, Client, Server


async def test_a_seated_player_is_refused_a_ticket_with_the_match_to_rejoin(
    api: Api, shared_server: Server
) -> None:
    ann, bob = await api.guest("seated ann"), await api.guest("seated bob")
    clients = await play(api, shared_server, [ann, bob], options={"target": 1})
    match_id = int(clients[0].url.rsplit("/", 1)[1])
    refused = await api.post("/api/queue", ann, {"game": "ambush", "seats": 2})
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "queue/already_playing" and error["match_id"] == match_id
    # Once the match is over, the same player queues.
    await play_to_the_end(clients, 1)
    await finished(api, match_id)
    ticket = await queue(api, ann, time_control=own_pool())
    assert ticket["status"] == "waiting"


async def test_the_pairing_passes_over_a_player_who_sat_down_after_queueing(
    api: Api, shared_server: Server
) -> None:
    ann, bob, cat, dan = [await api.guest(f"later {n}") for n in ("ann", "bob", "cat", "dan")]
    pool = own_pool()
    first = await queue(api, ann, time_control=pool)
    # Ann sits down at a table before anyone else queues in her pool.
    table = await api.table("tally", [ann, dan], options={"target": 1})
    ann_client = await Client(shared_server, table, ann).connect()
    dan_client = await Client(shared_server, table, dan).connect()
    second = await queue(api, bob, time_control=pool)
    await asyncio.sleep(0.1)
    third = await queue(api, cat, time_control=pool)
    state = await matched(api, cat, third["ticket"])  # pairing rounds ran: Bob met Cat
    assert (await ticket_state(api, bob, second["ticket"]))["match_id"] == state["match_id"]
    held = await ticket_state(api, ann, first["ticket"])
    assert held["status"] == "waiting" and held["match_id"] is None
    # Her match over, Ann's ticket is paired again.
    await play_to_the_end([ann_client, dan_client], 1)
    await finished(api, table)
    eve = await api.guest("later eve")
    fourth = await queue(api, eve, time_control=pool)
    assert (await matched(api, ann, first["ticket"]))["status"] == "matched"
    assert (await matched(api, eve, fourth["ticket"]))["status"] == "matched"
