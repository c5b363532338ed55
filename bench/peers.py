"""Side by side: boardgame.io, Colyseus and Rampart on the shared peer workload, one table.

Runs the peer benchmarks' ``run.sh PEER M THINK`` (a ``peers`` kit kept beside the repository,
not part of it: ``PEERS_DIR``) for every peer and every standard row (M = 250, 1000, 2000 with
THINK = 500 and M = 250 with THINK = 0), one after another on this machine, so all three
servers meet the same Node load generator in the same session. Each run's JSON line is appended
to ``--out`` (one line per run, readable by ``peers/table.js`` too) and the markdown table is
printed at the end, with the machine's load average before each run (the machine may be shared:
a busy neighbour shows up there).

    .venv/bin/python bench/peers.py                 # ~20 min: 12 runs of 5 s + 20 s + set-up
    .venv/bin/python bench/peers.py --quick         # 3 s warm-up, 8 s window
    .venv/bin/python bench/peers.py --peers rampart --rows 1000:500
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import json
import os
import subprocess
import time
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEERS_DIR = ROOT.parent / "shared" / "peers"
STANDARD_ROWS = ((250, 500), (1000, 500), (2000, 500), (250, 0))
PEERS = ("bgio", "colyseus", "rampart")
# All the load's clients come from 127.0.0.1: the per-address limits (accounts, tables, reads,
# sockets) would refuse them at once (429 ``rate/limited``), so a Rampart run lifts them.
UNLIMITED = {
    "RAMPART_ACCOUNT_ADDRESS_LIMIT": "",
    "RAMPART_TABLE_ADDRESS_LIMIT": "",
    "RAMPART_TABLE_ACCOUNT_LIMIT": "",
    "RAMPART_READ_ADDRESS_LIMIT": "",
    "RAMPART_SOCKETS_PER_ADDRESS": "0",
}
NAMES = {"bgio": "boardgame.io", "colyseus": "colyseus", "rampart": "rampart"}


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run_one(peer: str, matches: int, think: int, duration: int, warmup: int) -> dict[str, Any]:
    """One run.sh call; a failed run still yields its JSON line (``ok`` false)."""
    before = load_average()
    command = [str(PEERS_DIR / "run.sh"), peer, str(matches), str(think), str(duration)]
    command.append(str(warmup))
    env = {**os.environ, **UNLIMITED} if peer == "rampart" else None
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if lines:
        result: dict[str, Any] = json.loads(lines[-1])
    else:
        tail = done.stderr.strip().splitlines()[-3:]
        result = {"peer": peer, "matches": matches, "think_ms": think, "ok": False}
        result["failure"] = " | ".join(tail)
    result["loadavg_before"] = before
    result["wall_s"] = round(time.monotonic() - started, 1)
    return result


def cell(value: Any) -> str:
    return "-" if value is None else str(value)


def per_seat_kib(result: dict[str, Any]) -> float | None:
    """The server's RSS at its largest in the window, per connected client (one per seat)."""
    rss, clients = result.get("server", {}).get("rss_mb_max_window"), result.get("clients")
    return round(rss * 1024 / clients, 1) if rss and clients else None


def table(results: list[dict[str, Any]]) -> str:
    head = (
        "| peer | M | THINK ms | moves/s | p50 ms | p95 ms | p99 ms | max ms | server CPU % "
        "| server CPU µs/move | server RSS MB end/peak | server KiB/seat | loadgen CPU % "
        "| loadgen lag p99 ms "
        "| machine busy % | load avg before | errors | ok |"
    )
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in results:
        lat = r.get("latency_ms", {})
        server = r.get("server", {})
        loadgen = r.get("loadgen", {})
        errors = r.get("errors")
        error_count = sum(v for v in errors.values() if isinstance(v, int)) if errors else "-"
        ok = "yes" if r.get("ok") else f"no ({r.get('failure', 'see errors')[:60]})"
        row = [
            NAMES.get(r["peer"], r["peer"]) + (f" ({r['label']})" if r.get("label") else ""),
            r.get("matches"),
            r.get("think_ms"),
            r.get("moves_per_s"),
            lat.get("p50"),
            lat.get("p95"),
            lat.get("p99"),
            lat.get("max"),
            server.get("cpu_pct"),
            server.get("cpu_us_per_move"),
            f"{cell(server.get('rss_mb_end'))}/{cell(server.get('rss_mb_peak'))}",
            per_seat_kib(r),
            loadgen.get("cpu_pct"),
            loadgen.get("loop_lag_p99_ms"),
            r.get("machine_cpu_busy_pct"),
            r.get("loadavg_before"),
            error_count,
            ok,
        ]
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)


def parse_rows(text: str) -> list[tuple[int, int]]:
    rows = []
    for part in text.split(","):
        matches, think = part.split(":")
        rows.append((int(matches), int(think)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 s warm-up, 8 s window")
    parser.add_argument("--peers", default=",".join(PEERS), help="comma list of " + "/".join(PEERS))
    parser.add_argument("--rows", default=None, help="M:THINK,... (default: the standard four)")
    parser.add_argument("--out", default="/tmp/rampart-peers.jsonl", help="JSON lines go here")
    parser.add_argument("--table-only", action="store_true", help="print the table of --out")
    parser.add_argument("--label", default="", help="tag these rows (e.g. the code variant)")
    args = parser.parse_args()
    out = Path(args.out)
    if args.table_only:
        results = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
        print(table(results))
        return
    if not (PEERS_DIR / "run.sh").exists():
        raise SystemExit(f"{PEERS_DIR} is missing: the peer benchmarks are not here")
    duration, warmup = (8, 3) if args.quick else (20, 5)
    rows = parse_rows(args.rows) if args.rows else list(STANDARD_ROWS)
    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    results = []
    for matches, think in rows:
        for peer in peers:
            print(f"[peers] {peer} M={matches} THINK={think} ...", file=sys.stderr, flush=True)
            result = run_one(peer, matches, think, duration, warmup)
            if args.label:
                result["label"] = args.label
            results.append(result)
            with out.open("a") as sink:
                sink.write(json.dumps(result) + "\n")
            lat = result.get("latency_ms", {})
            print(
                f"[peers]   p99 {lat.get('p99')} ms, "
                f"{result.get('server', {}).get('cpu_us_per_move')} µs/move, ok={result['ok']}",
                file=sys.stderr,
                flush=True,
            )
    print(f"# peers on {os.cpu_count()} cpus, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(table(results))


if __name__ == "__main__":
    main()
