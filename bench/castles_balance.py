"""Castles deck balance: Red's win rate and game length over heuristic-bot games.

    .venv/bin/python bench/castles_balance.py            # 5,000 games on every core
    .venv/bin/python bench/castles_balance.py --games 500 --jobs 1

Red (side 0, seat 0) moves first. The issue wants Red's win rate within 45-55%.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import os
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engines.castles.bots import HeuristicBot
from engines.castles.engine import CastlesEngine
from engines.playout import play

Result = tuple[str, int | None, int, int, int]  # reason, winner side, turns, actions, ms


def play_range(first: int, count: int, options: dict[str, Any]) -> list[Result]:
    """Play games with seeds ``first .. first + count - 1``; one result per game."""
    engine = CastlesEngine()
    results: list[Result] = []
    for seed in range(first, first + count):
        bots = [HeuristicBot(seat, seed * 17 + seat) for seat in range(2)]
        record = play(engine, bots, seed, options)
        outcome = record.outcome
        assert outcome is not None, f"seed {seed} did not end"
        winner = None if len(outcome.placings) == 1 else outcome.placings[0][0] % 2
        actions = sum(1 for seat, _, _ in record.log if seat is not None)
        results.append((outcome.reason, winner, record.state.turn, actions, record.now_ms))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--terrain", action="store_true", help="a mixed terrain with a river")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    if args.terrain:
        options = {
            "terrain": ["plains", "forest", "hills", "hills", "forest", "plains"],
            "rivers": [2],
        }
    started = time.perf_counter()
    jobs = max(1, min(args.jobs, args.games))
    size = 50  # small chunks keep both workers busy to the end
    end = args.seed + args.games
    starts = list(range(args.seed, end, size))
    counts = [min(size, end - start) for start in starts]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = pool.map(play_range, starts, counts, [options] * len(starts))
        results = [result for part in parts for result in part]
    elapsed = time.perf_counter() - started
    report(results, elapsed, options)


def report(results: list[Result], elapsed: float, options: dict[str, Any]) -> None:
    games = len(results)
    winners = Counter(winner for _, winner, _, _, _ in results)
    reasons = Counter(reason for reason, _, _, _, _ in results)
    turns = sorted(turn for _, _, turn, _, _ in results)
    actions = [count for _, _, _, count, _ in results]
    minutes = [ms / 60000 for _, _, _, _, ms in results]
    decided = winners[0] + winners[1]
    print(f"Castles deck balance: {games} heuristic-bot games, options {options or 'default'}")
    print(f"  Red (moves first) wins: {winners[0]:5d}  {100 * winners[0] / games:5.1f}%")
    print(f"  Blue wins:              {winners[1]:5d}  {100 * winners[1] / games:5.1f}%")
    print(f"  draws:                  {winners[None]:5d}  {100 * winners[None] / games:5.1f}%")
    if decided:
        print(f"  Red share of decided games: {100 * winners[0] / decided:.1f}% (wanted 45-55%)")
    print("  ended by: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    print(
        f"  length in turns (one side's turn each): mean {statistics.mean(turns):.1f}, "
        f"median {statistics.median(turns):.0f}, p10 {turns[games // 10]}, "
        f"p90 {turns[(9 * games) // 10]}, max {turns[-1]}"
    )
    print(
        f"  actions per game: mean {statistics.mean(actions):.1f}; "
        f"bot-clock minutes per game: mean {statistics.mean(minutes):.1f}"
    )
    print(f"  wall time {elapsed:.1f} s ({1000 * elapsed / games:.1f} ms per game)")


if __name__ == "__main__":
    main()
