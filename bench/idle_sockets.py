"""Memory per idle seat connection: hold 10,000 idle match websockets on a real server.

Starts ``python -m app`` on a fresh SQLite file (as ``bench/load.py`` does), opens
``sockets / (4 * per_seat)`` four-seat ``tally`` matches over REST, then connects every seat
``per_seat`` times (one account may hold several connections to its seat), answering the
server's pings and sending nothing else. RSS (VmRSS from ``/proc/<pid>/status``) is read
before any socket, after one socket per seat (the live sessions are loaded then) and after all
of them, each after a settling pause; the extra sockets' growth divided by their number is the
cost of one idle seat connection. Server CPU while idle (pings only) is reported too.

    .venv/bin/python bench/idle_sockets.py                      # 10,000 sockets
    .venv/bin/python bench/idle_sockets.py --sockets 2000 --per-seat 5
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
import resource
import time
from typing import Any

import httpx
import websockets

from app.realtime.peer import KEEPALIVE_S
from bench.loadgen.probes import cpu_seconds, free_port, memory_mb
from bench.loadgen.servers import rampart_running, wait_up


async def idle_socket(url: str, token: str, opened: asyncio.Event, dropped: list[int]) -> Any:
    ws = await websockets.connect(url, max_size=None, compression=None, open_timeout=60)
    await ws.send(json.dumps({"type": "hello", "token": token, "last_version": 0}))

    async def answer_pings() -> None:
        try:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "welcome":
                    opened.set()
                elif message["type"] == "ping":
                    await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
        except websockets.ConnectionClosed:
            dropped[0] += 1

    asyncio.get_running_loop().create_task(answer_pings())
    await opened.wait()
    return ws


async def open_match(http: httpx.AsyncClient, index: int) -> tuple[int, list[str]]:
    tokens = []
    for s in range(4):
        reply = await http.post("/api/accounts", json={"name": f"i{index}s{s}"})
        reply.raise_for_status()
        tokens.append(reply.json()["token"])
    auth = [{"authorization": f"Bearer {t}"} for t in tokens]
    body = {"game": "tally", "seats": 4, "options": {}}
    lobby = (await http.post("/api/lobbies", json=body, headers=auth[0])).json()
    for s in range(1, 4):
        joined = await http.post(f"/api/lobbies/{lobby['id']}/join", json={}, headers=auth[s])
        joined.raise_for_status()
    started = await http.post(f"/api/lobbies/{lobby['id']}/start", json={}, headers=auth[0])
    started.raise_for_status()
    return started.json()["match_id"], tokens


async def connect_all(
    ws_base: str, seats: list[tuple[int, str]], dropped: list[int], batch: int = 200
) -> list[Any]:
    sockets: list[Any] = []
    for first in range(0, len(seats), batch):
        chunk = seats[first : first + batch]
        sockets.extend(
            await asyncio.gather(
                *(
                    idle_socket(f"{ws_base}/ws/matches/{m}", t, asyncio.Event(), dropped)
                    for m, t in chunk
                )
            )
        )
    return sockets


async def settle_rss(pid: int, seconds: float) -> float:
    await asyncio.sleep(seconds)
    return memory_mb(pid)


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    dropped = [0]
    with rampart_running(port, args.database_url) as process:
        await wait_up(base, process)
        pid = process.pid
        matches = max(1, args.sockets // (4 * args.per_seat))
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            seats: list[tuple[int, str]] = []
            for first in range(0, matches, 10):
                opened = await asyncio.gather(
                    *(open_match(http, i) for i in range(first, min(first + 10, matches)))
                )
                seats.extend((m, t) for m, tokens in opened for t in tokens)
        setup_s = time.monotonic() - started
        rss_base = await settle_rss(pid, args.settle)
        ws_base = base.replace("http://", "ws://")
        first_wave = await connect_all(ws_base, seats, dropped)
        rss_one = await settle_rss(pid, args.settle)
        rest = await connect_all(ws_base, seats * (args.per_seat - 1), dropped)
        rss_all = await settle_rss(pid, args.settle)
        cpu0, t0 = cpu_seconds(pid), time.monotonic()
        await asyncio.sleep(args.idle)
        idle_cpu_pct = 100 * (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
        rss_idle = memory_mb(pid)
        total = len(first_wave) + len(rest)
        extra = len(rest)
        result = {
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "load_avg": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
            "matches": matches,
            "sockets": total,
            "dropped": dropped[0],
            "setup_s": round(setup_s, 1),
            "rss_mb": {
                "no_sockets": round(rss_base, 1),
                "one_per_seat": round(rss_one, 1),
                "all": round(rss_all, 1),
                f"after_{args.idle:g}s_idle": round(rss_idle, 1),
                "peak": round(memory_mb(pid, "VmHWM"), 1),
            },
            "kb_per_idle_socket": round(1024 * (rss_all - rss_one) / extra, 1) if extra else None,
            "kb_per_seat_with_session": round(1024 * (rss_one - rss_base) / len(first_wave), 1),
            "server_cpu_pct_idle": round(idle_cpu_pct, 1),
            "ping_note": f"tally: a keep-alive every {KEEPALIVE_S:g} s, uvicorn pings every 20 s",
        }
        await asyncio.gather(*(ws.close() for ws in first_wave + rest), return_exceptions=True)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sockets", type=int, default=10_000)
    parser.add_argument("--per-seat", type=int, default=10, help="connections per seat")
    parser.add_argument("--settle", type=float, default=3.0, help="pause before each RSS read")
    parser.add_argument("--idle", type=float, default=10.0, help="idle window for server CPU")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it too
    result = asyncio.run(measure(args))
    print(json.dumps(result))
    rss = result["rss_mb"]
    print(
        f"{result['sockets']} idle seat sockets ({result['matches']} matches): RSS "
        f"{rss['no_sockets']} -> {rss['one_per_seat']} -> {rss['all']} MB; "
        f"{result['kb_per_idle_socket']} KB per idle socket, "
        f"{result['kb_per_seat_with_session']} KB per first seat socket incl. its session; "
        f"idle server CPU {result['server_cpu_pct_idle']}%, dropped {result['dropped']}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
