"""Bot fairness and pace figures: damage share of a passive seat, race reactions per level.

Bot games on the simulated clock (``engines.playout``), so every figure is the bots' own
planned timing and choice, reproducible from the seeds:

- Ambush! damage taken from opponents' plays in the first six rounds of 4-seat games where one
  seat (rotating over the games) only exposes and passes, a stand-in for a new human: the
  passive seat's mean against the others' mean, per level; and each seat's share when four
  heuristic bots play (seat bias).
- Ember: attacks aimed at each seat (response windows opened) with a passive seat and without.
- Race reactions in 4-seat Ambush! bot games: the first grab of each bot after a call, and the
  time between a bot's grabs in one race (median, p10, p90, minimum), per level.

    .venv/bin/python bench/bot_figures.py               # 500 games per row
    .venv/bin/python bench/bot_figures.py --games 100
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import contextlib
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

if __package__ in (None, ""):  # run as a script: the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import registry
from engines.ambush.bots import HeuristicBot as AmbushBot
from engines.base import Bot, Decision, Rng
from engines.botkit import LEVEL_NAMES, LEVELS, Reaction
from engines.ember.bots import HeuristicBot as EmberBot
from engines.playout import play

ROUNDS = 6
PASSIVE_THINK_MS = 1500


class PassiveBot:
    """A seat that never calls nor grabs: it exposes and passes (Ambush!), or makes the first
    listed move that aims at nobody when there is one (Ember); it returns cards only when it
    must."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        return None

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        moves = [a for a in legal if a["type"] not in ("resign", "call_ambush", "grab")]
        if view.get("phase") == "turn" and view.get("turn") != self.seat:
            return None  # Ambush!: between its own turns it does nothing
        calm = [a for a in moves if a.get("target") is None and a.get("target_seat") is None]
        preferred = [a for a in calm if a["type"] in ("expose", "pass", "return")] or calm
        options = preferred or moves
        return Decision(options[0], now_ms + PASSIVE_THINK_MS) if options else None


BotMaker = Callable[[int, int], Bot]


def heuristic(game: str, level: str) -> BotMaker:
    """A maker of the game's heuristic bots at ``level``: ``(seat, seed) -> bot``."""
    cls = AmbushBot if game == "ambush" else EmberBot
    return lambda seat, seed: cls(seat, seed, level)


def lineup(make: BotMaker, seats: int, game_index: int, passive: int | None) -> list[Bot]:
    return [PassiveBot(s) if s == passive else make(s, game_index * 10 + s) for s in range(seats)]


def ambush_damage(
    seats: int, games: int, level: str, *, passive: bool, first_seed: int = 0
) -> tuple[list[float], list[float]]:
    """Damage taken from opponents' plays in the first ``ROUNDS`` rounds, one value per game
    in each list: the focus seat's and the others' mean. The focus seat rotates over the seats
    (``index % seats``); with ``passive`` it only exposes and passes."""
    engine = registry.get("ambush")
    make = heuristic("ambush", level)
    mine: list[float] = []
    others: list[float] = []
    for index in range(first_seed, first_seed + games):
        focus = index % seats
        taken = _ambush_game(engine, lineup(make, seats, index, focus if passive else None), index)
        mine.append(taken[focus])
        rest = [taken[s] for s in range(seats) if s != focus]
        others.append(sum(rest) / len(rest))
    return mine, others


def ambush_seat_totals(seats: int, games: int, level: str) -> list[float]:
    """Damage taken per seat over ``games`` all-heuristic games (first ``ROUNDS`` rounds)."""
    engine = registry.get("ambush")
    make = heuristic("ambush", level)
    totals = [0.0] * seats
    for index in range(games):
        for seat, amount in enumerate(
            _ambush_game(engine, lineup(make, seats, index, None), index)
        ):
            totals[seat] += amount
    return totals


class _Enough(Exception):
    """The rounds measured are over: the rest of the game is not played."""


def _ambush_game(engine: Any, bots: list[Bot], seed: int) -> list[float]:
    seats = len(bots)
    taken = [0.0] * seats

    def watch(state: Any, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["type"] == "turn_started" and event["number"] > ROUNDS * seats:
                raise _Enough
            if event["type"] == "played":
                for hit in event["hits"]:
                    if hit["seat"] != event["seat"]:
                        taken[hit["seat"]] += hit["hp_lost"] + hit["absorbed"]

    with contextlib.suppress(_Enough):
        play(engine, bots, seed=seed, on_change=watch)
    return taken


def ember_attacks(seats: int, games: int, level: str, *, passive: bool) -> list[float]:
    """Attacks aimed at each seat (response windows opened), summed over ``games``; with
    ``passive`` seat 0 is the passive one."""
    engine = registry.get("ember")
    make = heuristic("ember", level)
    totals = [0.0] * seats

    def watch(state: Any, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["type"] == "window_opened":
                totals[event["seat"]] += 1

    for index in range(games):
        play(
            engine, lineup(make, seats, index, 0 if passive else None), seed=index, on_change=watch
        )
    return totals


@dataclass
class Reactions:
    """Planned grab times in Ambush! races, in ms: after the call, and between a bot's grabs;
    for the race as a whole, between any two grabs and from the call to its last grab."""

    first: list[int] = field(default_factory=list)
    apart: list[int] = field(default_factory=list)
    any_gap: list[int] = field(default_factory=list)
    spans: list[int] = field(default_factory=list)
    calls: int = 0


def race_reactions(level: str, games: int, seats: int = 4, first_seed: int = 0) -> Reactions:
    """Every bot grab of ``games`` heuristic 4-seat Ambush! games at ``level``: the delay of each
    bot's first grab after the call, and the gaps between its grabs in the same race."""
    engine = registry.get("ambush")
    make = heuristic("ambush", level)
    out = Reactions()
    for index in range(first_seed, first_seed + games):
        record = play(engine, lineup(make, seats, index, None), seed=index)
        called_at: int | None = None
        last: dict[int, int] = {}
        for seat, action, at_ms in record.log:
            kind = action["type"]
            if kind == "call_ambush":
                _close_race(out, called_at, last)
                called_at, last = at_ms, {}
                out.calls += 1
            elif kind == "grab" and seat is not None and called_at is not None:
                before = last.get(seat)
                if before is None:
                    out.first.append(at_ms - called_at)
                else:
                    out.apart.append(at_ms - before)
                if last:
                    out.any_gap.append(at_ms - max(last.values()))
                last[seat] = at_ms
        _close_race(out, called_at, last)
    return out


def _close_race(out: Reactions, called_at: int | None, last: dict[int, int]) -> None:
    if called_at is not None and last:
        out.spans.append(max(last.values()) - called_at)


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))]) if ordered else 0.0


