"""Bot playouts per second for every registered engine (heuristic bots, 2 and 4 seats).

The issue's bar is 200 games/s for 2 seats; engines below it are marked. ``engine_playouts.py``
is the Ambush!-only version with 3 seats and action counts.

    .venv/bin/python bench/playouts.py               # 40 games per engine and seat count
    .venv/bin/python bench/playouts.py --games 200 --only ember
"""

from __future__ import annotations

import argparse
import importlib
import time
from pathlib import Path

from engines import registry
from engines.base import Bot
from engines.playout import play

TARGET_2_SEATS = 200.0


def run(game: str, seats: int, games: int) -> tuple[float, float]:
    """Play ``games`` heuristic-bot games; return (games per second, actions per game)."""
    engine = registry.get(game)
    bots_module = importlib.import_module(f"engines.{game}.bots")
    actions = 0
    start = time.perf_counter()
    for game_index in range(games):
        bots: list[Bot] = [bots_module.HeuristicBot(s, game_index * 10 + s) for s in range(seats)]
        record = play(engine, bots, seed=game_index)
        actions += sum(1 for seat, _, _ in record.log if seat is not None)
    seconds = time.perf_counter() - start
    return games / seconds, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--only", default=None, help="comma list of engine ids")
    args = parser.parse_args()
    games = args.only.split(",") if args.only else registry.ids()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"heuristic-bot playouts, {args.games} games each, load average {load}")
    print(f"{'engine':>8} {'seats':>5} {'games/s':>9} {'actions/game':>13}  note")
    for game in games:
        for seats in (2, 4):
            engine = registry.get(game)
            if not engine.min_seats <= seats <= engine.max_seats:
                continue
            rate, per_game = run(game, seats, args.games)
            note = "below 200/s" if seats == 2 and rate < TARGET_2_SEATS else ""
            print(f"{game:>8} {seats:>5} {rate:>9.1f} {per_game:>13.1f}  {note}")


if __name__ == "__main__":
    main()
