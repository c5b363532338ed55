"""One measured run: the server, then the load in this process or in N worker processes."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.loadgen.backends import SideCounters, postgres_running
from bench.loadgen.client import Plan, Run
from bench.loadgen.probes import free_port, memory_mb
from bench.loadgen.report import merge, sample_server
from bench.loadgen.scrape import Scraper
from bench.loadgen.servers import (
    LOAD_SCRIPT,
    ROOT,
    cluster_running,
    echo_running,
    rampart_running,
    wait_up,
)

GO_LEAD_S = 0.2  # between the parent's "go" and the common start: time for the pipes
REPORT_LIMIT = 1 << 28  # a worker's report carries every latency sample on one line


async def run_one(args: argparse.Namespace, echo: bool) -> dict[str, Any]:
    """Start the server (Rampart or the echo relay), drive it with ``args.procs`` load
    processes, and return the merged result."""
    ports = [free_port() for _ in range(1 if echo else args.nodes)]
    bases = tuple(f"http://127.0.0.1:{port}" for port in ports)
    base = bases[0]
    plan = Plan(
        base=base,
        echo=echo,
        game=args.game,
        matches=args.matches,
        think_ms=args.think,
        warmup_s=args.warmup,
        seconds=args.seconds,
        grace_s=args.grace,
        procs=args.procs,
        bases=bases if len(bases) > 1 else (),
        spread=args.spread,
        open_rate=args.open_rate,
    )
    root = Path(args.server_root).resolve() if args.server_root else ROOT
    with contextlib.ExitStack() as server:
        database_url, postmaster = args.database_url, None
        if args.postgres and not echo:
            database_url, postmaster = server.enter_context(postgres_running(args.pg_fsync))
        redis_url = None
        if echo:
            processes = [server.enter_context(echo_running(ports[0]))]
        elif len(ports) == 1:
            processes = [server.enter_context(rampart_running(ports[0], database_url, None, root))]
        else:
            processes, redis_url = server.enter_context(cluster_running(ports, database_url, root))
        for url, process in zip(bases, processes, strict=True):
            await wait_up(url, process)
        pids = [process.pid for process in processes]
        side = None
        if not echo and not args.no_side:
            postgres_url = database_url if postmaster is not None else None
            side = SideCounters(bases, redis_url, postgres_url, postmaster)
        scraper = None
        if args.scrape_every and not echo:
            scraper = Scraper(bases, args.scrape_every)
            scraper.start()
        if args.procs == 1:
            reports, sampled = await in_process(plan, pids, side)
        else:
            reports, sampled = await with_workers(plan, pids, side)
        sampled["rss_mb_peak"] = sum(memory_mb(pid, "VmHWM") for pid in pids)
        scraped = await scraper.stop() if scraper is not None else None
    result = merge(
        reports,
        sampled,
        game=args.game,
        echo=echo,
        matches=args.matches,
        think_ms=args.think,
        warmup_s=args.warmup,
    )
    if scraped is not None:
        result["scrape"] = scraped
    return result


async def in_process(
    plan: Plan, server_pids: list[int], side: SideCounters | None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``--procs 1``: this process plays every match while it samples the server."""
    run = Run(plan)
    await run.setup()
    go_at = time.monotonic()
    window_start = go_at + plan.warmup_s
    report, server = await asyncio.gather(
        run.play(go_at, window_start), sample_server(server_pids, window_start, plan.seconds, side)
    )
    await run.close()
    return [report], server


async def with_workers(
    plan: Plan, server_pids: list[int], side: SideCounters | None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``--procs N``: N ``bench/load.py --worker`` processes each open their share of the
    matches and say ready; all start at one moment (monotonic time is shared by processes),
    measure the same window as this process samples the server, and report over a pipe.
    SystemExit if a worker exits without its line."""
    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(LOAD_SCRIPT),
            "--worker",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=REPORT_LIMIT,
        )
        for _ in range(plan.procs)
    ]
    try:
        for k, worker in enumerate(workers):
            spec = {**plan.to_json(), "worker": k}
            await tell(worker, spec)
        for k, worker in enumerate(workers):
            await hear(worker, k)  # {"ready": true}
        go_at = time.monotonic() + GO_LEAD_S
        window_start = go_at + plan.warmup_s
        for worker in workers:
            await tell(worker, {"go_at": go_at, "window_start": window_start})
        server = await sample_server(server_pids, window_start, plan.seconds, side)
        reports = [await hear(worker, k) for k, worker in enumerate(workers)]
        for worker in workers:
            await tell(worker, {"close": True})
        for worker in workers:
            try:
                await asyncio.wait_for(worker.wait(), 15)
            except TimeoutError:
                worker.kill()
        return reports, server
    finally:
        for worker in workers:
            if worker.returncode is None:
                worker.kill()
                await worker.wait()


async def tell(worker: asyncio.subprocess.Process, message: dict[str, Any]) -> None:
    assert worker.stdin is not None
    worker.stdin.write(json.dumps(message).encode() + b"\n")
    await worker.stdin.drain()


async def hear(worker: asyncio.subprocess.Process, k: int) -> dict[str, Any]:
    assert worker.stdout is not None
    line = await worker.stdout.readline()
    if not line:
        raise SystemExit(f"load worker {k} exited ({await worker.wait()}) without reporting")
    message: dict[str, Any] = json.loads(line)
    return message


def worker_main() -> None:
    """The hidden ``--worker`` mode: a plan on stdin, ``{"ready": true}`` once its matches
    are open, the start times on stdin, its report on stdout, then close on the parent's word."""
    asyncio.run(_worker())


async def _worker() -> None:
    def read() -> dict[str, Any]:
        line = sys.stdin.readline()
        if not line:
            raise SystemExit("load worker: the parent went away")
        message: dict[str, Any] = json.loads(line)
        return message

    def write(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    plan = Plan(**await asyncio.to_thread(read))
    run = Run(plan)
    await run.setup()
    write({"ready": True})
    start = await asyncio.to_thread(read)  # the loop keeps answering pings meanwhile
    write(await run.play(start["go_at"], start["window_start"]))
    await asyncio.to_thread(read)
    await run.close()
