"""Rating pools: a rated correspondence match moves the game's correspondence ladder only, and
the ladder listing shows one pool at a time (``?pool=``, real-time by default)."""

from __future__ import annotations

import asyncio

from app.scoring.pools import pool_of
from tests.app.support import Api, Client, Server


def test_days_per_move_rates_in_the_correspondence_pool() -> None:
    assert pool_of({"days_per_move": 7}) == "correspondence"
    assert pool_of({"turn_ms": 30_000, "on_timeout": "pass"}) == "realtime"
    assert pool_of({}) == pool_of(None) == "realtime"


async def game_ladder(rest: Api, pool: str | None) -> dict[str, object]:
    params = {"game": "rampage"} | ({"pool": pool} if pool else {})
    listed = (await rest.get("/api/ladders", **params)).json()
    assert {lad["pool"] for lad in listed} == {pool or "realtime"}
    (ladder,) = [lad for lad in listed if lad["kind"] == "game"]
    return dict(ladder)


async def test_a_rated_correspondence_match_moves_the_correspondence_ladder(
    rest: Api, fast_server: Server
) -> None:
    realtime, days = await game_ladder(rest, None), await game_ladder(rest, "correspondence")
    assert realtime == await game_ladder(rest, "realtime") and realtime["id"] != days["id"]
    assert days["name"] == "Castle Rampage (correspondence)"
    ann, bob = await rest.guest("ann"), await rest.guest("bob")
    club = await rest.ok(
        "/api/ladders", ann, {"game": "rampage", "name": "Postal club", "pool": "correspondence"}
    )
    assert club["pool"] == "correspondence"
    for token in (ann, bob):
        await rest.ok(f"/api/ladders/{club['id']}/join", token)
    match_id = await rest.table(
        "rampage", [ann, bob], rated=True, time_control={"days_per_move": 2}
    )
    client = await Client(fast_server, match_id, ann).connect()
    await client.act({"type": "resign"})
    await client.wait_until(lambda c: c.view and c.view["outcome"] is not None)
    ann_id = (await rest.get(f"/api/matches/{match_id}")).json()["seats"][0]["account_id"]
    for _ in range(40):
        history = (await rest.get(f"/api/players/{ann_id}/ratings")).json()
        if len(history) == 2:
            break
        await asyncio.sleep(0.1)
    assert {h["ladder_id"] for h in history} == {days["id"], club["id"]}
    assert (await rest.get(f"/api/ladders/{realtime['id']}/entries")).json() == []
    board = (await rest.get(f"/api/ladders/{days['id']}/entries")).json()
    assert {row["name"]: row["wins"] for row in board} == {"ann": 0, "bob": 1}
    profile = (await rest.get(f"/api/players/{ann_id}")).json()
    assert {lad["ladder"]["pool"] for lad in profile["ladders"]} == {"correspondence"}


async def test_pool_values_are_checked(rest: Api) -> None:
    reply = await rest.get("/api/ladders", pool="postal")
    assert reply.status_code == 422 and reply.json()["error"]["code"] == "request/invalid"
    token = await rest.guest("organiser")
    body = {"game": "ambush", "name": "Slow grabs", "pool": "correspondence"}
    reply = await rest.post("/api/ladders", token, body)
    assert reply.status_code == 422 and reply.json()["error"]["code"] == "ladder/realtime_only"
    listed = (await rest.get("/api/ladders", game="ambush", pool="correspondence")).json()
    assert listed == []
