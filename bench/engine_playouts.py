"""Engine playout speed: heuristic-bot Ambush! games per second and actions per second."""

from __future__ import annotations

import argparse
import time

from engines.ambush.bots import HeuristicBot
from engines.ambush.engine import AmbushEngine
from engines.base import Bot
from engines.playout import play

# About 10 s in all on a quiet 2-core machine (4-seat games cost about 3x a duel).
DEFAULT_GAMES = 250


def run(seats: int, games: int) -> tuple[float, int, int]:
    """Play ``games`` heuristic-bot games; return (seconds, accepted actions, ticks)."""
    engine = AmbushEngine()
    actions = ticks = 0
    start = time.perf_counter()
    for game in range(games):
        bots: list[Bot] = [HeuristicBot(s, game * 10 + s) for s in range(seats)]
        record = play(engine, bots, seed=game)
        ticks += sum(1 for seat, _, _ in record.log if seat is None)
        actions += sum(1 for seat, _, _ in record.log if seat is not None)
    return time.perf_counter() - start, actions, ticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help="games per seat count (2, 3 and 4)"
    )
    args = parser.parse_args()
    print(f"Ambush! heuristic-bot playouts, {args.games} games per seat count")
    print(f"{'seats':>5} {'games/s':>9} {'actions/s':>10} {'actions/game':>13} {'ms/game':>8}")
    for seats in (2, 3, 4):
        seconds, actions, _ticks = run(seats, args.games)
        print(
            f"{seats:>5} {args.games / seconds:>9.1f} {actions / seconds:>10.0f}"
            f" {actions / args.games:>13.1f} {1000 * seconds / args.games:>8.1f}"
        )


if __name__ == "__main__":
    main()
