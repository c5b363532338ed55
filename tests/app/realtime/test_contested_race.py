"""A real contested grab over websockets: two clients behind different delays.

Seat 0 sits behind a 10 ms link and reacts in 300 ms; seat 1 behind a ~200 ms link reacts in
150 ms. Seat 0's grab reaches the server first, yet seat 1 reacted first and wins the card.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from bench.delay_proxy import DelayProxy, Link
from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client

OPTIONS = {"hand_size": 6, "hand_limit": 52, "castle_hp": 999, "first_seat": 0}


async def grab_after(client: Client, start: int, reaction_ms: float) -> int:
    """Wait for the call, then grab the first card ``reaction_ms`` after reading it."""
    called = await client.wait_for("patch", start=start)
    while not any(e["type"] == "ambush_called" for e in called["events"]):
        called = await client.wait_for("patch", start=client.messages.index(called) + 1)
    read_at = time.monotonic()
    await asyncio.sleep(reaction_ms / 1000)
    client.seq += 1
    cell = called["view"]["battlefield"][0]["cell"]
    dt = (time.monotonic() - read_at) * 1000
    message = {"type": "grab", "client_seq": client.seq, "cell": cell, "ref": called["version"]}
    await client.send({**message, "dt": dt})
    return client.seq


async def test_the_faster_reaction_wins_over_the_faster_link(make_server: ServerFactory) -> None:
    server = make_server(RAMPART_CLOCK_RATE="1")
    api = Api(server)
    proxies = [
        await DelayProxy(("127.0.0.1", server.port), Link.symmetric(5), seed=1).start(),
        # 90-110 ms each way: the measured jitter widens its budget, so a load spike on this
        # shared machine does not push its honest grab past the window.
        await DelayProxy(("127.0.0.1", server.port), Link.symmetric(90, 20), seed=2).start(),
    ]
    try:
        tokens = [await api.guest("near"), await api.guest("far")]
        match_id = await api.table("ambush", tokens, options=OPTIONS)
        clients = []
        for token, proxy in zip(tokens, proxies, strict=True):
            client = Client(server, match_id, token)
            client.url = f"ws://127.0.0.1:{proxy.port}/ws/matches/{match_id}"
            clients.append(await client.connect())
        near, far = clients
        await asyncio.sleep(1.5)  # a few pings measure both links

        # Seat 0 puts two cards down (expose, play), then calls Ambush!.
        for kind in ("expose", "play"):
            action = next(a for a in near.legal if a["type"] == kind)
            await near.act(action)
            ack = await near.wait_for("ack", client_seq=near.seq)
            # The ack and its patch share a write: read the patch (and its legal actions)
            # before choosing the next action.
            await near.wait_for("patch", version=ack["version"])
        start = [len(near.messages), len(far.messages)]
        await near.act({"type": "call_ambush"})
        near_seq, far_seq = await asyncio.gather(
            grab_after(near, start[0], 300), grab_after(far, start[1], 150)
        )
        near_result = await near.wait_for("grab_result", client_seq=near_seq)
        far_result = await far.wait_for("grab_result", client_seq=far_seq)
        assert far_result["won"] is True
        assert near_result["won"] is False and near_result["code"] == "ambush/empty_cell"

        await far.act({"type": "resign"})
        await near.wait_until(lambda c: c.view and c.view["outcome"] is not None)
        log = [json.loads(line) for line in (await api.get(f"/api/matches/{match_id}/events"))
               .text.splitlines()]  # fmt: skip
        records = [r for line in log for r in (line.get("arbitration") or {}).get("decisions", [])]
        settlement = next(r for r in records if r["kind"] == "settlement")
        claims: dict[int, dict[str, Any]] = {c["seat"]: c for c in settlement["claims"]}
        assert claims[0]["arrival"] < claims[1]["arrival"]  # first arrival: the near seat
        assert claims[1]["v"] < claims[0]["v"]  # first reaction: the far seat
        assert claims[1]["rtt_min"] >= 175 and claims[0]["rtt_min"] < 60
        assert settlement["winner"] == 1
        grab_row = next(line for line in log if line.get("action", {}).get("type") == "grab")
        assert grab_row["seat"] == 1 and grab_row["at_ms"] == claims[1]["v"]
        record = (await api.get(f"/api/matches/{match_id}")).json()
        assert record["flags"]["flagged"] == []
    finally:
        await api.close()
        for proxy in proxies:
            await proxy.close()
