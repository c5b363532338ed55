"""Quick play against a real server: the queue's REST, the lobby socket's ``matched``, the
started match the players are seated in, bots after a wait, and the refusals."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from typing import Any

import websockets

from tests.app.support import Api, Client, Server

_pools = itertools.count(1)


def own_pool() -> dict[str, Any]:
    """A time control no other test uses: tickets of different tests never meet."""
    return {"turn_ms": 60_000 + next(_pools), "on_timeout": "pass"}


class LobbyListener:
    """A ``/ws/lobby`` socket that said hello with a token, collecting what it hears."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None

    async def open(self, server: Server, token: str) -> LobbyListener:
        self.ws = await websockets.connect(f"{server.ws}/ws/lobby")
        await self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                self.messages.append(json.loads(raw))

    async def wait_for(self, kind: str, timeout: float = 15) -> dict[str, Any]:
        for _ in range(int(timeout * 20)):
            for message in self.messages:
                if message.get("type") == kind:
                    return message
            await asyncio.sleep(0.05)
        raise AssertionError(f"no {kind}; heard {[m.get('type') for m in self.messages]}")

    async def close(self) -> None:
        await self.ws.close()
        if self.reader is not None:
            await self.reader


async def queue(api: Api, token: str, **body: Any) -> dict[str, Any]:
    reply = await api.post("/api/queue", token, {"game": "ambush", "seats": 2, **body})
    assert reply.status_code == 202, reply.text
    data: dict[str, Any] = reply.json()
    return data


async def ticket_state(api: Api, token: str, ticket: str) -> dict[str, Any]:
    reply = await api.get(f"/api/queue/{ticket}", token)
    assert reply.status_code == 200, reply.text
    data: dict[str, Any] = reply.json()
    return data


async def matched(api: Api, token: str, ticket: str) -> dict[str, Any]:
    for _ in range(300):
        state = await ticket_state(api, token, ticket)
        if state["status"] != "waiting":
            return state
        await asyncio.sleep(0.05)
    raise AssertionError(f"ticket {ticket} still waiting")


async def test_two_players_meet_and_are_seated_in_a_started_match(
    shared_server: Server, api: Api
) -> None:
    ann, bob = await api.guest("qp ann"), await api.guest("qp bob")
    ann_feed = await LobbyListener().open(shared_server, ann)
    bob_feed = await LobbyListener().open(shared_server, bob)
    await asyncio.sleep(0.2)  # both hellos read before the tickets are paired
    pool = own_pool()
    first = await queue(api, ann, rated=True, time_control=pool)
    assert first["status"] == "waiting" and first["ticket"]
    second = await queue(api, bob, rated=True, time_control=pool)
    heard = [await ann_feed.wait_for("matched"), await bob_feed.wait_for("matched")]
    assert heard[0]["ticket"] == first["ticket"] and heard[1]["ticket"] == second["ticket"]
    match_id = heard[0]["match_id"]
    assert heard[1]["match_id"] == match_id
    state = await ticket_state(api, ann, first["ticket"])
    assert state["status"] == "matched" and state["match_id"] == match_id
    assert state["waited_s"] >= 0 and state["estimate_s"] >= 0
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["status"] == "running" and match["rated"] is True
    assert match["time_control"]["turn_ms"] == pool["turn_ms"]
    names = [seat["name"] for seat in match["seats"]]
    assert len(set(names)) == 2 and all(names)  # castle names drawn
    assert all(seat["bot"] is None for seat in match["seats"])
    ann_client = await Client(shared_server, match_id, ann).connect()
    bob_client = await Client(shared_server, match_id, bob).connect()
    assert {ann_client.seat, bob_client.seat} == {0, 1}
    await ann_feed.close()
    await bob_feed.close()


async def test_only_the_owner_reads_or_cancels_and_a_second_ticket_replaces_the_first(
    api: Api,
) -> None:
    ann, eve = await api.guest("qp owner"), await api.guest("qp eve")
    pool = own_pool()
    first = await queue(api, ann, rated=False, time_control=pool)
    assert (await api.get(f"/api/queue/{first['ticket']}", eve)).status_code == 404
    foreign = await api.client.delete(
        f"/api/queue/{first['ticket']}", headers={"authorization": f"Bearer {eve}"}
    )
    assert foreign.status_code == 404 and foreign.json()["error"]["code"] == "queue/not_found"
    assert (await api.get(f"/api/queue/{first['ticket']}")).status_code == 401
    second = await queue(api, ann, rated=False, time_control=pool, seats=3)
    assert (await ticket_state(api, ann, first["ticket"]))["status"] == "cancelled"
    assert (await ticket_state(api, ann, second["ticket"]))["status"] == "waiting"
    cancelled = await api.client.delete(
        f"/api/queue/{second['ticket']}", headers={"authorization": f"Bearer {ann}"}
    )
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert (await ticket_state(api, ann, second["ticket"]))["match_id"] is None


async def test_refusals_have_stable_codes(api: Api) -> None:
    token = await api.guest("qp refused")
    cases = [
        ({"game": "ambush", "seats": 2, "rated": True, "bots_after_s": 5}, 422, "queue/rated_bots"),
        ({"game": "nope", "seats": 2}, 404, "queue/unknown_game"),
        ({"game": "rampage", "seats": 3}, 422, "queue/bad_seats"),
        ({"game": "ambush", "seats": 1}, 422, "request/invalid"),
        ({"game": "ambush", "seats": 2, "bots_after_s": -1}, 422, "request/invalid"),
    ]
    for body, status, code in cases:
        reply = await api.post("/api/queue", token, body)
        assert reply.status_code == status, (body, reply.text)
        assert reply.json()["error"]["code"] == code
    assert (await api.post("/api/queue", None, {"game": "ambush", "seats": 2})).status_code == 401


async def test_bots_fill_a_casual_table_after_bots_after_s(api: Api) -> None:
    token = await api.guest("qp lonely")
    ticket = await queue(api, token, seats=3, bots_after_s=0, time_control=own_pool())
    state = await matched(api, token, ticket["ticket"])
    assert state["status"] == "matched"
    match = (await api.get(f"/api/matches/{state['match_id']}")).json()
    assert match["rated"] is False
    kinds = sorted((seat["bot"] or "human") for seat in match["seats"])
    assert kinds == ["heuristic", "heuristic", "human"]


async def test_rated_and_casual_players_do_not_meet(api: Api) -> None:
    ann, bob = await api.guest("qp rated"), await api.guest("qp casual")
    pool = own_pool()
    rated = await queue(api, ann, rated=True, time_control=pool)
    casual = await queue(api, bob, rated=False, time_control=pool)
    await asyncio.sleep(1.5)  # a few pairing rounds: the two are alone, and never meet
    assert (await ticket_state(api, ann, rated["ticket"]))["status"] == "waiting"
    assert (await ticket_state(api, bob, casual["ticket"]))["status"] == "waiting"
    # A second casual player meets the casual one; the rated one goes on waiting.
    cid = await api.guest("qp casual 2")
    other = await queue(api, cid, rated=False, time_control=pool)
    state = await matched(api, cid, other["ticket"])
    assert (await ticket_state(api, bob, casual["ticket"]))["match_id"] == state["match_id"]
    assert (await ticket_state(api, ann, rated["ticket"]))["status"] == "waiting"
    await api.client.delete(
        f"/api/queue/{rated['ticket']}", headers={"authorization": f"Bearer {ann}"}
    )
