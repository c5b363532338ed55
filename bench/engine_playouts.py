"""Engine playout speed: heuristic-bot games per second for every engine and seat count.

Bots on a simulated clock (``engines.playout.play``): engine rules, views and bot decisions,
no server. The bar is 200 games/s for 2 seats; an engine below it is marked.

    .venv/bin/python bench/engine_playouts.py                  # 60 games per row, best of 3
    .venv/bin/python bench/engine_playouts.py --games 200 --only castles,ember
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import importlib
import time

from engines import registry
from engines.base import Bot
from engines.playout import play

TARGET_2_SEATS = 200.0


def run(game: str, seats: int, games: int) -> tuple[float, int]:
    """Play ``games`` heuristic-bot games; return (CPU seconds, accepted actions)."""
    engine = registry.get(game)
    bots_module = importlib.import_module(f"engines.{game}.bots")
    actions = 0
    # CPU time, not wall time: on a shared machine a neighbour's load does not count.
    start = time.process_time()
    for index in range(games):
        bots: list[Bot] = [bots_module.HeuristicBot(s, index * 10 + s) for s in range(seats)]
        record = play(engine, bots, seed=index)
        actions += sum(1 for seat, _, _ in record.log if seat is not None)
    return time.process_time() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games per engine and seat count")
    parser.add_argument("--only", default=None, help="comma list of engine ids")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per row; the fastest counts (shared VMs)"
    )
    args = parser.parse_args()
    games = args.only.split(",") if args.only else registry.ids()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(
        f"heuristic-bot playouts, {args.games} games per row, best of {args.repeat},"
        f" load average {load}"
    )
    print(f"{'engine':>8} {'seats':>5} {'games/s':>9} {'actions/s':>10} {'actions/game':>13}  note")
    for game in games:
        engine = registry.get(game)
        for seats in range(engine.min_seats, engine.max_seats + 1):
            seconds, actions = min(run(game, seats, args.games) for _ in range(args.repeat))
            rate = args.games / seconds
            note = "below 200/s" if seats == 2 and rate < TARGET_2_SEATS else ""
            print(
                f"{game:>8} {seats:>5} {rate:>9.1f} {actions / seconds:>10.0f}"
                f" {actions / args.games:>13.1f}  {note}"
            )


if __name__ == "__main__":
    main()
