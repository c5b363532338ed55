"""Two server processes, one database, one Redis: any process serves any client."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import websockets

from tests.app.cluster.conftest import NodeFactory, needs_cluster
from tests.app.support import Api, Client, Server

pytestmark = needs_cluster


async def lobby_messages(node: Server) -> tuple[Any, list[dict[str, Any]]]:
    """A ``/ws/lobby`` socket on ``node`` and the list its messages arrive in."""
    socket = await websockets.connect(f"{node.ws}/ws/lobby")
    await socket.send(json.dumps({"type": "hello"}))  # else closed after RAMPART_HELLO_TIMEOUT_S
    heard: list[dict[str, Any]] = []

    async def read() -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in socket:
                heard.append(json.loads(raw))

    asyncio.get_running_loop().create_task(read())
    return socket, heard


async def eventually(condition: Any, timeout: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not reached"
        await asyncio.sleep(0.02)


async def test_a_match_started_on_one_process_is_played_through_both(
    cluster: NodeFactory,
) -> None:
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    feed, heard = await lobby_messages(two)
    tokens = [await api_one.guest(name) for name in ("ann", "bob", "cat")]
    lobby = await api_one.ok(
        "/api/lobbies", tokens[0], {"game": "tally", "seats": 3, "options": {"secrets": True}}
    )
    # The lobby was opened on process one; process two's lobby socket hears of it.
    await eventually(lambda: any(m.get("lobby", {}).get("id") == lobby["id"] for m in heard))
    await api_two.ok(f"/api/lobbies/{lobby['id']}/join", tokens[1])
    await api_one.ok(f"/api/lobbies/{lobby['id']}/join", tokens[2])
    started = await api_two.ok(f"/api/lobbies/{lobby['id']}/start", tokens[0])
    match_id = started["match_id"]  # started on process two: two owns it
    ann = await Client(one, match_id, tokens[0]).connect()  # relayed by process one
    bob = await Client(two, match_id, tokens[1]).connect()
    cat = await Client(one, match_id, tokens[2]).connect()
    watcher = await Client(one, match_id, None).connect()
    assert [ann.seat, bob.seat, cat.seat, watcher.seat] == [0, 1, 2, None]
    for version, client in enumerate([ann, bob, cat, ann, bob, cat], start=1):
        seq = await client.act({"type": "move", "cell": version})
        await client.wait_for("ack", client_seq=seq)
        for everyone in (ann, bob, cat, watcher):
            await everyone.wait_for("patch", version=version)
    # Hidden information survives the relay: each seat sees its own secret, the watcher none.
    secrets = {client.view["secret"] for client in (ann, bob, cat)}  # type: ignore[index]
    assert all(isinstance(secret, int) for secret in secrets)
    assert all("secret" not in json.dumps(message) for message in watcher.messages)
    # Refusals pass through the relay with their codes; the connection stays open.
    await ann.send_raw("{not json")
    assert (await ann.wait_for("error"))["code"] == "message/bad_json"
    seq = await bob.act({"type": "move", "cell": 0})  # not bob's turn
    assert (await bob.wait_for("error", client_seq=seq))["code"] != ""
    await ann.act({"type": "move", "cell": 9})
    await cat.wait_for("patch", version=7)
    # Either process says which one serves the match, for a balancer to route its sockets.
    for api in (api_one, api_two):
        route = (await api.get(f"/api/matches/{match_id}/route")).json()
        assert route == {"match_id": match_id, "node": f"http://127.0.0.1:{two.port}"}
    # Two runs the match, one relays it; both tell the same history over REST.
    health = [(await api.get("/api/health")).json() for api in (api_one, api_two)]
    assert [h["node"] for h in health] == [f"http://127.0.0.1:{n.port}" for n in (one, two)]
    assert [h["live_matches"] for h in health] == [0, 1]
    for api in (api_one, api_two):
        events = await api.get(f"/api/matches/{match_id}/events")
        lines = [json.loads(line) for line in events.text.splitlines()]
        assert events.status_code == 200 and lines[-1]["version"] == 7
    await feed.close()
    await api_one.close()
    await api_two.close()


async def test_the_last_seat_goes_to_one_player_when_two_processes_race_for_it(
    cluster: NodeFactory,
) -> None:
    one, two = cluster(), cluster()
    api_one, api_two = Api(one), Api(two)
    for round_number in range(4):
        host, left, right = [await api_one.guest(f"p{round_number}{n}") for n in "abc"]
        lobby = await api_one.ok("/api/lobbies", host, {"game": "tally", "seats": 2})
        path = f"/api/lobbies/{lobby['id']}/join"
        replies = await asyncio.gather(api_one.post(path, left), api_two.post(path, right))
        assert sorted(reply.status_code for reply in replies)[0] == 200
        assert sorted(reply.status_code for reply in replies)[1] == 409, [r.text for r in replies]
        seated = (await api_two.get(f"/api/lobbies/{lobby['id']}")).json()["members"]
        assert sum(member["account_id"] is not None for member in seated) == 2
    await api_one.close()
    await api_two.close()


async def test_a_dead_processs_match_is_taken_over_and_resumed(cluster: NodeFactory) -> None:
    one, two = cluster(), cluster()
    api = Api(one)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_id = await api.table("tally", tokens, options={"target": 50})  # owned by one
    ann = await Client(one, match_id, tokens[0]).connect()
    bob = await Client(two, match_id, tokens[1]).connect()  # relayed to one
    seq = await ann.act({"type": "move", "cell": 3})
    await ann.wait_for("ack", client_seq=seq)
    await bob.wait_for("patch", version=1)
    one.kill()
    await api.close()
    # The relay tells bob the owner went away; after the owner's TTL (1 s here) process two
    # takes the match over by replaying its log, and both players resume where they were.
    await bob.wait_until(lambda client: client._reader.done(), timeout=10)
    await asyncio.sleep(1.5)
    bob = await Client(two, match_id, tokens[1]).connect(last_version=1)
    ann = await Client(two, match_id, tokens[0]).connect(last_version=1)
    assert bob.of_type("welcome")[0]["resumed"] is True
    seq = await bob.act({"type": "move", "cell": 4})
    await bob.wait_for("ack", client_seq=seq)
    await ann.wait_for("patch", version=2)
    assert ann.view["n"] == 2  # type: ignore[index]


async def test_a_relay_to_an_unreachable_owner_says_so_and_asks_to_retry(
    cluster: NodeFactory,
) -> None:
    # A long TTL: the dead owner still looks alive, so process two relays instead of adopting.
    one, two = cluster(RAMPART_NODE_TTL_S="60"), cluster(RAMPART_NODE_TTL_S="60")
    api = Api(one)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_id = await api.table("tally", tokens)
    await api.close()
    one.kill()
    socket = await websockets.connect(f"{two.ws}/ws/matches/{match_id}")
    error = json.loads(await socket.recv())
    assert (error["type"], error["code"]) == ("error", "match/unavailable")
    with contextlib.suppress(websockets.ConnectionClosed):
        await socket.recv()
    assert socket.close_code == 1013


async def test_a_withdrawal_on_one_process_resigns_the_seat_where_the_match_runs(
    cluster: NodeFactory,
) -> None:
    # Bram never connects; a long grace keeps that from forfeiting him: only the resign ends it.
    one, two = [cluster(RAMPART_DISCONNECT_GRACE_MS="3600000") for _ in range(2)]
    api_one, api_two = Api(one), Api(two)
    organiser, bram = await api_one.guest("org"), await api_one.guest("bram")
    created = await api_one.ok(
        "/api/tournaments", organiser, {"game": "rampage", "format": "swiss"}
    )
    tid = created["id"]
    await api_one.ok(f"/api/tournaments/{tid}/open", organiser)
    await api_one.ok(f"/api/tournaments/{tid}/register", bram)
    await api_one.ok(f"/api/tournaments/{tid}/bots", organiser, {"kind": "heuristic", "count": 1})
    await api_one.ok(f"/api/tournaments/{tid}/start", organiser)  # round 1 opens on one
    [table] = (await api_one.get(f"/api/tournaments/{tid}/rounds/1/pairings")).json()
    match_id = table["match_id"]
    assert (await api_two.get(f"/api/matches/{match_id}/route")).json()["node"] == one.http
    assert (await api_two.get(f"/api/matches/{match_id}")).json()["status"] == "running"
    # Bram withdraws through process two; process one, which runs his match, resigns it.
    await api_two.ok(f"/api/tournaments/{tid}/withdraw", bram)
    await eventually_async(api_two, f"/api/matches/{match_id}", lambda m: m["status"] == "finished")
    events = (await api_two.get(f"/api/matches/{match_id}/events")).text
    assert '"resigned"' in events
    await api_one.close()
    await api_two.close()


async def eventually_async(api: Api, path: str, condition: Any, timeout: float = 20) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition((await api.get(path)).json()):
        assert asyncio.get_running_loop().time() < deadline, (await api.get(path)).json()
        await asyncio.sleep(0.1)
