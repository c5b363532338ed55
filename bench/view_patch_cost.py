"""The per-move cost of the seat part of patches: whole views (what a patch carried before
diffs) against diffs (``app.sessions.seat_views``), on the same states of real bot matches,
interleaved.

For every change of a bot match (engines.playout, heuristic bots), both ways build what one
patch broadcast needs for every seat and a spectator: the whole way encodes each audience's
view, each seat's legal actions and the awaited seats; the diff way is ``SeatViews.body``.
Prints CPU microseconds and bytes per move for each, per game.

    .venv/bin/python bench/view_patch_cost.py [--games ambush,castles] [--seats 4] [--matches 5]
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import time
from collections.abc import Hashable
from typing import Any, cast

from app.sessions import wire
from app.sessions.bots import make_bot
from app.sessions.seat_views import SeatViews
from engines import registry
from engines.base import Engine, State, awaiting_seats, view_audience
from engines.playout import play


class Match:
    """What ``SeatViews`` reads of a session: engine, state, version, legal and awaiting."""

    def __init__(self, engine: Engine, state: State) -> None:
        self.engine, self.state, self.version = engine, state, 0
        self.finished = False

    def legal(self, seat: int | None) -> list[dict[str, Any]]:
        engine, state = self.engine, self.state
        if seat is None or self.finished or seat not in engine.to_act(state):
            return []
        return engine.legal_actions(state, seat)

    def awaiting(self) -> frozenset[int]:
        return frozenset() if self.finished else awaiting_seats(self.engine, self.state)


def whole_bodies(match: Match, seats: list[int | None]) -> int:
    """The seat parts as before: every audience's view encoded whole, legal for every seat."""
    views: dict[Hashable, str] = {}
    awaiting = wire.dumps(sorted(match.awaiting()))
    size = 0
    for seat in seats:
        audience = view_audience(match.engine, match.state, seat)
        view = views.get(audience)
        if view is None:
            view = views[audience] = wire.dumps(match.engine.view(match.state, seat))
        legal = match.legal(seat)
        legal_json = wire.dumps(legal) if legal else "[]"
        size += len(f'"view":{view},"legal":{legal_json},"awaiting":{awaiting}')
    return size


def measure(game: str, seats: int, seed: int) -> dict[str, float]:
    engine = registry.get(game)
    bots = [make_bot(engine, "heuristic", seat, seed + seat) for seat in range(seats)]
    listeners: list[int | None] = [*range(seats), None]
    totals = {"moves": 0.0, "whole_s": 0.0, "diff_s": 0.0, "whole_b": 0.0, "diff_b": 0.0}
    probe: dict[str, Any] = {}

    def changed(state: State, events: list[Any]) -> None:
        if "match" not in probe:
            return
        match, views = probe["match"], probe["views"]
        match.version += 1
        match.finished = engine.outcome(state) is not None
        views.clear(match)
        # An engine's own per-state caches (Ambush!'s public part) are warmed outside both.
        engine.view(state, None)
        started = time.process_time()
        size = whole_bodies(match, listeners)
        middle = time.process_time()
        diff_size = sum(len(views.body(match, seat)) for seat in listeners)
        ended = time.process_time()
        totals["moves"] += 1
        totals["whole_s"] += middle - started
        totals["diff_s"] += ended - middle
        totals["whole_b"] += size
        totals["diff_b"] += diff_size

    def first(state: State, events: list[Any]) -> None:
        if "match" not in probe:
            match = Match(engine, state)
            probe["match"], probe["views"] = match, SeatViews(cast(Any, match))
            for seat in listeners:  # the welcome: the base of the first diffs
                probe["views"].view_for(match, seat)
                probe["views"].legal_for(match, seat)
            probe["views"].awaiting(match)
            return
        changed(state, events)

    play(engine, bots, seed, {}, on_change=first)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="ambush,castles,ember,rampage")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()
    for game in args.games.split(","):
        engine = registry.get(game)
        seats = max(min(args.seats, getattr(engine, "max_seats", 2)), 2)
        sums: dict[str, float] = {}
        for k in range(args.matches):
            for key, value in measure(game, seats, 1000 + k).items():
                sums[key] = sums.get(key, 0.0) + value
        moves = sums["moves"] or 1
        print(
            f"{game:8} {seats} seats + 1 spectator, {int(moves)} moves: "
            f"whole {1e6 * sums['whole_s'] / moves:7.1f} us {sums['whole_b'] / moves:7.0f} B"
            f" | diff {1e6 * sums['diff_s'] / moves:7.1f} us {sums['diff_b'] / moves:7.0f} B"
            f" per move (seat parts of every patch)"
        )


if __name__ == "__main__":
    main()
