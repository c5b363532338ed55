"""Memory after websocket churn: N connect/hello/close cycles on match and lobby sockets.

Starts ``python -m app`` on a fresh SQLite file through ``serve_probed`` (the server as
always, plus a probe: on SIGUSR1 it writes its memory figures to a file), opens one two-seat
``tally`` match, then runs ``--cycles`` cycles, ``--parallel`` at a time: each opens a match
socket (hello with a seat's token, waits for ``welcome``, closes) and a lobby socket (reads
``lobbies``, hello, closes). Every ``--every`` cycles, after a pause for the closes to be
handled, it prints the server's RSS, the allocator's blocks in use
(``sys.getallocatedblocks``), the objects the cyclic collector tracks (frozen ones included)
and the types whose count grew most since the first reading. With ``--collect`` a last
reading follows a full collection (SIGUSR2), so what was garbage waiting for the collector
(counted by type in the JSON) and what is still referenced show apart, then glibc's
``malloc_trim`` (the RSS before it and its time are in the JSON); with ``--collect-each``
every reading does. The readings are printed as JSON at the end.

    .venv/bin/python bench/socket_churn.py                         # 12,000 cycles
    .venv/bin/python bench/socket_churn.py --cycles 4000 --every 1000 --collect
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
import collections
import ctypes
import gc
import json
import os
import signal
import subprocess
import tempfile
import time
from typing import Any

import httpx
import websockets

from bench.loadgen.probes import free_port, memory_mb
from bench.loadgen.servers import wait_up

ROOT = Path(__file__).resolve().parent.parent
PROBE_ENV = "RAMPART_CHURN_PROBE"


def probe_figures(collect: bool) -> dict[str, Any]:
    """This process's memory figures: RSS, allocator blocks, tracked objects by type."""
    garbage: collections.Counter[str] = collections.Counter()
    if collect:
        # Keep what the collection finds (DEBUG_SAVEALL) to count it by type, then drop it.
        # The server's collector thread freezes every second, maybe in between: each
        # collection comes right after an unfreeze.
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.unfreeze()
            gc.collect()
        finally:
            gc.set_debug(0)
        garbage.update(type(o).__qualname__ for o in gc.garbage)
        gc.garbage.clear()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # the frozen objects are listed by get_objects only when unfrozen
    try:
        types = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    finally:
        gc.freeze()
    trimmed: dict[str, float] = {}
    if collect and hasattr(ctypes.CDLL(None), "malloc_trim"):
        # What the C allocator gives back to the system when asked (glibc only).
        rss = memory_mb(os.getpid())
        started = time.perf_counter()
        ctypes.CDLL(None).malloc_trim(0)
        trimmed = {
            "trim_ms": round((time.perf_counter() - started) * 1000, 1),
            "rss_before_trim_mb": round(rss, 1),
        }
    return {
        **trimmed,
        "rss_mb": round(memory_mb(os.getpid()), 1),
        "blocks": sys.getallocatedblocks(),
        "tracked": sum(types.values()),
        "frozen_before": frozen,
        "types": dict(types),
        "garbage": sum(garbage.values()),
        "garbage_types": dict(garbage.most_common(25)),
    }


def serve_probed() -> None:
    """``python -m app`` with the probe: SIGUSR1 writes ``probe_figures()`` as JSON to the file
    named by ``RAMPART_CHURN_PROBE``; SIGUSR2 does so after a full collection."""
    target = Path(os.environ[PROBE_ENV])

    def write(collect: bool) -> None:
        partial = target.with_suffix(".partial")
        partial.write_text(json.dumps(probe_figures(collect)))
        partial.replace(target)

    signal.signal(signal.SIGUSR1, lambda *_: write(False))
    signal.signal(signal.SIGUSR2, lambda *_: write(True))
    from app.__main__ import main

    main()


async def read_probe(process: subprocess.Popen[bytes], target: Path, collect: bool) -> Any:
    target.unlink(missing_ok=True)
    process.send_signal(signal.SIGUSR2 if collect else signal.SIGUSR1)
    for _ in range(600):
        if target.exists():
            return json.loads(target.read_text())
        await asyncio.sleep(0.05)
    raise RuntimeError("the server did not answer the probe")


async def match_cycle(ws_base: str, match_id: int, token: str) -> None:
    async with websockets.connect(f"{ws_base}/ws/matches/{match_id}", compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "last_version": None}))
        async for raw in ws:
            if json.loads(raw)["type"] == "welcome":
                break


async def lobby_cycle(ws_base: str, token: str) -> None:
    async with websockets.connect(f"{ws_base}/ws/lobby", compression=None) as ws:
        assert json.loads(await ws.recv())["type"] == "lobbies"
        await ws.send(json.dumps({"type": "hello", "token": token}))


