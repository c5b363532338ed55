"""Anonymous readers flooding the heavy REST reads, and the long matches they read.

``play_long`` plays one 4-seat tally table as fast as the server answers until it has the
versions asked for (then, if asked, three seats resign and the match is over), so that a
read which replays or scans the log has a long one to work on. ``flood`` runs in a process of
its own (``FloodProcess``), so its work never delays the move clients' own loop: ``clients``
anonymous HTTP clients, each going round the paths from a place of its own, sending its next
read when the last one is answered and no sooner than ``1 / rate`` seconds after it sent that
one (``rate`` 0: no pause).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from app.cluster import wsclient
from bench.loadgen.lobbies import open_table
from bench.loadgen.probes import percentile

SEATS = 4
ROOT = Path(__file__).resolve().parents[2]


async def play_long(
    http: httpx.AsyncClient, names: str, versions: int, finish: bool, timeout_s: float = 120
) -> tuple[int, list[str]]:
    """A tally match played to ``versions`` moves (and over, with ``finish``): its id and
    tokens."""
    match_id, tokens = await open_table(http, "tally", names)
    ws_base = str(http.base_url).rstrip("/").replace("http://", "ws://")
    done = asyncio.Event()
    sockets: list[Any] = [None] * SEATS
    moved_for = [-1] * SEATS
    resigned = [False] * SEATS

    def receiver(seat: int) -> Callable[[str], None]:
        def receive(raw: str) -> None:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "ping":
                sockets[seat].send_text(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                return
            view = message.get("view")
            if kind not in ("welcome", "patch") or view is None:
                return
            if view.get("outcome") is not None or (view["n"] >= versions and not finish):
                done.set()
                return
            if view["n"] >= versions:
                if seat > 0 and not resigned[seat]:
                    resigned[seat] = True
                    send(seat, {"type": "resign"})
            elif view["turn"] == seat and moved_for[seat] != view["n"]:
                moved_for[seat] = view["n"]
                send(seat, {"type": "move", "cell": (view["n"] * 7 + seat) % 20})

        return receive

    def send(seat: int, action: dict[str, Any]) -> None:
        message = {"type": "action", "client_seq": moved_for[seat] + 2, "action": action}
        if action["type"] == "resign":
            message["client_seq"] = versions + 10
        sockets[seat].send_text(json.dumps(message))

    for seat, token in enumerate(tokens):
        url = f"{ws_base}/ws/matches/{match_id}"
        sockets[seat] = await wsclient.connect(url, receiver(seat))
        sockets[seat].send_text(json.dumps({"type": "hello", "token": token, "last_version": 0}))
    try:
        await asyncio.wait_for(done.wait(), timeout_s)
    finally:
        await asyncio.gather(*(s.close() for s in sockets if s), return_exceptions=True)
    return match_id, tokens


async def _reader(
    http: httpx.AsyncClient,
    paths: list[tuple[str, str]],
    rate: float,
    end: float,
    tally: dict[str, Any],
) -> None:
    gap = 1 / rate if rate > 0 else 0.0
    turn = random.randrange(len(paths))  # each reader goes round the paths from its own place
    while (started := time.monotonic()) < end:
        kind, path = paths[turn % len(paths)]
        turn += 1
        path = path.replace("{v}", str(random.randint(1, tally["max_version"])))
        try:
            reply = await http.get(path)
            code = str(reply.status_code)
        except httpx.HTTPError as error:
            code = type(error).__name__
        took = time.monotonic() - started
        tally["codes"][code] = tally["codes"].get(code, 0) + 1
        tally["latencies"].setdefault(kind, []).append(took)
        await asyncio.sleep(max(0.0, gap - took))


async def flood(
    base: str,
    paths: list[tuple[str, str]],
    clients: int,
    rate: float,
    seconds: float,
    max_version: int,
) -> dict[str, Any]:
    """``clients`` anonymous readers of ``paths`` (kind of read, path; ``{v}`` in a path: a
    random version up to ``max_version``) for ``seconds``: requests, status codes and
    latency per kind of read."""
    tally: dict[str, Any] = {"codes": {}, "latencies": {}, "max_version": max_version}
    end = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        await asyncio.gather(*(_reader(http, paths, rate, end, tally) for _ in range(clients)))
    requests = sum(len(v) for v in tally["latencies"].values())
    return {
        "clients": clients,
        "paths": len(paths),
        "requests": requests,
        "requests_per_s": round(requests / seconds, 1),
        "codes": tally["codes"],
        "latency_ms": {
            kind: {
                "n": len(values),
                "p50": percentile(sorted(v * 1000 for v in values), 50),
                "p99": percentile(sorted(v * 1000 for v in values), 99),
            }
            for kind, values in sorted(tally["latencies"].items())
        },
    }


class FloodProcess:
    """``flood`` in a process of its own (``python -m bench.loadgen.flood``, its arguments as
    JSON on stdin, its report as JSON on stdout); ``start`` returns once it is reading."""

    def __init__(
        self,
        base: str,
        paths: list[tuple[str, str]],
        clients: int,
        rate: float,
        seconds: float,
        top: int,
    ) -> None:
        self._args = [base, paths, clients, rate, seconds, top]
        self._process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self._process = process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.loadgen.flood",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(self._args).encode() + b"\n")
        await process.stdin.drain()
        process.stdin.close()
        if (await process.stdout.readline()).strip() != b"reading":
            raise RuntimeError("the flood process did not start")

    async def result(self) -> dict[str, Any]:
        assert self._process is not None and self._process.stdout is not None
        out = await self._process.stdout.read()
        if await self._process.wait() != 0:
            raise RuntimeError(f"the flood process failed ({self._process.returncode})")
        report: dict[str, Any] = json.loads(out)
        return report


def main() -> None:
    """The flood process: arguments from stdin; says ``reading``, then prints its report."""
    base, paths, clients, rate, seconds, top = json.loads(sys.stdin.readline())
    print("reading", flush=True)
    paths = [(kind, path) for kind, path in paths]
    print(json.dumps(asyncio.run(flood(base, paths, clients, rate, seconds, top))), flush=True)


if __name__ == "__main__":
    main()
