"""A storm of wrong-password logins does not stall the event loop: a real server keeps answering
``/api/health`` and a live match's moves while the passwords are being checked.

No wall-clock threshold: the test counts how many health probes and match round trips finish
between the first and the last reply of the storm. With argon2 on the event loop each check
blocks the loop, so at most one or two probes slip in between two checks; off the loop, dozens
do (a check takes far longer than a probe on any machine, busy or not).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import httpx

from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client

STORM = 6
# Off the loop a probe takes a few milliseconds and a check a few hundred: the bound asks for
# far fewer than that, and for more than a blocked loop can give (one or two per check).
PROBES_PER_CHECK = 4


async def repeat_until(stop: asyncio.Event, probe: Callable[[], Awaitable[None]]) -> list[float]:
    """Run ``probe`` back to back until ``stop``; the loop time each one finished at."""
    loop = asyncio.get_running_loop()
    finished: list[float] = []
    while not stop.is_set():
        await probe()
        finished.append(loop.time())
    return finished


async def test_a_login_storm_leaves_health_and_a_live_match_responsive(
    make_server: ServerFactory,
) -> None:
    # One argon2 thread whatever the machine: the checks then follow one another, and the
    # window between the first reply and the last spans STORM - 1 of them.
    server = make_server(
        RAMPART_PASSWORD_WORKERS="1",
        RAMPART_LOGIN_NAME_BURST="1000",
        RAMPART_LOGIN_ADDRESS_BURST="1000",
        RAMPART_PASSWORD_QUEUE="64",
        # The movers play flat out, one move per round trip: past the per-connection message
        # limit on a fast server (30 a second), which is not what this test is about.
        RAMPART_RATE_PER_S="100000",
        RAMPART_RATE_BURST="100000",
    )
    api = Api(server)
    made = await api.client.post(
        "/api/accounts", json={"name": "Storm Target", "password": "the right password"}
    )
    assert made.status_code == 201
    tokens = [await api.guest("mover one"), await api.guest("mover two")]
    match_id = await api.table("tally", tokens, options={"target": 1_000_000})
    movers = [await Client(server, match_id, token).connect() for token in tokens]
    version = 0

    async def move() -> None:
        nonlocal version
        seat = version % 2
        mover = movers[seat]
        start = len(mover.messages)
        seq = await mover.act({"type": "move", "cell": (version * 7 + seat) % 20})
        ack = await mover.wait_for("ack", start=start, client_seq=seq)
        version = int(ack["version"])

    prober = httpx.AsyncClient(base_url=server.http, timeout=30)

    async def health() -> None:
        assert (await prober.get("/api/health")).status_code == 200

    loop = asyncio.get_running_loop()
    answered: list[float] = []

    async def wrong_login(index: int, client: httpx.AsyncClient) -> int:
        body = {"name": "Storm Target", "password": f"wrong guess {index}"}
        reply = await client.post("/api/sessions", json=body)
        answered.append(loop.time())
        return reply.status_code

    stop = asyncio.Event()
    health_probes = asyncio.create_task(repeat_until(stop, health))
    round_trips = asyncio.create_task(repeat_until(stop, move))
    # One connection per login, as from separate players.
    storm_clients = [httpx.AsyncClient(base_url=server.http, timeout=60) for _ in range(STORM)]
    try:
        statuses = await asyncio.gather(
            *(wrong_login(i, client) for i, client in enumerate(storm_clients))
        )
    finally:
        stop.set()
        health_times, move_times = await health_probes, await round_trips
        for client in storm_clients:
            await client.aclose()
        await prober.aclose()
        await api.close()
    assert statuses == [401] * STORM
    first, last = min(answered), max(answered)
    healths = sum(1 for t in health_times if first < t < last)
    moves = sum(1 for t in move_times if first < t < last)
    assert healths >= PROBES_PER_CHECK * (STORM - 1), (healths, moves)
    assert moves >= PROBES_PER_CHECK * (STORM - 1), (healths, moves)
    assert "Traceback" not in server.log_text()
