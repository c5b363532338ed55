"""Pairing for every format: Swiss duels and tables, round robin, single-elimination brackets.

Pure functions of player ids, their ranking and the tournament's history. Priorities, most
important first: byes are fair (nobody gets a second bye while someone has fewer), nobody meets
an opponent again while that is avoidable, then players meet those ranked closest to them
(Swiss: top half against bottom half inside a group of equal scores, as the Dutch system).
A table lists its players in seat order; seat 0 moves first, and it rotates: whoever has moved
first least often (in duels: the smallest first-minus-second balance) sits there.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

# A backtracking search that finds no repeat-free pairing within this many steps gives up
# and allows one more meeting per pair: a bound on time, reached only in near-exhausted fields.
SEARCH_BUDGET = 5_000


@dataclass(frozen=True)
class Table:
    players: tuple[int, ...]


@dataclass(frozen=True)
class Pairing:
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def players(self) -> set[int]:
        return {p for t in self.tables for p in t.players} | set(self.byes)


@dataclass
class History:
    """What pairing needs to know about earlier rounds."""

    met: Counter[frozenset[int]] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    first: Counter[int] = field(default_factory=Counter)
    played: Counter[int] = field(default_factory=Counter)

    @classmethod
    def from_rounds(cls, rounds: Iterable[Pairing]) -> History:
        history = cls()
        for pairing in rounds:
            history.record(pairing)
        return history

    def record(self, pairing: Pairing) -> None:
        for table in pairing.tables:
            self.first[table.players[0]] += 1
            for player in table.players:
                self.played[player] += 1
            for a, b in combinations(table.players, 2):
                self.met[frozenset((a, b))] += 1
        for player in pairing.byes:
            self.byes[player] += 1

    def balance(self, player: int) -> int:
        """Times moved first minus times moved second or later."""
        return 2 * self.first[player] - self.played[player]


def seat_order(players: Iterable[int], history: History, rank: Mapping[int, int]) -> Table:
    """Seat 0 to whoever has moved first least (balance, then count), then by ranking."""
    ordered = sorted(players, key=lambda p: (history.balance(p), history.first[p], rank[p]))
    return Table(tuple(ordered))


# --- Swiss duels -----------------------------------------------------------------------------


class _Budget:
    def __init__(self, steps: int) -> None:
        self.steps = steps

    def spend(self) -> bool:
        self.steps -= 1
        return self.steps >= 0


def _candidates(top: int, unpaired: list[int], score: Mapping[int, float]) -> list[int]:
    """Opponents for ``top`` in order of preference: the Dutch fold inside its score group
    (the player half the group below it first), then players further down."""
    group = [p for p in unpaired if score[p] == score[top]]
    half = len(group) // 2
    preferred = group[half:] + group[half - 1 : 0 : -1] if half else []
    taken = {top, *preferred}
    rest = [p for p in unpaired if p not in taken]
    return preferred + rest


def _pair_duels(
    ranked: list[int],
    allowed: Mapping[int, set[int]],
    score: Mapping[int, float],
    budget: _Budget,
) -> list[tuple[int, int]] | None:
    """Pair ``ranked`` (even length) using only ``allowed`` opponents, or None."""
    if not ranked:
        return []
    if not budget.spend():
        return None
    top, others = ranked[0], ranked[1:]
    for opponent in _candidates(top, others, score):
        if opponent not in allowed[top]:
            continue
        rest = [p for p in others if p != opponent]
        left = set(rest)
        # Forward check: someone left with no allowed opponent dooms this branch.
        if any(not allowed[p] & left for p in rest):
            continue
        tail = _pair_duels(rest, allowed, score, budget)
        if tail is not None:
            return [(top, opponent), *tail]
    return None


def _most_meetings(ranked: list[int], history: History) -> int:
    """The most times any two of ``ranked`` have met: with that many allowed, anything goes."""
    return max((history.met[frozenset(pair)] for pair in combinations(ranked, 2)), default=0)


def swiss_duels(
    ranked: Sequence[int], history: History, scores: Mapping[int, float] | None = None
) -> Pairing:
    """One Swiss round of duels. ``ranked`` is the current standings order (seed order before
    round 1); ``scores`` groups equal scores (None: one group, as in round 1).

    With an odd count one player gets the bye: the lowest ranked among those with the fewest
    byes for whom the rest can still be paired with the fewest repeated meetings.
    """
    players = list(ranked)
    rank = {p: i for i, p in enumerate(players)}
    score = dict(scores) if scores is not None else dict.fromkeys(players, 0.0)
    bye_options: list[list[int | None]] = [[None]]
    if len(players) % 2:
        levels = sorted({history.byes[p] for p in players})
        bye_options = [
            [p for p in reversed(players) if history.byes[p] == level] for level in levels
        ]
    most = _most_meetings(players, history)
    for options in bye_options:
        for max_met in range(most + 1):
            allowed = {
                p: {q for q in players if q != p and history.met[frozenset((p, q))] <= max_met}
                for p in players
            }
            for bye in options:
                rest = [p for p in players if p != bye]
                pairs = _pair_duels(rest, allowed, score, _Budget(SEARCH_BUDGET))
                if pairs is not None:
                    tables = tuple(seat_order(pair, history, rank) for pair in pairs)
                    return Pairing(tables, () if bye is None else (bye,))
    raise AssertionError("unreachable: with repeats allowed every field can be paired")


# --- Swiss tables of 3-4 ---------------------------------------------------------------------


def table_sizes(players: int, table_size: int) -> list[int]:
    """Tables as even as possible, none above ``table_size``: 10 at 4 seats -> 4, 3, 3."""
    if players < 2:
        return []
    count = math.ceil(players / table_size)
    small, extra = divmod(players, count)
    return [small + 1] * extra + [small] * (count - extra)


def _table_cost(
    members: Sequence[int], index: int, history: History, home: Mapping[int, int]
) -> tuple[int, int]:
    repeats = sum(history.met[frozenset(pair)] for pair in combinations(members, 2))
    spread = sum(abs(home[p] - index) for p in members)
    return repeats, spread


def swiss_tables(ranked: Sequence[int], history: History, table_size: int) -> Pairing:
    """One Swiss round of tables of up to ``table_size`` (3 or 4), grouped by score: the top
    of the standings share the first table. Swaps between tables then lower repeated meetings
    (pairs who sat together before), and after that the distance from a player's own group.
    A lone player gets the bye."""
    players = list(ranked)
    rank = {p: i for i, p in enumerate(players)}
    if len(players) < 2:
        return Pairing((), tuple(players))
    tables: list[list[int]] = []
    start = 0
    for size in table_sizes(len(players), table_size):
        tables.append(players[start : start + size])
        start += size
    home = {p: i for i, members in enumerate(tables) for p in members}
    costs = [_table_cost(m, i, history, home) for i, m in enumerate(tables)]
    improved = True
    while improved:
        improved = False
        best: tuple[tuple[int, int], int, int, int, int] | None = None
        for i, j in combinations(range(len(tables)), 2):
            before = (costs[i][0] + costs[j][0], costs[i][1] + costs[j][1])
            for a in range(len(tables[i])):
                for b in range(len(tables[j])):
                    left, right = list(tables[i]), list(tables[j])
                    left[a], right[b] = right[b], left[a]
                    ci, cj = (
                        _table_cost(left, i, history, home),
                        _table_cost(right, j, history, home),
                    )
                    gain = (before[0] - ci[0] - cj[0], before[1] - ci[1] - cj[1])
                    if gain > (0, 0) and (best is None or gain > best[0]):
                        best = (gain, i, j, a, b)
        if best is not None:
            _, i, j, a, b = best
            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            costs[i] = _table_cost(tables[i], i, history, home)
            costs[j] = _table_cost(tables[j], j, history, home)
            improved = True
    return Pairing(tuple(seat_order(members, history, rank) for members in tables))


def repeated_meetings(pairing: Pairing, history: History) -> int:
    """How many pairs at this round's tables have met before (a measure for tests and logs)."""
    return sum(
        history.met[frozenset(pair)]
        for table in pairing.tables
        for pair in combinations(table.players, 2)
    )


