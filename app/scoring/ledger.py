"""The 1500-point ledger as a pure, zero-sum function of an outcome.

House rule where the Castles deck rules are silent: a duel that ends with the loser neither
destroyed nor resigned (a game ended by exhaustion or a points target) is settled like a
resignation, by the damage gap ``d(loser) - d(winner)``.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from fractions import Fraction

from engines.base import Outcome

START = 1500
DESTROY_BONUS = 100
DAMAGE_POINTS = 50


def damage_points(outcome: Outcome, seat: int) -> int:
    """``d(s) = round(50 * damage(s))``, halves rounded up as a player would (12.5 -> 13),
    not to even as Python's ``round`` does."""
    exact = Fraction(outcome.seats[seat].damage).limit_denominator(10**6) * DAMAGE_POINTS
    return math.floor(exact + Fraction(1, 2))


def duel_amount(outcome: Outcome, winner: int, loser: int, forfeited: Collection[int] = ()) -> int:
    """What ``winner`` takes from ``loser`` in a duel between them.

    A destroyed castle, or a forfeit by time or abandonment: ``100 - d(winner)``; otherwise
    (resignation, or the house rule above): ``d(loser) - d(winner)``.
    """
    d_winner = damage_points(outcome, winner)
    if outcome.seats[loser].destroyed or loser in forfeited:
        return DESTROY_BONUS - d_winner
    return damage_points(outcome, loser) - d_winner


def settle(outcome: Outcome, *, forfeited: Collection[int] = ()) -> dict[int, int]:
    """Ledger changes per seat; they always sum to zero.

    Duels settle once; with 3-4 seats every pair (higher, lower placing) is a duel and the
    amounts are divided by ``n - 1``. Totals are rounded by largest remainder (ties to the
    better placing, then the lower seat) so the match stays zero-sum. Seats that share a
    placing exchange nothing with each other; a match where everyone ties exchanges nothing.
    """
    seats = sorted(outcome.seats)
    totals: dict[int, Fraction] = {seat: Fraction(0) for seat in seats}
    rank = {seat: index for index, group in enumerate(outcome.placings) for seat in group}
    divisor = max(1, len(seats) - 1)
    for high in seats:
        for low in seats:
            if high in rank and low in rank and rank[high] < rank[low]:
                amount = Fraction(duel_amount(outcome, high, low, forfeited), divisor)
                totals[high] += amount
                totals[low] -= amount
    floors = {seat: total.numerator // total.denominator for seat, total in totals.items()}
    leftover = -sum(floors.values())
    by_remainder = sorted(
        seats, key=lambda s: (-(totals[s] - floors[s]), rank.get(s, len(seats)), s)
    )
    for seat in by_remainder[:leftover]:
        floors[seat] += 1
    return floors
