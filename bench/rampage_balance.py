"""Castle Rampage balance check: heuristic-bot games, first-player edge, length, card stats.

Usage: .venv/bin/python bench/rampage_balance.py [--games 5000] [--seed 0]

Prints the starting player's win rate (with a 95% interval), game length in turns, how the
games ended, and for each card kind: how often a copy that reached a hand was played, used
as a defence or discarded, and the win rate of players who played it at least once.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import math
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engines.base import Event
from engines.playout import play
from engines.rampage.bots import HeuristicBot
from engines.rampage.cards import CARDS, kind_of
from engines.rampage.engine import RampageEngine


@dataclass
class Tally:
    """Counts gathered over all games."""

    games: int = 0
    first_wins: int = 0
    turns: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    in_hand: Counter[str] = field(default_factory=Counter)
    played: Counter[str] = field(default_factory=Counter)
    defended: Counter[str] = field(default_factory=Counter)
    played_by: Counter[str] = field(default_factory=Counter)  # (player, game) pairs
    won_by: Counter[str] = field(default_factory=Counter)
    held_by: Counter[str] = field(default_factory=Counter)  # (player, game) pairs
    won_holding: Counter[str] = field(default_factory=Counter)


def play_one(engine: RampageEngine, seed: int, tally: Tally) -> None:
    """One heuristic-vs-heuristic game, its events folded into ``tally``."""
    kinds_played: list[set[str]] = [set(), set()]
    kinds_held: list[set[str]] = [set(), set()]

    def watch(_state: Any, events: list[Event]) -> None:
        for event in events:
            kind = event["type"]
            if kind in ("drew", "setup_chosen"):
                cards = event["cards"] if kind == "drew" else event["aside"]
                tally.in_hand.update(kind_of(c) for c in cards)
                kinds_held[event["seat"]].update(kind_of(c) for c in cards)
            elif kind == "played":
                tally.played[kind_of(event["card"])] += 1
                kinds_played[event["seat"]].add(kind_of(event["card"]))
            elif kind == "defended":
                tally.defended[kind_of(event["card"])] += 1

    bots = [HeuristicBot(0, seed * 2 + 1), HeuristicBot(1, seed * 2 + 2)]
    record = play(engine, bots, seed, on_change=watch)
    outcome = record.outcome
    if outcome is None:
        raise RuntimeError(f"seed {seed}: the game did not end")
    winner = outcome.winners[0]
    tally.games += 1
    tally.first_wins += winner == record.state.first_seat
    tally.turns.append(record.state.turn)
    tally.reasons[outcome.reason] += 1
    for seat, kinds in enumerate(kinds_played):
        for kind in kinds:
            tally.played_by[kind] += 1
            tally.won_by[kind] += seat == winner
    for seat, kinds in enumerate(kinds_held):
        for kind in kinds:
            tally.held_by[kind] += 1
            tally.won_holding[kind] += seat == winner


def report(tally: Tally, seconds: float) -> None:
    n = tally.games
    rate = tally.first_wins / n
    margin = 1.96 * math.sqrt(rate * (1 - rate) / n)
    turns = sorted(tally.turns)
    print(f"games: {n} in {seconds:.1f} s ({1000 * seconds / n:.1f} ms a game)")
    print(f"first player wins: {100 * rate:.1f}% (95% interval +-{100 * margin:.1f})")
    print(
        f"turns (both players counted): mean {statistics.mean(turns):.1f}, median "
        f"{statistics.median(turns):.0f}, p10 {turns[n // 10]}, p90 {turns[(9 * n) // 10]}, "
        f"max {turns[-1]}"
    )
    print("ended by: " + ", ".join(f"{r} {100 * c / n:.1f}%" for r, c in tally.reasons.items()))
    print()
    print(
        f"{'card':<16}{'src':<9}{'in hand':>8}{'played':>8}{'defend':>8}"
        f"{'win% played':>13}{'win% held':>11}"
    )
    rows = sorted(CARDS, key=lambda k: -tally.won_by[k] / max(1, tally.played_by[k]))
    for kind in rows:
        seen = max(1, tally.in_hand[kind])
        by = tally.played_by[kind]
        win = f"{100 * tally.won_by[kind] / by:.1f}" if by else "-"
        held = f"{100 * tally.won_holding[kind] / max(1, tally.held_by[kind]):.1f}"
        print(
            f"{kind:<16}{CARDS[kind].source:<9}{tally.in_hand[kind] / n:>8.2f}"
            f"{100 * tally.played[kind] / seen:>7.0f}%{100 * tally.defended[kind] / seen:>7.0f}%"
            f"{win:>13}{held:>11}"
        )
    print()
    print("in hand: copies reaching a hand per game; played/defend: share of those copies;")
    print("win% played: win rate of players who played the card at least once in a game;")
    print("win% held: win rate of players to whose hand the card came at least once.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0, help="first seed; games use seed..")
    args = parser.parse_args()
    engine = RampageEngine()
    tally = Tally()
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        play_one(engine, seed, tally)
    report(tally, time.perf_counter() - started)


if __name__ == "__main__":
    main()
