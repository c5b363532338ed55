"""Ember balance report: heuristic-bot games per hero pairing and 4-player, win rates, length.

Usage: ``.venv/bin/python bench/ember_balance.py [--games 5000] [--workers 2] [--seed 1]``.
Each hero pairing (2 players) and the 4-player table plays ``--games`` games with seats and
first player drawn from the seed; a tie shares the win between the tied seats.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import itertools
import multiprocessing
import statistics
import time
from collections import defaultdict
from typing import Any

from engines.base import Rng
from engines.ember.bots import HeuristicBot
from engines.ember.cards import HERO_IDS
from engines.ember.engine import EmberEngine
from engines.playout import play

ENGINE = EmberEngine()


def play_one(seed: int, heroes: list[str]) -> dict[str, Any]:
    """One heuristic-bot game on the playout host's simulated clock."""
    seats = len(heroes)
    order = list(heroes)
    Rng(seed ^ 0x5EED).shuffle(order)
    bots = [HeuristicBot(seat, seed * 8 + seat) for seat in range(seats)]
    record = play(ENGINE, bots, seed, {"heroes": order})
    state, steps = record.state, record.steps
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    winners = outcome.placings[0]
    return {
        "heroes": order,
        "wins": {order[s]: 1.0 / len(winners) for s in winners},
        "turns": state.turns,
        "rounds": min(state.round, state.max_rounds),
        "reason": outcome.reason,
        "first": order[state.first_seat],
        "steps": steps,
    }


def _batch(job: tuple[list[str], list[int]]) -> list[dict[str, Any]]:
    heroes, seeds = job
    return [play_one(seed, heroes) for seed in seeds]


def report(name: str, results: list[dict[str, Any]]) -> list[str]:
    games = len(results)
    wins: dict[str, float] = defaultdict(float)
    first_wins = 0.0
    reasons: dict[str, int] = defaultdict(int)
    for result in results:
        for hero, share in result["wins"].items():
            wins[hero] += share
        first_wins += result["wins"].get(result["first"], 0.0)
        reasons[result["reason"]] += 1
    turns = [r["turns"] for r in results]
    rounds = [r["rounds"] for r in results]
    rates = "  ".join(f"{hero} {wins[hero] / games:6.1%}" for hero in results[0]["heroes"])
    ended = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    return [
        f"{name:<22} {games} games  {rates}",
        f"{'':<22} rounds mean {statistics.mean(rounds):.1f} median "
        f"{statistics.median(rounds):.0f} max {max(rounds)}; turns mean "
        f"{statistics.mean(turns):.1f}; first player wins {first_wins / games:.1%}; {ended}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5000, help="games per table (default 5000)")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--four-only", action="store_true", help="only the 4-player table")
    args = parser.parse_args()
    tables: list[tuple[str, list[str]]] = [
        (f"{a} v {b}", [a, b]) for a, b in itertools.combinations(HERO_IDS, 2)
    ]
    if args.four_only:
        tables.clear()
    tables.append(("4-player", list(HERO_IDS)))
    chunk = 250
    jobs: list[tuple[list[str], list[int]]] = []
    for index, (_, heroes) in enumerate(tables):
        seeds = [args.seed * 1_000_003 + index * 10_000_019 + g for g in range(args.games)]
        jobs += [(heroes, seeds[i : i + chunk]) for i in range(0, len(seeds), chunk)]
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        batches = pool.map(_batch, jobs)
    by_table: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for (heroes, _), batch in zip(jobs, batches, strict=True):
        by_table[tuple(heroes)].extend(batch)
    print(f"Ember balance: heuristic bots, {args.games} games per table, seed {args.seed}")
    for name, heroes in tables:
        for line in report(name, by_table[tuple(heroes)]):
            print(line)
    four = by_table[tuple(HERO_IDS)]
    top = max(sum(r["wins"].get(h, 0.0) for r in four) / len(four) for h in HERO_IDS)
    verdict = "ok" if top <= 0.30 else "TOO HIGH"
    print(f"highest 4-player hero win rate {top:.1%} (limit 30%): {verdict}")
    print(
        f"{len(jobs) * chunk if args.games % chunk == 0 else sum(map(len, batches))} games "
        f"in {time.perf_counter() - started:.1f} s on {args.workers} workers"
    )


if __name__ == "__main__":
    main()
