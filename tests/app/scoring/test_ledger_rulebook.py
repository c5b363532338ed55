"""The ledger against every sentence of the Castles deck rulebook's Scoring section
and the server's scoring rule, one test per clause.

"damage done to a castle" in points is ``d(s) = round(50 * damage(s))``; in the Castles deck
``damage = HP lost / 50``, so d is exactly the hit points the castle lost.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.scoring.ledger import START, damage_points, settle
from engines.base import Outcome, SeatResult

HP = st.integers(0, 49)


def duel(
    winner_hp_lost: int, loser_hp_lost: int, *, destroyed: bool, resigned: bool = False
) -> Outcome:
    """Seat 0 wins, seat 1 loses; HP lost on the Castles deck's 50-point castle."""
    return Outcome(
        [[0], [1]],
        {
            0: SeatResult(False, False, winner_hp_lost / 50),
            1: SeatResult(destroyed, resigned, 1.0 if destroyed else loser_hp_lost / 50),
        },
        "destroyed" if destroyed else "resigned",
    )


def test_damage_points_are_the_hit_points_lost_on_a_castles_deck_castle() -> None:
    """d(s) = round(50 * damage(s)); Castles deck damage is HP lost / 50."""
    for hp in range(51):
        result = Outcome(
            [[0], [1]], {0: SeatResult(False, False, hp / 50), 1: SeatResult(True, False, 1.0)}, "t"
        )
        assert damage_points(result, 0) == hp


def test_if_your_opponents_castle_was_destroyed_gain_100_points() -> None:
    """'If your opponent's castle was destroyed, gain 100 points'."""
    assert settle(duel(0, 0, destroyed=True))[0] == 100


def test_if_your_castle_was_destroyed_lose_100_points() -> None:
    """'If your castle was destroyed, lose 100 points' (the winner untouched)."""
    assert settle(duel(0, 0, destroyed=True))[1] == -100


def test_if_you_surrendered_before_destruction_lose_the_damage_done_to_your_castle() -> None:
    """'If you surrendered before your castle was destroyed, lose points equal to the damage
    done to your castle'."""
    assert settle(duel(0, 37, destroyed=False, resigned=True))[1] == -37


def test_if_your_opponent_surrendered_gain_the_damage_done_to_their_castle() -> None:
    """'If your opponent surrendered before his or her castle was destroyed, gain points equal
    to the damage done to their castle'."""
    assert settle(duel(0, 37, destroyed=False, resigned=True))[0] == 37


def test_if_you_won_take_away_the_damage_done_to_your_castle() -> None:
    """'If you won, take away a number of points equal to the damage done to your castle.'"""
    assert settle(duel(12, 0, destroyed=True))[0] == 100 - 12
    assert settle(duel(12, 30, destroyed=False, resigned=True))[0] == 30 - 12


def test_if_you_lost_add_the_damage_done_to_your_opponents_castle() -> None:
    """'If you lost, add a number of points equal to the damage done to your opponent's
    castle.'"""
    assert settle(duel(12, 0, destroyed=True))[1] == -100 + 12
    assert settle(duel(12, 30, destroyed=False, resigned=True))[1] == -30 + 12


def test_in_a_tournament_each_player_starts_off_with_1500_points() -> None:
    """'In a tournament each player starts off with 1500 points.'"""
    assert START == 1500


@given(HP, HP)
def test_a_winner_gains_and_loses_points(winner_lost: int, loser_lost: int) -> None:
    """'If a player wins he will gain and lose points.' Both clauses apply at once: the win
    (100 or the resigner's damage) minus the damage to the winner's own castle."""
    assert settle(duel(winner_lost, 0, destroyed=True))[0] == 100 - winner_lost
    resigned = settle(duel(winner_lost, loser_lost, destroyed=False, resigned=True))
    assert resigned[0] == loser_lost - winner_lost


@given(HP, HP)
def test_a_surrendering_player_also_gains_and_loses_points(
    winner_lost: int, loser_lost: int
) -> None:
    """'If you surrender you will also gain and lose points.'"""
    changes = settle(duel(winner_lost, loser_lost, destroyed=False, resigned=True))
    assert changes[1] == winner_lost - loser_lost


@given(HP, HP)
def test_it_is_better_to_surrender_while_still_alive(winner_lost: int, loser_lost: int) -> None:
    """'It is thus better to surrender while you are still alive': whatever the damage so far,
    resigning never costs more than having the castle destroyed."""
    resigned = settle(duel(winner_lost, loser_lost, destroyed=False, resigned=True))[1]
    destroyed = settle(duel(winner_lost, loser_lost, destroyed=True))[1]
    assert resigned > destroyed


@given(st.integers(0, 48), st.booleans())
def test_an_attacker_must_still_defend_its_castle(winner_lost: int, by_destruction: bool) -> None:
    """'...if you are attempting to destroy your opponent's castle you must still defend your
    castle so you do not lose as many points': each point of damage taken lowers the win."""

    def gain(lost: int) -> int:
        return settle(duel(lost, 20, destroyed=by_destruction, resigned=not by_destruction))[0]

    assert gain(winner_lost + 1) == gain(winner_lost) - 1


