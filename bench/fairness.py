"""Fairness harness for Ambush! grab races: bots with known reaction times behind delaying
proxies play real races against a real server; figures for the arbiter and first arrival.

    .venv/bin/python -m bench.fairness --quick [--json PATH] [--port 8000] [--no-priority]

Every table is a real Ambush! match over websockets. Each bot sits behind its own
``bench.delay_proxy`` link (latencies are round trips, as a ping shows them: half each way,
plus per-direction jitter). When Ambush! is called every bot grabs the same first cell after a
reaction time the harness draws for that call (the gap between the two fastest is stratified
so every bucket fills), and reports ``dt`` measured from the moment it read the call; the
cheater subtracts ``lie_ms``. After the match the REST event export gives every decision with
its inputs (arrival, V, clamp); the first-arrival baseline re-decides the same claims by
arrival. Without ``--port`` a server is started on a temporary SQLite database. The bots and
tables are in ``bench/fairness_tables.py``, the scoring in ``bench/fairness_figures.py``.
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
import os
import tempfile
import time
from dataclasses import asdict
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fairness_figures import (  # noqa: E402
    UNJUDGED,
    Race,
    claims_of,
    details,
    figures,
    races_of,
)
from bench.fairness_tables import SCENARIOS, Player, Table, collect, play_table  # noqa: E402
from tests.app.support import Api, Server  # noqa: E402  (the repository's server helpers)


def raise_priority(pid: int = 0, *, realtime: bool = False) -> bool:
    """Nice -10 (or, with ``realtime``, SCHED_FIFO) for the harness and its server: on a
    shared machine other processes' CPU load otherwise shows up as tens of ms of scheduling
    delay, which the arbiter cannot tell from network jitter. Both processes mostly sleep in
    epoll. Needs root (or CAP_SYS_NICE); without it, measure as is."""
    try:
        if realtime:
            os.sched_setscheduler(pid, os.SCHED_FIFO, os.sched_param(10))
        else:
            os.setpriority(os.PRIO_PROCESS, pid, -10)
    except OSError:
        return False
    return True


async def run(args: argparse.Namespace) -> dict[str, Any]:
    names = args.scenario or list(SCENARIOS)
    tables_per = args.tables or (2 if args.quick else 6)
    racing_s = args.seconds or (40.0 if args.quick else 240.0)
    server = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.port is None:
            server = Server(f"sqlite+aiosqlite:///{tmp}/fairness.db", {"RAMPART_CLOCK_RATE": "1"})
            server.start(Path(tmp))
            if args.priority and server.process is not None:
                raise_priority(server.process.pid, realtime=args.realtime)
        else:
            server = Server("", port=args.port)
        api = Api(server)
        try:
            stop_at = time.monotonic() + racing_s
            tables = [
                Table(name, SCENARIOS[name], seed=args.seed * 1000 + 10 * i + k, stop_at=stop_at)
                for i, name in enumerate(names)
                for k in range(tables_per)
            ]
            await asyncio.gather(
                *(play_table(api, server.port, t, 0.5 * k) for k, t in enumerate(tables))
            )
            played = [await collect(api, table) for table in tables]
            for t, result in zip(tables, played, strict=True):
                won = sum(bool(g.won) for g in t.grabs)
                print(
                    f"{t.scenario} match {t.match_id}: {t.calls} calls, "
                    f"{len(t.grabs)} grabs, {won} won, {len(result['log'])} versions"
                )
        finally:
            await api.close()
            if args.port is None:
                server.stop()
    if args.dump is not None:
        raw = [
            {
                "scenario": t.scenario,
                "match_id": t.match_id,
                "players": [asdict(p) for p in t.players],
                "grabs": [asdict(g) for g in t.grabs],
                "claims": list(claims_of(result["log"]).values()),
            }
            for t, result in zip(tables, played, strict=True)
        ]
        args.dump.write_text(json.dumps(raw) + "\n")
    report: dict[str, Any] = {"scenarios": {}, "details": {}}
    report["environment"] = {
        "load_average_1m": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "priority_raised": args.priority_raised,
        "realtime": args.realtime,
        "tables_per_scenario": tables_per,
        "racing_s": racing_s,
    }
    for name in names:
        races: list[Race] = []
        honest: list[dict[str, Any]] = []
        liar: list[tuple[Player, dict[str, Any]]] = []
        records = []
        for table, result in zip(tables, played, strict=True):
            if table.scenario != name:
                continue
            claims = claims_of(result["log"])
            races += races_of(table, claims)
            for (seat, _), claim in claims.items():
                if claim["code"] in UNJUDGED:
                    continue  # refused before judging: a grab for a race already over
                player = table.players[seat]
                (liar.append((player, claim)) if player.lie_ms else honest.append(claim))
            records.append(result["match"])
        report["scenarios"][name] = {
            "arbiter": figures(races, honest, "arbiter"),
            "first_arrival": figures(races, honest, "first_arrival"),
        }
        report["details"][name] = details(races, honest, liar, records)
    return report


def print_report(report: dict[str, Any]) -> None:
    for name, modes in report["scenarios"].items():
        info = report["details"][name]
        print(f"\n{name}: {info['contested']} contested grabs {info['by_gap']}")
        for mode, figs in modes.items():
            gaps = "  ".join(f"{k}: {_pct(v)}" for k, v in figs["correct_by_gap"].items())
            fair = "  ".join(f"{k} {v}" for k, v in figs["fair_share"].items())
            print(f"  {mode:13} correct {gaps}")
            print(f"  {'':13} fair share {fair}")
            print(
                f"  {'':13} clamped honest {_pct(figs['clamped_honest'])}"
                f"  cheater gain {figs['cheater_gain']}"
            )
        rest = {k: v for k, v in info.items() if k not in ("contested", "by_gap")}
        print(f"  details: {rest}")


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 tables x 40 s per scenario")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--port", type=int, help="use a running server on 127.0.0.1:PORT")
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS))
    parser.add_argument("--tables", type=int, help="tables per scenario")
    parser.add_argument("--seconds", type=float, help="racing time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", type=Path, help="write every grab and decided claim here")
    parser.add_argument(
        "--no-priority",
        dest="priority",
        action="store_false",
        help="do not raise the harness's and its server's scheduling priority",
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="SCHED_FIFO instead of nice -10 for the harness and its server (root only)",
    )
    args = parser.parse_args()
    args.priority_raised = args.priority and raise_priority(realtime=args.realtime)
    started = time.monotonic()
    report = asyncio.run(run(args))
    print_report(report)
    print(f"\n({time.monotonic() - started:.0f} s; {report['environment']})")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
