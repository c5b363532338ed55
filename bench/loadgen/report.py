"""The server's side of the measured window, and the merge of worker reports into one result."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections import Counter
from typing import Any

from bench.loadgen.backends import SideCounters
from bench.loadgen.client import sleep_until
from bench.loadgen.lobbies import merged_rest
from bench.loadgen.probes import (
    cpu_seconds,
    machine_busy,
    memory_mb,
    percentile,
    runqueue_wait_s,
)


async def sample_server(
    pids: list[int], window_start: float, seconds: float, side: SideCounters | None = None
) -> dict[str, Any]:
    """The server's CPU, RSS (sampled every second) and run-queue wait, summed over its
    processes (CPU also each), and the machine's busy share, over the window the load
    generators measure; with ``side``, what the stores and the servers' metrics say too."""

    def total(probe: Any) -> float:
        return float(sum(probe(pid) for pid in pids))

    await sleep_until(window_start)
    side_before = await side.read() if side is not None else None
    each0 = [cpu_seconds(pid) for pid in pids]
    cpu0, busy0, t0 = sum(each0), machine_busy(), time.monotonic()
    loadavg = os.getloadavg()
    rss_max = total(memory_mb)
    waited0 = total(runqueue_wait_s)
    end = window_start + seconds
    while (now := time.monotonic()) < end:
        await asyncio.sleep(min(1.0, end - now))
        rss_max = max(rss_max, total(memory_mb))
    window = time.monotonic() - t0
    each1 = [cpu_seconds(pid) for pid in pids]
    cpu1, busy1 = sum(each1), machine_busy()
    side_after = await side.read() if side is not None else None
    return {
        "window_s": window,
        "cpu_s": cpu1 - cpu0,
        "cpu_s_each": [b - a for a, b in zip(each0, each1, strict=True)],
        "loadavg_at_start": [round(v, 2) for v in loadavg],
        **(
            {"side": SideCounters.figures(side_before, side_after)}
            if side_before is not None and side_after is not None
            else {}
        ),
        "processes": len(pids),
        "rss_mb_end": total(memory_mb),
        "rss_mb_max_window": rss_max,
        "waited_s": total(runqueue_wait_s) - waited0,
        "machine_busy": (busy1[0] - busy0[0], busy1[1] - busy0[1]),
    }


def _per_move(reports: list[dict[str, Any]], key: str, moves: int) -> float | None:
    return round(sum(r.get(key, 0) for r in reports) / moves, 1) if moves else None


def merge(
    reports: list[dict[str, Any]],
    server: dict[str, Any],
    *,
    game: str,
    echo: bool,
    matches: int,
    think_ms: int,
    warmup_s: float,
) -> dict[str, Any]:
    """One result from the workers' reports (``Run.play``) and the server's window
    (``sample_server`` plus ``rss_mb_peak``): latency percentiles over every sample, counts
    summed, load-generator CPU summed over the workers, loop lag the worst worker's. Rates
    are per second of the server's window."""
    window = server["window_s"]
    lat = sorted(v for r in reports for v in r["latencies"])
    moves = sum(r["acked"] for r in reports)
    errors: dict[str, int] = {}
    refusals: dict[str, int] = {}
    for report in reports:
        for key, count in report["errors"].items():
            errors[key] = errors.get(key, 0) + count
        for key, count in report["refusals"].items():
            refusals[key] = refusals.get(key, 0) + count
    ok_matches = sum(r["matches_active"] for r in reports)
    workers = [
        {
            "cpu_pct": round(100 * r["cpu_s"] / r["window_s"], 1) if r["window_s"] else 0.0,
            "rss_mb": r["rss_mb"],
            "loop_lag_p99_ms": r["loop_lag_p99_ms"],
        }
        for r in sorted(reports, key=lambda r: int(r["worker"]))
    ]
    busy, total = server["machine_busy"]
    server_cpu = server["cpu_s"]
    bots = game != "tally"
    decisions = sum(r["race_decisions"] for r in reports)
    grabs = sorted(v for r in reports for v in r.get("grab_latencies", ()))
    rest = merged_rest(reports, window)
    return {
        "peer": "rampart-echo" if echo else "rampart",
        "peer_version": "bare websocket relay (uvicorn + starlette)"
        if echo
        else f"rampart 0.1.0, game {game}, engine + SQL write per action",
        "transport": "websocket (JSON)",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "matches": matches,
        "matches_active": ok_matches,
        "clients": sum(r["clients"] for r in reports),
        "think_ms": think_ms,
        "warmup_s": warmup_s,
        "duration_s": round(window, 2),
        # Workers open their shares at once: the slowest one is the setup time.
        "setup_s": round(max((r["setup_s"] for r in reports), default=0.0), 2),
        "load_procs": len(reports),
        "moves_sent": sum(r["sent"] for r in reports),
        "moves_per_s": round(moves / window, 1),
        "state_msgs_per_s": round(4 * moves / window, 1),
        "latency_ms": distribution(lat),
        # What the clients received in the window (message text, UTF-8), per acked move.
        "bytes_per_move": _per_move(reports, "bytes_received", moves),
        "patch_bytes_per_move": _per_move(reports, "patch_bytes_received", moves),
        "server": {
            "processes": server.get("processes", 1),
            "cpu_pct": round(100 * server_cpu / window, 1),
            "cpu_us_per_move": round(1e6 * server_cpu / moves, 1) if moves else None,
            "cpu_pct_each": [round(100 * c / window, 1) for c in server.get("cpu_s_each", ())],
            "rss_mb_end": round(server["rss_mb_end"], 1),
            "rss_mb_max_window": round(server["rss_mb_max_window"], 1),
            "rss_mb_peak": round(server["rss_mb_peak"], 1),
            # Time runnable but not running: on a shared machine, latency that is not ours.
            "runqueue_wait_pct": round(100 * server["waited_s"] / window, 1),
        },
        "loadgen": {
            "cpu_pct": round(sum(w["cpu_pct"] for w in workers), 1),
            "rss_mb": round(sum(w["rss_mb"] for w in workers), 1),
            "loop_lag_p99_ms": max((w["loop_lag_p99_ms"] for w in workers), default=0.0),
            "workers": workers,
        },
        "machine_cpu_busy_pct": round(100 * busy / max(1, total), 1),
        "loadavg_at_start": server.get("loadavg_at_start"),
        **({"side": server["side"]} if "side" in server else {}),
        "errors": errors,
        **(
            {
                "workload": game,
                # The same samples split: turn actions (answered by their patch) and grabs
                # (answered by their decision, after the arbiter's hold).
                "latency_ms_turn_actions": distribution(_without(lat, grabs)),
                "latency_ms_grabs": distribution(grabs),
                "race_decisions_per_s": round(decisions / window, 1),
                "race_wins_per_s": round(sum(r["race_wins"] for r in reports) / window, 1),
                "refusals": refusals,
                "matches_finished": sum(r["finished"] for r in reports),
            }
            if bots
            else {}
        ),
        **({"rest": rest} if rest is not None else {}),
        "ok": ok_matches == matches
        and moves > 0
        and not errors.get("disconnect")
        and not errors.get("unacked_at_end")
        and not (rest and rest["tables_failed"]),
    }