async def open_match(http: httpx.AsyncClient) -> tuple[int, list[str]]:
    tokens = []
    for seat in range(2):
        reply = await http.post("/api/accounts", json={"name": f"churn{seat}"})
        reply.raise_for_status()
        tokens.append(reply.json()["token"])
    auth = [{"authorization": f"Bearer {t}"} for t in tokens]
    body = {"game": "tally", "seats": 2, "options": {"target": 1000}}
    lobby = (await http.post("/api/lobbies", json=body, headers=auth[0])).json()
    joined = await http.post(f"/api/lobbies/{lobby['id']}/join", json={}, headers=auth[1])
    joined.raise_for_status()
    started = await http.post(f"/api/lobbies/{lobby['id']}/start", json={}, headers=auth[0])
    started.raise_for_status()
    return int(started.json()["match_id"]), tokens


def grown_types(first: dict[str, int], now: dict[str, int], top: int) -> str:
    grown = sorted(((now.get(k, 0) - first.get(k, 0), k) for k in now), reverse=True)[:top]
    return ", ".join(f"{name} +{delta}" for delta, name in grown if delta > 0) or "none"


async def churn(args: argparse.Namespace) -> list[dict[str, Any]]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ws_base = f"ws://127.0.0.1:{port}"
    workdir = Path(tempfile.mkdtemp(prefix="rampart-churn-"))
    probe = workdir / "probe.json"
    env = {
        **os.environ,
        "RAMPART_BENCH_GAMES": "1",
        "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/rampart.db",
        "RAMPART_RATE_PER_S": "1000",
        "RAMPART_RATE_BURST": "1000",
        PROBE_ENV: str(probe),
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-c", "from bench.socket_churn import serve_probed as s; s()"]
    with open(workdir / "server.log", "wb") as log:
        process = subprocess.Popen(
            [*command, "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=log
        )
    readings: list[dict[str, Any]] = []
    try:
        await wait_up(base, process)
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            match_id, tokens = await open_match(http)
        # One cycle of each first: the match's session and the lobby feed are loaded.
        await match_cycle(ws_base, match_id, tokens[0])
        await lobby_cycle(ws_base, tokens[0])
        await asyncio.sleep(args.settle)
        first = await read_probe(process, probe, False)
        readings.append({"cycles": 0, **first})
        print(f"{'cycles':>7} {'RSS MB':>7} {'blocks':>9} {'tracked':>9}  types grown since 0")
        print(f"{0:>7} {first['rss_mb']:>7} {first['blocks']:>9} {first['tracked']:>9}")
        done = 0
        started = time.monotonic()
        while done < args.cycles:
            batch = min(args.every, args.cycles - done)
            for offset in range(0, batch, args.parallel):
                count = min(args.parallel, batch - offset)
                await asyncio.gather(
                    *(match_cycle(ws_base, match_id, tokens[i % 2]) for i in range(count)),
                    *(lobby_cycle(ws_base, tokens[i % 2]) for i in range(count)),
                )
            done += batch
            await asyncio.sleep(args.settle)
            now = await read_probe(process, probe, args.collect_each)
            readings.append({"cycles": done, **now})
            print(
                f"{done:>7} {now['rss_mb']:>7} {now['blocks']:>9} {now['tracked']:>9}  "
                f"{grown_types(first['types'], now['types'], args.top)}",
                flush=True,
            )
        elapsed = time.monotonic() - started
        if args.collect:
            collected = await read_probe(process, probe, True)
            readings.append({"cycles": done, "after_full_collection": True, **collected})
            print(
                f"{'full gc':>7} {collected['rss_mb']:>7} {collected['blocks']:>9} "
                f"{collected['tracked']:>9}  "
                f"{grown_types(first['types'], collected['types'], args.top)}"
            )
        print(f"{done} cycles in {elapsed:.0f} s ({2 * done / elapsed:.0f} sockets/s)")
    finally:
        process.terminate()
        process.wait(15)
    for reading in readings:
        reading.pop("types")
    return readings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=12_000)
    parser.add_argument("--every", type=int, default=2_000, help="cycles between readings")
    parser.add_argument("--parallel", type=int, default=20, help="cycles at a time")
    parser.add_argument("--settle", type=float, default=2.0, help="pause before each reading")
    parser.add_argument("--top", type=int, default=6, help="grown types shown per reading")
    parser.add_argument(
        "--collect", action="store_true", help="a last reading after a full collection"
    )
    parser.add_argument(
        "--collect-each",
        action="store_true",
        help="every reading after a full collection: what stays referenced",
    )
    args = parser.parse_args()
    readings = asyncio.run(churn(args))
    print(json.dumps(readings))


if __name__ == "__main__":
    main()
