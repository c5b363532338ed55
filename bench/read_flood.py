"""Live moves under a flood of anonymous reads: move round trips with and without the flood.

One real server (SQLite, ``python -m app``). First a few long tally matches are played as
fast as the server answers (``--long`` of them kept running, as many finished, each
``--versions`` long), for the reads to work on. Then two windows of ``--seconds``, each with
``--matches`` fresh 4-seat tally matches played by the load generator's clients
(``bench/loadgen/client.py``: a move ``--think`` ms after the seat's turn comes, its round
trip from the action sent to the mover's patch of that version):

- ``quiet``: the moves alone;
- ``flood``: the moves while ``--flooders`` anonymous clients (another process) read, each at
  most ``--rate`` reads a second (0: as fast as answered): the state of the long matches (the
  latest, and a random version of the finished ones), of the live matches, their event logs
  (NDJSON), one match, the match history with filters, ladders, tournaments and a profile.

It prints one JSON line and a summary: live-move p50/p99 (ms), moves per second and the
server's CPU in each window, and the reads answered (status codes, latency per kind). On a
machine whose cores are busy with other work the server gets only part of a core, and the
flood's latencies grow with it: compare runs made at the same load. ``--server-root DIR``
serves another folder's code (a git worktree of an older commit) for before/after figures.

    .venv/bin/python bench/read_flood.py
    .venv/bin/python bench/read_flood.py --flooders 20 --rate 0
    .venv/bin/python bench/read_flood.py --server-root /tmp/old
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
import time
from typing import Any

import httpx

from bench.loadgen.client import Plan, Run
from bench.loadgen.flood import FloodProcess, play_long
from bench.loadgen.probes import cpu_seconds, free_port, percentile, runqueue_wait_s
from bench.loadgen.servers import ROOT, rampart_running, wait_up

# Per-address and per-account limits off (a server without them ignores these): this bench
# measures what the reads cost, not how many of them a limit lets through.
UNLIMITED = {
    "RAMPART_ACCOUNT_ADDRESS_LIMIT": "",
    "RAMPART_TABLE_ACCOUNT_LIMIT": "",
    "RAMPART_TABLE_ADDRESS_LIMIT": "",
    "RAMPART_READ_ADDRESS_LIMIT": "",
    "RAMPART_OPEN_TABLES_PER_ACCOUNT": "0",
    "RAMPART_SOCKETS_PER_ADDRESS": "0",
}


async def opened(args: argparse.Namespace, base: str, worker: int) -> Run:
    """``--matches`` live tally matches opened and connected; ``worker`` 0 or 1 picks the even
    or the odd match indexes of ``2 * --matches``, so each window's guests have new names."""
    plan = Plan(
        base=base,
        echo=False,
        game="tally",
        matches=2 * args.matches,
        think_ms=args.think,
        warmup_s=args.warmup,
        seconds=args.seconds,
        grace_s=3.0,
        procs=2,
        worker=worker,
    )
    run = Run(plan)
    await run.setup()
    return run


async def measured(run: Run, warmup_s: float, server: int) -> dict[str, Any]:
    """Play the run's matches; its report of a window after ``warmup_s``, with the CPU the
    ``server`` process used meanwhile (``server_cpu_pct``: of one core, over the whole play)
    and the time its threads were ready to run but waited for a core (``server_wait_pct``)."""
    now = time.monotonic()
    cpu, waited = cpu_seconds(server), runqueue_wait_s(server)
    report = await run.play(now, now + warmup_s)
    took = time.monotonic() - now
    report["server_cpu_pct"] = round(100 * (cpu_seconds(server) - cpu) / took)
    report["server_wait_pct"] = round(100 * (runqueue_wait_s(server) - waited) / took)
    await run.close()
    return report


def moves(report: dict[str, Any]) -> dict[str, Any]:
    latencies = sorted(report["latencies"])
    return {
        "moves": report["acked"],
        "moves_per_s": round(report["acked"] / report["window_s"], 1),
        "p50_ms": percentile(latencies, 50),
        "p99_ms": percentile(latencies, 99),
        "max_ms": round(latencies[-1], 2) if latencies else 0.0,
        "errors": {k: v for k, v in report["errors"].items() if v},
        "server_cpu_pct": report["server_cpu_pct"],
        "server_wait_pct": report["server_wait_pct"],
    }