# --- Round robin -----------------------------------------------------------------------------


def round_robin(players: Sequence[int]) -> list[Pairing]:
    """Every round of a round robin (circle method); with an odd count each player sits out
    one round with a bye. Seat 0 alternates so that nobody moves first more than once more
    than second overall, nor three times in a row."""
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.insert(0, None)  # the fixed spot of the circle: whoever faces it has the bye
    size = len(circle)
    rounds: list[Pairing] = []
    for number in range(size - 1):
        tables: list[Table] = []
        byes: list[int] = []
        for k in range(size // 2):
            a, b = circle[k], circle[size - 1 - k]
            # Each player walks the circle through the top row then the bottom row; swapping
            # every other board (and the fixed board every other round) spreads the first moves.
            if (k == 0 and number % 2) or k % 2:
                a, b = b, a
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
            else:
                tables.append(Table((a, b)))
        rounds.append(Pairing(tuple(tables), tuple(byes)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def without(pairing: Pairing, gone: Iterable[int]) -> Pairing:
    """A scheduled round with withdrawn players taken out: their opponents get byes."""
    gone = set(gone)
    tables = tuple(t for t in pairing.tables if not gone & set(t.players))
    byes = [p for t in pairing.tables if gone & set(t.players) for p in t.players if p not in gone]
    return Pairing(tables, tuple(p for p in (*pairing.byes, *byes) if p not in gone))


# --- Single elimination ----------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two ``size``, so that seeds 1 and
    2 can meet only in the final: 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def elimination_slots(seeded: Sequence[int]) -> list[int | None]:
    """The first round's slots (None is a bye) for players in seed order, best first. The
    bracket is the next power of two, so byes fall to the top seeds."""
    size = 1 << max(1, math.ceil(math.log2(max(2, len(seeded)))))
    return [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]


def elimination_round(
    slots: Sequence[int | None], history: History, seed: Mapping[int, int]
) -> Pairing:
    """The round's duels from adjacent slots; a player facing an empty slot has a bye."""
    tables: list[Table] = []
    byes: list[int] = []
    for k in range(0, len(slots) - 1, 2):
        a, b = slots[k], slots[k + 1]
        if a is not None and b is not None:
            tables.append(seat_order((a, b), history, seed))
        else:
            byes.extend(p for p in (a, b) if p is not None)
    return Pairing(tuple(tables), tuple(byes))


def advance(slots: Sequence[int | None], winners: Iterable[int]) -> list[int | None]:
    """The next round's slots: from each adjacent pair the winner, or the lone player.

    Refuses (``ValueError``) a pair of two players with no winner, or two winners, named.
    """
    won = set(winners)
    nxt: list[int | None] = []
    for k in range(0, len(slots) - 1, 2):
        present = [p for p in (slots[k], slots[k + 1]) if p is not None]
        if len(present) == 2:
            chosen = [p for p in present if p in won]
            if len(chosen) != 1:
                raise ValueError(f"one winner needed between {present}")
            nxt.append(chosen[0])
        else:
            nxt.append(present[0] if present else None)
    return nxt