def _ratio(mine: float, others: float) -> str:
    return f"{mine / others:.2f}" if others else "-"


def print_ambush_damage(games: int) -> None:
    print(f"Ambush!, 4 seats, damage taken from opponents' plays in the first {ROUNDS} rounds,")
    print(f"one seat only exposes and passes (rotating over the seats), {games} games per level")
    print("(ratio: passive / others; then the ratio with the passive one at each seat)")
    print(f"{'level':>7} {'passive':>8} {'others':>8} {'ratio':>6}  passive at seat 0 1 2 3")
    for level in LEVEL_NAMES:
        mine, others = ambush_damage(4, games, level, passive=True)
        ratio = _ratio(statistics.fmean(mine), statistics.fmean(others))
        by_seat = " ".join(_ratio(sum(mine[s::4]), sum(others[s::4])) for s in range(4))
        print(
            f"{level:>7} {statistics.fmean(mine):>8.2f} {statistics.fmean(others):>8.2f}"
            f" {ratio:>6}  {by_seat}"
        )
    print(f"\nAmbush!, 4 heuristic bots, damage taken per seat (share), {games} games per level")
    for level in LEVEL_NAMES:
        totals = ambush_seat_totals(4, games, level)
        whole = sum(totals) or 1.0
        shares = "  ".join(f"seat {s}: {t / whole:.3f}" for s, t in enumerate(totals))
        print(f"{level:>7}  {shares}")


def print_ember_attacks(games: int) -> None:
    print(f"\nEmber, 4 seats, attacks aimed at each seat, normal bots, {games} games")
    for passive in (False, True):
        totals = ember_attacks(4, games, "normal", passive=passive)
        label = "seat 0 passive" if passive else "four bots"
        rest = statistics.fmean(totals[1:])
        counts = "  ".join(f"seat {s}: {t:.0f}" for s, t in enumerate(totals))
        print(f"{label:>15}  {counts}  (seat 0 / others {_ratio(totals[0], rest)})")


def print_reaction_draws() -> None:
    print("\nReaction draws per level, 10,000 each (ms): p10 / median / p90, minimum")
    for level in LEVEL_NAMES:
        setting, rng = LEVELS[level], Rng(1)
        columns: list[str] = []
        for name in ("first_grab", "next_grab", "reaim", "call"):
            reaction: Reaction = getattr(setting, name)
            draws = [reaction.draw(rng) for _ in range(10_000)]
            columns.append(
                f"{name} {percentile(draws, 0.1):.0f}/{statistics.median(draws):.0f}"
                f"/{percentile(draws, 0.9):.0f}, {min(draws)}"
            )
        print(f"{level:>7}  " + "  ".join(columns))


def print_races(games: int) -> None:
    print(f"\nAmbush! race reactions of the bots, 4 seats, {games} games per level (ms)")
    print("(a first grab re-aimed because another seat took the cell counts where it lands)")
    print(
        f"{'level':>7} {'calls':>6} {'first: p10':>11} {'median':>7} {'p90':>6} {'min':>5}"
        f" {'apart: p10':>11} {'median':>7} {'p90':>6} {'min':>5}"
        f" {'race: any grab':>15} {'call to last':>13}"
    )
    for level in LEVEL_NAMES:
        r = race_reactions(level, games)
        print(
            f"{level:>7} {r.calls:>6} {percentile(r.first, 0.1):>11.0f}"
            f" {statistics.median(r.first):>7.0f} {percentile(r.first, 0.9):>6.0f}"
            f" {min(r.first):>5} {percentile(r.apart, 0.1):>11.0f}"
            f" {statistics.median(r.apart):>7.0f} {percentile(r.apart, 0.9):>6.0f}"
            f" {min(r.apart):>5} {statistics.median(r.any_gap):>15.0f}"
            f" {statistics.median(r.spans):>13.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per row")
    args = parser.parse_args()
    print_ambush_damage(args.games)
    print_ember_attacks(args.games)
    print_reaction_draws()
    print_races(args.games)


if __name__ == "__main__":
    main()
