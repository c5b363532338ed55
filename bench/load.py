"""Load generator: N concurrent 4-seat matches of bot clients over real websockets.

Mirrors the peer benchmarks' workload (``bench/peers.py``): per match four guest accounts,
a table over REST, one websocket per seat; 5 s warm-up, a measured window, 10 s grace.
``--game tally`` is the peers' move rule (``cell = (n*7 + seat) % 20``, THINK ms per move);
any other game plays the engine's HeuristicBot on every seat over the wire (a finished match
is replaced by a new one). Latency is from an action sent to the mover's receipt of the patch
with that action's version. Prints one JSON line (the peers' field names) and a summary, plus
``--echo``: the same workload against a bare websocket relay on the same stack (uvicorn +
Starlette, no engine, no database) as the ceiling.

``--workload ambush`` plays real 4-seat Ambush! matches: every seat is the engine's
HeuristicBot at human pace (1-3 s per turn decision, grabs 200-600 ms after the call), grabs
sent as ``grab{ref, dt}`` against the last patch drawn. It reports the same figures (a grab's
latency runs to its ``grab_result``) plus race decisions per second and the refusal codes.

``--procs N`` spreads the load over N worker processes (match indexes k, k+N, ... each; the
same M gives the same matches whatever N is), so the load generator is not the first to run
out of a core: they start together, measure the same window, and their reports are merged
(latency over every sample, counts summed, ``loadgen.cpu_pct`` summed with a per-worker list
in ``loadgen.workers``, ``loop_lag_p99_ms`` the worst worker's). The code is in
``bench/loadgen/``.

``--nodes N`` runs N server processes on one database and a throwaway ``redis-server``
(``app/cluster``); match ``i`` is opened on process ``i % N`` and its seats connect there,
to the process that owns it, as a load balancer routing by match would send them; with
``--spread`` the seats of a match go round-robin over the processes instead, and those that
land away from the owner are relayed to it. Server CPU and memory are the sum over the
processes (and each, in ``server.cpu_pct_each``).

``side`` in the result: what the stores and the servers' own metrics say over the window,
also per move: the action log's commit time and the broadcast time (``/metrics``
histograms, bucket-bounded percentiles), and with ``--nodes`` the Redis server's CPU and
commands (by command), with ``--postgres`` (a throwaway PostgreSQL cluster for the run, in
place of SQLite) the whole cluster's CPU, commits (and so moves per group commit), rows and
WAL bytes. ``loadavg_at_start``: the machine's load average as the window opened.
``--server-root DIR`` serves the code of another folder, such as a git worktree of an older
commit, with the same load client (for before/after figures).

    .venv/bin/python bench/load.py --matches 100 --seconds 20 --think 500
    .venv/bin/python bench/load.py --workload ambush --matches 1000 --no-echo --procs 2
    .venv/bin/python bench/load.py --workload ambush --matches 1000 --no-echo --procs 2 --nodes 2
    .venv/bin/python bench/load.py --matches 1000 --no-echo --procs 2 --nodes 2 --postgres
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

from bench.loadgen.driver import run_one, worker_main
from bench.loadgen.report import summary
from bench.loadgen.servers import serve_echo


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--grace", type=float, default=10.0)
    parser.add_argument("--think", type=int, default=500, help="tally: ms before each move")
    parser.add_argument("--game", default="tally")
    parser.add_argument(
        "--workload",
        choices=("tally", "ambush"),
        default=None,
        help="tally: the peers' move rule; ambush: HeuristicBot Ambush! matches (= --game ambush)",
    )
    parser.add_argument(
        "--procs", type=int, default=1, help="load generator processes (default 1: this one)"
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=1,
        help="server processes sharing one database and a throwaway redis-server",
    )
    parser.add_argument(
        "--spread",
        action="store_true",
        help="with --nodes: seats connect round-robin over the processes (relayed to the owner)",
    )
    parser.add_argument(
        "--open-rate",
        type=float,
        default=0.0,
        help="tables a second opened over REST during the window, beside the moves (their "
        "seats never connect): what lobby traffic costs the server and the moves",
    )
    parser.add_argument(
        "--scrape-every",
        type=float,
        default=0.0,
        help="GET /metrics of every server process every S seconds during the run (what "
        "Prometheus scraping costs the moves)",
    )
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="a throwaway PostgreSQL cluster for the run (as scripts/with-postgres.sh starts "
        "one) in place of SQLite; its CPU, commits and WAL per move are reported",
    )
    parser.add_argument(
        "--pg-fsync",
        choices=("on", "off"),
        default="on",
        help="with --postgres: its fsync setting (on: commits reach the disk, as in production)",
    )
    parser.add_argument(
        "--server-root",
        default=None,
        help="serve the code of this folder (a git worktree of another commit) instead",
    )
    parser.add_argument(
        "--no-side",
        action="store_true",
        help="skip reading the stores' counters and the servers' /metrics at the window's ends",
    )
    parser.add_argument("--no-echo", action="store_true", help="skip the echo ceiling")
    parser.add_argument("--serve-echo", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_echo:
        serve_echo(args.port)
        return
    if args.worker:
        worker_main()
        return
    if args.procs < 1 or args.nodes < 1:
        parser.error("--procs and --nodes must be at least 1")
    if args.workload is not None:
        args.game = args.workload
    if args.postgres and args.database_url:
        parser.error("--postgres starts its own database: leave out --database-url")
    args.pg_fsync = args.pg_fsync == "on"
    results = [asyncio.run(run_one(args, echo=False))]
    if not args.no_echo and args.game == "tally":
        results.append(asyncio.run(run_one(args, echo=True)))
    for result in results:
        print(json.dumps(result))
    for result in results:
        print(summary(result), file=sys.stderr)


if __name__ == "__main__":
    main()
