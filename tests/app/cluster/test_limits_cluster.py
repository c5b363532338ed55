"""The limits hold for the cluster: two processes on one Redis share the count of new accounts
and of open sockets per address, and of login attempts per name (one SQLite file shared, so
no PostgreSQL is needed)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from tests.app.cluster.conftest import needs_redis
from tests.app.ops.test_edge_limits import closed_with
from tests.app.support import Api, Client, Server, both_running

pytestmark = needs_redis


@pytest.fixture
def two_nodes(redis_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    env = {
        "RAMPART_REDIS_URL": redis_url,
        "RAMPART_NODE_TTL_S": "2",
        "RAMPART_ACCOUNT_ADDRESS_LIMIT": "3/minute",
        "RAMPART_SOCKETS_PER_ADDRESS": "2",
        "RAMPART_LOGIN_NAME_BURST": "2",
    }
    database = f"sqlite+aiosqlite:///{tmp_path}/rampart.db"
    nodes = (Server(database, dict(env)), Server(database, dict(env)))
    with both_running(nodes, tmp_path):
        yield nodes


async def test_limits_per_address_hold_across_processes(two_nodes: tuple[Server, Server]) -> None:
    await new_accounts_are_counted_across_processes(*two_nodes)
    await logins_are_counted_across_processes(*two_nodes)
    await open_sockets_are_counted_across_processes(*two_nodes)
    await a_relayed_socket_is_counted_once(*two_nodes)


async def new_accounts_are_counted_across_processes(one: Server, two: Server) -> None:
    sent = {"x-forwarded-for": "198.51.100.7"}
    statuses = []
    for n, node in enumerate((one, two, one, two)):
        reply = httpx.post(f"{node.http}/api/accounts", json={"name": f"c{n}"}, headers=sent)
        statuses.append(reply.status_code)
    assert statuses == [201, 201, 201, 429]
    assert reply.json()["error"]["code"] == "rate/limited"
    other = {"x-forwarded-for": "198.51.100.8"}
    assert httpx.post(f"{one.http}/api/accounts", json={"name": "c9"}, headers=other).is_success


async def logins_are_counted_across_processes(one: Server, two: Server) -> None:
    body = {"name": "c0", "password": "not the password"}
    nodes = (one, two, one)
    statuses = [httpx.post(f"{n.http}/api/sessions", json=body).status_code for n in nodes]
    assert statuses == [401, 401, 429]


async def open_sockets_are_counted_across_processes(one: Server, two: Server) -> None:
    sent = {"x-forwarded-for": "198.51.100.9"}

    async def lobby(node: Server) -> tuple[websockets.ClientConnection, str]:
        """A lobby socket on ``node`` and the type of its first message (``lobbies``, or an
        ``error`` before the server closes it)."""
        ws = await websockets.connect(f"{node.ws}/ws/lobby", additional_headers=sent)
        first = json.loads(await ws.recv())
        if first["type"] == "lobbies":
            await ws.send(json.dumps({"type": "hello"}))
        return ws, first["type"]

    (first, _), (second, _) = await lobby(one), await lobby(two)
    crowded, said = await lobby(one)
    assert said == "error"
    code, _said = await closed_with(crowded)
    assert code == 4429
    await second.close()  # its place, taken on the other process, comes back
    for _ in range(20):
        third, said = await lobby(one)
        if said == "lobbies":
            break
        await asyncio.sleep(0.1)  # the other process has not given the place back yet
    else:
        pytest.fail("the place of a closed socket never came back")
    await first.close()
    await third.close()


async def a_relayed_socket_is_counted_once(one: Server, two: Server) -> None:
    """Two match sockets from 127.0.0.1 (the limit) on the process that does not serve the
    match: each is relayed to the owner, which does not count the relay a second time."""
    api = Api(one)
    tokens = [await api.guest("relay host"), await api.guest("relay guest")]
    match_id = await api.table("tally", tokens)
    owner = (await api.get(f"/api/matches/{match_id}/route")).json()["node"]
    elsewhere = two if owner == one.http else one
    assert owner in (one.http, two.http) and owner != elsewhere.http
    seats = [await Client(elsewhere, match_id, token).connect() for token in tokens]
    assert all(seat.seat is not None for seat in seats)  # both welcomed through the relay
    for seat in seats:
        await seat.close()
    await api.close()
