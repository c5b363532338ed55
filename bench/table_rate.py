"""How many 4-seat tables a second one server process opens over REST, and what each costs it.

A table opens as the load's set-up and a player's browser open one (``open_table``): four
guest accounts, a lobby, three joins and the start, nine requests. ``--tables`` of them are
opened with ``--concurrency`` under way at once against a real ``python -m app`` on a fresh
SQLite database (per-address limits lifted: every client here is 127.0.0.1; the limit of new
tables per account counted), after ``--warmup`` tables that are not counted. Printed: tables a
second (wall clock), the server's CPU per table (from ``/proc``), the requests' latency, and
the client's own CPU per table (httpx shares the machine's cores with the server, so on two
cores it is part of the ceiling).

    .venv/bin/python bench/table_rate.py                       # 400 tables, 25 at once
    .venv/bin/python bench/table_rate.py --tables 1000 --concurrency 50
    .venv/bin/python bench/table_rate.py --root /work/other-worktree   # another checkout
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

from bench.loadgen.lobbies import open_table
from bench.loadgen.probes import cpu_seconds, free_port, percentile
from bench.loadgen.servers import ROOT, rampart_running, wait_up

# Beside the limits per address that rampart_running lifts (every client here is 127.0.0.1), the
# limit of new tables per account stays at its default and is counted, as in production: each
# host here opens one table, so it never refuses, but counting it is part of a table's cost.
COUNTED: dict[str, str] = {}


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def open_many(
    base: str, count: int, concurrency: int, prefix: str, latencies: list[float] | None
) -> None:
    """Open ``count`` tables, ``concurrency`` at a time (each worker opens one after another)."""
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        numbers = iter(range(count))

        async def worker() -> None:
            for k in numbers:
                await open_table(
                    http,
                    "tally",
                    f"{prefix}{k}",
                    latencies.append if latencies is not None else None,
                )

        await asyncio.gather(*(worker() for _ in range(concurrency)))


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with rampart_running(port, args.database_url, COUNTED, Path(args.root)) as server:
        await wait_up(base, server)
        await open_many(base, args.warmup, args.concurrency, "w", None)
        latencies: list[float] = []
        server_before, own_before = cpu_seconds(server.pid), own_cpu_seconds()
        started = time.monotonic()
        await open_many(base, args.tables, args.concurrency, "t", latencies)
        wall = time.monotonic() - started
        server_cpu = cpu_seconds(server.pid) - server_before
        own_cpu = own_cpu_seconds() - own_before
    latencies.sort()
    return {
        "tables": args.tables,
        "concurrency": args.concurrency,
        "requests": len(latencies),
        "wall_s": round(wall, 2),
        "tables_per_s": round(args.tables / wall, 1),
        "server_cpu_ms_per_table": round(server_cpu * 1000 / args.tables, 2),
        "server_cpu_pct": round(server_cpu * 100 / wall, 1),
        "client_cpu_pct": round(own_cpu * 100 / wall, 1),
        "client_cpu_ms_per_table": round(own_cpu * 1000 / args.tables, 2),
        "request_ms": {
            "p50": round(percentile(latencies, 50), 2),
            "p99": round(percentile(latencies, 99), 2),
            "max": round(latencies[-1], 2),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=400, help="tables measured")
    parser.add_argument("--concurrency", type=int, default=25, help="tables opening at once")
    parser.add_argument("--warmup", type=int, default=50, help="tables opened first, not counted")
    parser.add_argument("--database-url", default=None, help="default: fresh SQLite")
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose server runs")
    args = parser.parse_args()
    result = asyncio.run(measure(args))
    print(json.dumps(result))
    print(
        f"{result['tables_per_s']} tables/s ({args.concurrency} at once), "
        f"server {result['server_cpu_ms_per_table']} ms CPU per table "
        f"({result['server_cpu_pct']} % of a core), client {result['client_cpu_ms_per_table']} ms "
        f"({result['client_cpu_pct']} %), "
        f"request p50 {result['request_ms']['p50']} ms p99 {result['request_ms']['p99']} ms",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
