"""Rematch against a real server: offered over REST, accepted over the match socket, a new
match with the same seats and the first seat passed on; the refusals."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.app.support import Api, Client, Server


async def match_of(api: Api, match_id: int) -> dict[str, Any]:
    data: dict[str, Any] = (await api.get(f"/api/matches/{match_id}")).json()
    return data


async def finished(api: Api, match_id: int) -> dict[str, Any]:
    for _ in range(200):
        match = await match_of(api, match_id)
        if match["status"] != "running":
            return match
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {match_id} did not end")


async def test_every_player_accepts_and_a_new_match_with_the_same_seats_starts(
    shared_server: Server, api: Api
) -> None:
    ann, bob, eve = [await api.guest(n) for n in ("rm ann", "rm bob", "rm eve")]
    match_id = await api.table("ambush", [ann, bob])
    ann_client = await Client(shared_server, match_id, ann).connect()
    bob_client = await Client(shared_server, match_id, bob).connect()
    early = await api.post(f"/api/matches/{match_id}/rematch", ann)
    assert early.status_code == 409 and early.json()["error"]["code"] == "rematch/not_finished"
    await ann_client.act({"type": "resign"})
    old = await finished(api, match_id)
    stranger = await api.post(f"/api/matches/{match_id}/rematch", eve)
    assert stranger.status_code == 403
    assert stranger.json()["error"]["code"] == "rematch/not_seated"
    missing = await api.post("/api/matches/999999/rematch", ann)
    assert missing.status_code == 404

    offered = await api.post(f"/api/matches/{match_id}/rematch", ann)
    assert offered.status_code == 200, offered.text
    state = offered.json()
    assert state["accepted"] == [ann_client.seat] and state["waiting"] == [bob_client.seat]
    assert state["new_match_id"] is None and 0 < state["expires_in_s"] <= 60
    heard = await bob_client.wait_for("rematch")
    assert heard["accepted"] == [ann_client.seat]

    await bob_client.send({"type": "rematch"})
    started = await ann_client.wait_for("rematch_started")
    assert (await bob_client.wait_for("rematch_started")) == started
    new_id = started["match_id"]
    assert new_id != match_id and started["from_match_id"] == match_id
    new = await match_of(api, new_id)
    assert new["status"] == "running" and new["game"] == "ambush"
    assert [s["account_id"] for s in new["seats"]] == [s["account_id"] for s in old["seats"]]
    assert new["options"]["first_seat"] == (old["options"]["first_seat"] + 1) % 2
    again = await api.post(f"/api/matches/{match_id}/rematch", bob)
    assert again.json()["new_match_id"] == new_id  # accepting late leads to the same match


async def test_a_spectator_socket_cannot_offer_and_bots_accept_at_once(
    shared_server: Server, api: Api
) -> None:
    solo = await api.guest("rm solo")
    # One bot: the player's resignation ends the match at once (with two, the bots would play
    # on to the end first, which takes seconds).
    match_id = await api.table("ambush", [solo], seats=2, bots="heuristic")
    player = await Client(shared_server, match_id, solo).connect()
    watcher = await Client(shared_server, match_id, None).connect()
    await player.act({"type": "resign"})
    await finished(api, match_id)
    await watcher.send({"type": "rematch"})
    refused = await watcher.wait_for("error")
    assert refused["code"] == "rematch/not_seated"
    await player.send({"type": "rematch"})
    started = await player.wait_for("rematch_started")
    new = await match_of(api, started["match_id"])
    assert [s["bot"] is not None for s in new["seats"]] == [False, True]
