"""Password storms against a real server: what a live match and ``/api/health`` feel meanwhile,
what the login limits refuse, and whether a login's time tells a known name from an unknown one.

    .venv/bin/python -m bench.login_storm [--logins 48] [--clients 8]

1. ``--logins`` wrong-password logins from ``--clients`` connections (limits lifted so every
   one is checked) while two seats play tally (a move every 50 ms) and a probe polls
   ``/api/health``: round-trip percentiles before and during the storm.
2. The default limits: 60 wrong logins for one name from one address, how many are refused.
3. 12 logins each for a known and an unknown name (limits lifted): median reply times.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

import httpx
import websockets

from bench.loadgen.lobbies import checked
from bench.loadgen.probes import free_port, percentile
from bench.loadgen.servers import rampart_running, wait_up

LIFTED = {
    "RAMPART_LOGIN_NAME_BURST": "100000",
    "RAMPART_LOGIN_ADDRESS_BURST": "100000",
    "RAMPART_PASSWORD_QUEUE": "1000",
}
MOVE_PAUSE_S = 0.05  # a brisk human pace: twenty moves a second between the two seats
ACCOUNT = {"name": "Storm Target", "password": "the right password"}


def figures(samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    if not ordered:
        return "none"
    p50, p90, p99 = (percentile(ordered, p) for p in (50, 90, 99))
    return f"n={len(ordered)} p50={p50:.1f} p90={p90:.1f} p99={p99:.1f} max={ordered[-1]:.1f} ms"


class Table:
    """Two guests at a tally table, moving in turn; ``round_trips`` holds each move's ack time."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.round_trips: list[tuple[float, float]] = []  # (when, ms)
        self.sockets: list[Any] = []

    async def open(self, http: httpx.AsyncClient) -> None:
        tokens = [
            checked(await http.post("/api/accounts", json={"name": f"storm mover {s}"}))["token"]
            for s in range(2)
        ]
        auth = {"authorization": f"Bearer {tokens[0]}"}
        body = {"game": "tally", "seats": 2, "options": {"target": 1_000_000}}
        lobby = checked(await http.post("/api/lobbies", json=body, headers=auth))
        joiner = {"authorization": f"Bearer {tokens[1]}"}
        checked(await http.post(f"/api/lobbies/{lobby['id']}/join", json={}, headers=joiner))
        match = checked(await http.post(f"/api/lobbies/{lobby['id']}/start", json={}, headers=auth))
        ws_base = self.base.replace("http://", "ws://")
        for token in tokens:
            ws = await websockets.connect(f"{ws_base}/ws/matches/{match['match_id']}")
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(await ws.recv())["type"] != "welcome":
                pass
            self.sockets.append(ws)

    async def play(self, stop: asyncio.Event) -> None:
        version = 0
        while not stop.is_set():
            seat = version % 2
            ws = self.sockets[seat]
            started = time.perf_counter()
            action = {"type": "move", "cell": (version * 7 + seat) % 20}
            await ws.send(
                json.dumps({"type": "action", "client_seq": version + 1, "action": action})
            )
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                if message["type"] == "ack" and message.get("client_seq") == version + 1:
                    break
            self.round_trips.append((time.monotonic(), (time.perf_counter() - started) * 1000))
            version = int(message["version"])
            await asyncio.sleep(MOVE_PAUSE_S)

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()


async def health_probe(base: str, stop: asyncio.Event, seen: list[tuple[float, float]]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            started = time.perf_counter()
            (await http.get("/api/health")).raise_for_status()
            seen.append((time.monotonic(), (time.perf_counter() - started) * 1000))
            await asyncio.sleep(0.01)


async def storm(base: str, logins: int, clients: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        checked(await http.post("/api/accounts", json=ACCOUNT))
        table = Table(base)
        await table.open(http)
    stop = asyncio.Event()
    health: list[tuple[float, float]] = []
    tasks = [
        asyncio.create_task(table.play(stop)),
        asyncio.create_task(health_probe(base, stop, health)),
    ]
    await asyncio.sleep(3)
    storm_start = time.monotonic()
    statuses: list[int] = []

    async def one_client(index: int) -> None:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            for k in range(index, logins, clients):
                body = {"name": ACCOUNT["name"], "password": f"wrong {k}"}
                statuses.append((await http.post("/api/sessions", json=body)).status_code)

    await asyncio.gather(*(one_client(i) for i in range(clients)))
    storm_end = time.monotonic()
    stop.set()
    await asyncio.gather(*tasks)
    await table.close()

    def split(samples: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
        before = [ms for at, ms in samples if at < storm_start]
        during = [ms for at, ms in samples if storm_start <= at <= storm_end]
        return before, during

    moves_before, moves_during = split(table.round_trips)
    health_before, health_during = split(health)
    print(f"storm: {logins} wrong logins from {clients} clients in {storm_end - storm_start:.1f} s")
    print(f"  replies: {sorted(set(statuses))} (401 expected)")
    print(f"  match round trips before: {figures(moves_before)}")
    print(f"  match round trips during: {figures(moves_during)}")
    print(f"  /api/health before:       {figures(health_before)}")
    print(f"  /api/health during:       {figures(health_during)}")


async def limits(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        checked(await http.post("/api/accounts", json=ACCOUNT))
        started = time.monotonic()
        codes = [
            (await http.post("/api/sessions", json={**ACCOUNT, "password": f"no {k}"}))
            for k in range(60)
        ]
    refused = [r for r in codes if r.status_code == 429]
    retry = sorted({r.headers.get("retry-after") for r in refused})
    print(
        f"limits: 60 wrong logins in {time.monotonic() - started:.1f} s:"
        f" {len(codes) - len(refused)} checked, {len(refused)} refused 429 (Retry-After {retry})"
    )


async def timing(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        checked(await http.post("/api/accounts", json=ACCOUNT))
        medians = {}
        for label, name in (("known", ACCOUNT["name"]), ("unknown", "Nobody Here At All")):
            times = []
            for k in range(12):
                started = time.perf_counter()
                await http.post("/api/sessions", json={"name": name, "password": f"x{k}"})
                times.append((time.perf_counter() - started) * 1000)
            medians[label] = statistics.median(times)
    print(
        f"timing: median wrong-login reply, known name {medians['known']:.0f} ms,"
        f" unknown name {medians['unknown']:.0f} ms"
    )


async def run_phase(phase: Any, env: dict[str, str]) -> None:
    port = free_port()
    with rampart_running(port, None, env) as process:
        base = f"http://127.0.0.1:{port}"
        await wait_up(base, process)
        await phase(base)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logins", type=int, default=48)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    await run_phase(lambda base: storm(base, args.logins, args.clients), LIFTED)
    await run_phase(limits, {})
    await run_phase(timing, LIFTED)


if __name__ == "__main__":
    asyncio.run(main())