def read_paths(
    long_running: list[int], finished: list[int], live: list[int], player: int
) -> list[tuple[str, str]]:
    """What the flood reads: (kind, path); ``{v}`` is a random version."""
    paths: list[tuple[str, str]] = []
    for match in long_running + live:
        paths.append(("state", f"/api/matches/{match}/state"))
    for match in finished:
        paths.append(("state", f"/api/matches/{match}/state"))
        paths += [("state_at", f"/api/matches/{match}/state?version={{v}}")] * 3
    for match in long_running + finished:
        paths.append(("events", f"/api/matches/{match}/events"))
        paths.append(("match", f"/api/matches/{match}"))
    paths += [
        ("history", "/api/matches?game=tally&limit=200"),
        ("history", "/api/matches?status=finished&limit=200"),
        ("history", f"/api/matches?player={player}"),
        ("player", f"/api/players/{player}"),
        ("ladders", "/api/ladders"),
        ("tournaments", "/api/tournaments"),
    ]
    return paths


async def run_bench(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    root = Path(args.server_root).resolve() if args.server_root else ROOT
    with rampart_running(port, None, UNLIMITED, root) as process:
        await wait_up(base, process)
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            long_running: list[int] = []
            finished: list[int] = []
            for k in range(args.long):
                for finish, kept in ((False, long_running), (True, finished)):
                    match_id, tokens = await play_long(
                        http, f"long{k}{int(finish)}", args.versions, finish
                    )
                    kept.append(match_id)
            auth = {"authorization": f"Bearer {tokens[0]}"}
            me = (await http.get("/api/accounts/me", headers=auth)).json()
        quiet = await measured(await opened(args, base, 0), args.warmup, process.pid)
        flood_run = await opened(args, base, 1)
        live = sorted({int(seat.url.rsplit("/", 1)[1]) for seat in flood_run.seats})
        paths = read_paths(long_running, finished, live, me["id"])
        reading_s = args.warmup + args.seconds + 0.5
        flooder = FloodProcess(base, paths, args.flooders, args.rate, reading_s, args.versions)
        await flooder.start()
        flooded = await measured(flood_run, args.warmup, process.pid)
        reads = await flooder.result()
    return {
        "bench": "read_flood",
        "server_root": str(root),
        "matches": args.matches,
        "think_ms": args.think,
        "long_matches": {"running": long_running, "finished": finished, "versions": args.versions},
        "quiet": moves(quiet),
        "flood": moves(flooded),
        "reads": reads,
    }


def summary(result: dict[str, Any]) -> str:
    lines = [f"read_flood: {result['matches']} live matches, a move {result['think_ms']} ms"]
    for tag in ("quiet", "flood"):
        m = result[tag]
        lines.append(
            f"  {tag:5}: live moves p50 {m['p50_ms']} ms, p99 {m['p99_ms']} ms, "
            f"max {m['max_ms']} ms, {m['moves_per_s']} moves/s, server CPU "
            f"{m['server_cpu_pct']}% of a core (waited for one {m['server_wait_pct']}%), "
            f"errors {m['errors'] or 'none'}"
        )
    reads = result["reads"]
    lines.append(
        f"  reads: {reads['clients']} anonymous clients, {reads['requests_per_s']} reads/s, "
        f"status {reads['codes']}"
    )
    for kind, figures in reads["latency_ms"].items():
        lines.append(
            f"    {kind:12} n={figures['n']:<6} p50 {figures['p50']} ms, p99 {figures['p99']} ms"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=20, help="live matches per window")
    parser.add_argument("--think", type=int, default=250, help="ms before each move")
    parser.add_argument("--seconds", type=float, default=15.0, help="each measured window")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--flooders", type=int, default=20, help="anonymous reading clients")
    parser.add_argument(
        "--rate", type=float, default=3.0, help="reads a second per flooder (0: unpaced)"
    )
    parser.add_argument("--long", type=int, default=1, help="long matches running (and finished)")
    parser.add_argument("--versions", type=int, default=1160, help="moves in each long match")
    parser.add_argument(
        "--server-root",
        default=None,
        help="serve the code of this folder (a git worktree of another commit) instead",
    )
    args = parser.parse_args()
    result = asyncio.run(run_bench(args))
    print(json.dumps(result))
    print(summary(result), file=sys.stderr)


if __name__ == "__main__":
    main()
