"""A rolling restart of a two-process cluster under play: each process in turn is stopped
(SIGTERM: its matches handed over) and started again while matches with server bots go on.
Every match finishes, every acknowledged action is in the log, and the reconnects are short."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from tests.app.cluster.conftest import NodeFactory, needs_cluster
from tests.app.support import Api, Server

pytestmark = needs_cluster

MATCHES = 4
RETRYABLE = {"server/restarting", "server/unavailable", "cluster/unavailable", "match/elsewhere"}


@dataclass
class Ledger:
    """What the players saw: acknowledged versions and how long each reconnect took."""

    acked: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    reconnect_s: list[float] = field(default_factory=list)
    restarts_done: asyncio.Event = field(default_factory=asyncio.Event)


async def play_seat(
    nodes: list[Server], match_id: int, token: str, seat: int, ledger: Ledger
) -> None:
    """Play the seat over any live process, reconnecting whenever a socket closes; after the
    restarts, play five more moves and resign. An action not acknowledged is sent again with
    the same ``client_seq`` (played once, or answered as a duplicate)."""
    seq, pending = 0, None
    last_version: int | None = None
    lost_at: float | None = None
    moves_after = 0
    acked_version = 0
    pick = random.Random(seat * 1000 + match_id)
    while True:
        node = pick.choice(nodes)
        try:
            async with websockets.connect(f"{node.ws}/ws/matches/{match_id}", open_timeout=5) as ws:
                hello = {"type": "hello", "token": token, "last_version": last_version}
                await ws.send(json.dumps(hello))
                view: dict[str, Any] | None = None
                async for raw in ws:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "ping":
                        await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                        continue
                    if kind == "welcome" and lost_at is not None:
                        ledger.reconnect_s.append(time.monotonic() - lost_at)
                        lost_at = None
                    if kind in ("welcome", "patch") and "view" in message:
                        view, last_version = message["view"], message["version"]
                    if kind == "ack":
                        ledger.acked[(match_id, message["version"])] = (seat, message["client_seq"])
                        pending, acked_version = None, message["version"]
                        if ledger.restarts_done.is_set():
                            moves_after += 1
                    if kind == "error" and message.get("code") in RETRYABLE:
                        await ws.close()  # reconnect (elsewhere) and send it again
                    elif kind == "error":
                        raise AssertionError(f"seat {seat} refused: {message}")
                    if view is None:
                        continue
                    if view["outcome"] is not None:
                        return
                    if view["turn"] != seat or (last_version or 0) < acked_version:
                        continue  # not our turn, or our last move's patch is still to come
                    if pending is not None and kind != "welcome":
                        continue  # sent; its answer comes (or a reconnect sends it again)
                    if moves_after >= 5:
                        pending = {
                            "type": "action",
                            "client_seq": seq + 1,
                            "action": {"type": "resign"},
                        }
                        seq += 1
                    elif pending is None:
                        seq += 1
                        cell = (last_version or 0) % 20
                        pending = {
                            "type": "action",
                            "client_seq": seq,
                            "action": {"type": "move", "cell": cell},
                        }
                    await asyncio.sleep(0.03)
                    await ws.send(json.dumps(pending))
        except (OSError, websockets.ConnectionClosed, websockets.InvalidStatus, TimeoutError):
            pass
        if lost_at is None:
            lost_at = time.monotonic()
        await asyncio.sleep(0.05 + pick.random() * 0.1)


async def test_rolling_restart_of_two_processes_interrupts_no_match(
    cluster: NodeFactory, tmp_path: Path
) -> None:
    nodes = [cluster(), cluster()]
    api = Api(nodes[0])
    tables = []
    for k in range(MATCHES):
        tokens = [await api.guest(f"roll{k}a"), await api.guest(f"roll{k}b")]
        match_id = await api.table("tally", tokens, seats=3, options={}, bots="heuristic")
        tables.append((match_id, tokens))
    await api.close()
    ledger = Ledger()
    players = [
        asyncio.create_task(play_seat(nodes, match_id, token, seat, ledger))
        for match_id, tokens in tables
        for seat, token in enumerate(tokens)
    ]

    await asyncio.sleep(2)
    for node in nodes:  # one after the other: stop (handing over), start again
        before = len(ledger.acked)
        await asyncio.to_thread(node.stop)
        assert "matches handed over" in node.log_text()
        await asyncio.to_thread(node.start, tmp_path)
        while len(ledger.acked) < before + 2 * MATCHES:  # play went on meanwhile
            await asyncio.sleep(0.1)
    ledger.restarts_done.set()
    await asyncio.wait_for(asyncio.gather(*players), 120)

    api = Api(nodes[1])
    for match_id, _ in tables:
        match = (await api.get(f"/api/matches/{match_id}")).json()
        assert match["status"] == "finished", match
        lines = (await api.get(f"/api/matches/{match_id}/events")).text.splitlines()
        logged = {row["version"]: row for row in map(json.loads, lines[1:])}
        for (acked_match, version), (seat, client_seq) in ledger.acked.items():
            if acked_match == match_id:
                assert logged[version]["seat"] == seat, (version, client_seq)
    await api.close()
    waits = sorted(ledger.reconnect_s)
    assert waits, "no socket was ever interrupted: nothing was handed over"
    p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))]
    print(
        f"rolling restart: {len(ledger.acked)} acks, {len(waits)} reconnects, "
        f"p50 {waits[len(waits) // 2]:.2f} s, p99 {p99:.2f} s, max {waits[-1]:.2f} s"
    )
    for node in nodes:
        assert "Traceback" not in node.log_text()