def test_every_duel_is_zero_sum() -> None:
    """The ledger moves points between players; it never creates them."""
    for winner_lost in range(0, 50, 7):
        for loser_lost in range(0, 50, 7):
            for destroyed in (True, False):
                changes = settle(
                    duel(winner_lost, loser_lost, destroyed=destroyed, resigned=not destroyed)
                )
                assert changes[0] + changes[1] == 0


def test_forfeit_by_time_or_abandonment_counts_as_a_destroyed_castle() -> None:
    """The scoring rule: 'Forfeit by time or abandonment counts as a destroyed castle', even
    when the forfeiting castle was barely scratched."""
    result = duel(5, 3, destroyed=False, resigned=True)
    assert settle(result, forfeited={1}) == {0: 95, 1: -95}


def test_draws_exchange_nothing_whatever_the_damage() -> None:
    """The scoring rule: 'draws exchange nothing'."""
    result = Outcome(
        [[0, 1]], {0: SeatResult(False, False, 0.9), 1: SeatResult(False, False, 0.1)}, "draw"
    )
    assert settle(result) == {0: 0, 1: 0}


def exact_multi_seat(
    result: Outcome, forfeited: frozenset[int] = frozenset()
) -> dict[int, Fraction]:
    """The pairwise rule written out independently: each (higher, lower) pair is a duel."""
    rank = {s: i for i, group in enumerate(result.placings) for s in group}
    d = {s: round(50 * r.damage) for s, r in result.seats.items()}
    totals = {s: Fraction(0) for s in result.seats}
    n = len(result.seats)
    for high in result.seats:
        for low in result.seats:
            if rank[high] < rank[low]:
                lost = result.seats[low].destroyed or low in forfeited
                amount = (100 if lost else d[low]) - d[high]
                totals[high] += Fraction(amount, n - 1)
                totals[low] -= Fraction(amount, n - 1)
    return totals


@pytest.mark.parametrize("seats", [3, 4])
def test_three_and_four_seats_settle_every_pair_as_a_duel_divided_by_n_minus_1(
    seats: int,
) -> None:
    """The scoring rule: 'every pair (higher h, lower l) is settled as a duel between them
    and the amounts are divided by n-1 (rounded so the match stays zero-sum)'."""
    damages = [0.1, 0.46, 0.72, 0.3][:seats]
    for order in permutations(range(seats)):
        for destroyed_mask in range(1 << seats):
            results = {
                s: SeatResult(
                    bool(destroyed_mask >> s & 1) and s != order[0],
                    not destroyed_mask >> s & 1 and s != order[0],
                    damages[s],
                )
                for s in range(seats)
            }
            result = Outcome([[s] for s in order], results, "t")
            changes = settle(result)
            exact = exact_multi_seat(result)
            assert sum(changes.values()) == 0
            for s in range(seats):
                assert abs(changes[s] - exact[s]) < 1, (order, destroyed_mask, s)


def test_three_seats_worked_example() -> None:
    """Seat 0 (d=5) destroys seats 1 and 2; seat 1 (d=50) placed above seat 2 (d=50):
    0 takes (95 + 95) / 2 = 95; 1 loses 95 / 2 to 0 and wins (100 - 50) / 2 from 2: -22.5;
    2 loses 95 / 2 + 50 / 2 = -72.5. The half point left over goes to the better placing."""
    result = Outcome(
        [[0], [1], [2]],
        {
            0: SeatResult(False, False, 0.1),
            1: SeatResult(True, False, 1.0),
            2: SeatResult(True, False, 1.0),
        },
        "t",
    )
    assert settle(result) == {0: 95, 1: -22, 2: -73}


def test_a_surrender_after_destruction_is_a_destruction() -> None:
    """'If you surrendered *before* your castle was destroyed': once destroyed, the flag for
    resigning changes nothing, the loser pays the full 100 less the winner's damage."""
    result = Outcome(
        [[0], [1]], {0: SeatResult(False, False, 0.2), 1: SeatResult(True, True, 1.0)}, "t"
    )
    assert settle(result) == {0: 90, 1: -90}


def test_multi_seat_forfeit_counts_as_destroyed_against_every_higher_seat() -> None:
    result = Outcome(
        [[0], [1], [2]],
        {
            0: SeatResult(False, False, 0.0),
            1: SeatResult(False, False, 0.0),
            2: SeatResult(False, True, 0.0),
        },
        "t",
    )
    assert settle(result, forfeited={2}) == {0: 50, 1: 50, 2: -100}


def test_seats_sharing_a_placing_exchange_nothing_with_each_other() -> None:
    result = Outcome(
        [[0], [1, 2]],
        {
            0: SeatResult(False, False, 0.0),
            1: SeatResult(True, False, 1.0),
            2: SeatResult(True, False, 1.0),
        },
        "t",
    )
    assert settle(result) == {0: 100, 1: -50, 2: -50}