def distribution(samples: list[float]) -> dict[str, float]:
    """p50, p95, p99, max and mean of sorted latency ``samples`` (ms)."""
    return {
        "p50": percentile(samples, 50),
        "p95": percentile(samples, 95),
        "p99": percentile(samples, 99),
        "max": round(samples[-1], 2) if samples else 0.0,
        "mean": round(sum(samples) / len(samples), 2) if samples else 0.0,
    }


def _without(samples: list[float], removed: list[float]) -> list[float]:
    """Sorted ``samples`` less one occurrence of each of the sorted ``removed`` values."""
    left = Counter(removed)
    kept = []
    for value in samples:
        if left[value]:
            left[value] -= 1
        else:
            kept.append(value)
    return kept


def summary(result: dict[str, Any]) -> str:
    """The one-line human summary printed to stderr."""
    lat, server = result["latency_ms"], result["server"]
    races = split = ""
    if "race_decisions_per_s" in result:
        races = f"race decisions {result['race_decisions_per_s']}/s, "
        turns, grabs = result["latency_ms_turn_actions"], result["latency_ms_grabs"]
        split = f" (turn actions p99 {turns['p99']} ms, grabs p99 {grabs['p99']} ms)"
    procs = result.get("load_procs", 1)
    rest = result.get("rest")
    if rest is not None:
        split += (
            f", beside {rest['tables_opened_per_s']} tables/s opened over REST"
            f" (requests p50 {rest['latency_ms']['p50']} ms, p99 {rest['latency_ms']['p99']} ms)"
        )
    scrape = result.get("scrape")
    if scrape is not None:
        split += (
            f", /metrics scraped {scrape['scrapes']} times every {scrape['every_s']} s"
            f" ({scrape['bytes_per_scrape']} bytes, p50 {scrape['ms_p50']} ms)"
        )
    split += side_summary(result.get("side"))
    return (
        f"{result['peer']:>13} M={result['matches']:<4} think={result['think_ms']}ms: {races}"
        f"{result['moves_per_s']} actions/s, p50 {lat['p50']} ms, p99 {lat['p99']} ms{split}, "
        f"server CPU {server['cpu_pct']}% ({server['cpu_us_per_move']} us/action), "
        f"RSS {server['rss_mb_end']} MB, waiting for a CPU {server['runqueue_wait_pct']}%, "
        f"loadgen CPU {result['loadgen']['cpu_pct']}%"
        f"{f' over {procs} procs' if procs > 1 else ''}, "
        f"machine {result['machine_cpu_busy_pct']}%, "
        f"errors {sum(result['errors'].values())}, ok={result['ok']}"
    )


def side_summary(side: dict[str, Any] | None) -> str:
    """The stores' and the action log's figures for the summary line ('' without them)."""
    if side is None:
        return ""
    commit = side["commit"]
    text = f", commit mean {commit['mean_ms']} ms (p99 <= {commit['p99_ms_at_most']} ms)"
    if "postgres" in side:
        pg = side["postgres"]
        text += (
            f", PostgreSQL CPU {pg['cpu_pct']}% ({pg['cpu_us_per_move']} us/move,"
            f" {pg['moves_per_commit']} moves/commit)"
        )
    if "redis" in side:
        redis = side["redis"]
        text += (
            f", Redis CPU {redis['cpu_pct']}% ({redis['cpu_us_per_move']} us/move,"
            f" {redis['commands_per_move']} commands/move)"
        )
    return text
