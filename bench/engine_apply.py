"""Engine ``apply`` speed: heuristic-bot games replayed from their logs, rules only.

``engine_playouts.py`` times whole bot games (bots and views included); this replays the
logs of such games (``engines.playout.replay``: setup, then every logged action and tick),
so the figure is the engines' ``apply`` (envelope, checks, rules) and ``tick`` alone.

    .venv/bin/python bench/engine_apply.py                   # 40 games per row, best of 5
    .venv/bin/python bench/engine_apply.py --only ambush --games 100
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
from engines.playout import Playout, play, replay


def recorded(game: str, seats: int, games: int) -> list[Playout]:
    """``games`` heuristic-bot games, kept for their logs."""
    engine = registry.get(game)
    bots_module = importlib.import_module(f"engines.{game}.bots")
    records = []
    for index in range(games):
        bots: list[Bot] = [bots_module.HeuristicBot(s, index * 10 + s) for s in range(seats)]
        records.append(play(engine, bots, seed=index))
    return records


def replay_time(game: str, records: list[Playout]) -> float:
    """CPU seconds to replay every record once."""
    engine = registry.get(game)
    start = time.process_time()
    for record in records:
        replay(engine, record.seats, record.seed, record.options, record.log)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per engine and seat count")
    parser.add_argument("--only", default=None, help="comma list of engine ids")
    parser.add_argument("--repeat", type=int, default=5, help="replays per row; the fastest counts")
    args = parser.parse_args()
    games = args.only.split(",") if args.only else registry.ids()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"replayed bot games, {args.games} per row, best of {args.repeat}, load {load}")
    print(f"{'engine':>8} {'seats':>5} {'actions':>8} {'µs/action':>10}")
    for game in games:
        engine = registry.get(game)
        for seats in range(engine.min_seats, engine.max_seats + 1):
            records = recorded(game, seats, args.games)
            actions = sum(len(record.log) for record in records)
            best = min(replay_time(game, records) for _ in range(args.repeat))
            print(f"{game:>8} {seats:>5} {actions:>8} {best / actions * 1e6:>10.2f}")


if __name__ == "__main__":
    main()
