"""The 1500-point ledger: duels, resignations, 3-4 seats, draws, forfeits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.scoring.ledger import settle
from engines.base import Outcome, SeatResult


def outcome(placings: list[list[int]], **seats: tuple[bool, bool, float]) -> Outcome:
    results = {int(k[1:]): SeatResult(*v) for k, v in seats.items()}
    return Outcome(placings, results, "test")


def test_duel_won_by_destroying_castle_pays_100_minus_winner_damage() -> None:
    result = outcome([[0], [1]], s0=(False, False, 0.2), s1=(True, False, 1.0))
    assert settle(result) == {0: 90, 1: -90}


def test_duel_won_by_resignation_pays_damage_gap() -> None:
    result = outcome([[1], [0]], s0=(False, True, 0.6), s1=(False, False, 0.1))
    assert settle(result) == {0: -25, 1: 25}


def test_forfeit_counts_as_destroyed_castle() -> None:
    result = outcome([[1], [0]], s0=(False, True, 0.0), s1=(False, False, 0.0))
    assert settle(result, forfeited=[0]) == {0: -100, 1: 100}
    assert settle(result) == {0: 0, 1: 0}


def test_draw_exchanges_nothing() -> None:
    result = outcome([[0, 1]], s0=(True, False, 1.0), s1=(True, False, 1.0))
    assert settle(result) == {0: 0, 1: 0}


def test_four_seats_settle_every_pair_divided_by_three() -> None:
    result = outcome(
        [[2], [0], [3], [1]],
        s0=(True, False, 1.0),
        s1=(True, False, 1.0),
        s2=(False, False, 0.1),
        s3=(True, False, 1.0),
    )
    # Seat 2 beats three destroyed castles: 3 * (100 - 5) / 3 = 95. Seat 0 (d=50) beats two
    # destroyed castles: 2 * (100 - 50) / 3 = 33.3 and loses 95 / 3 = 31.7 to seat 2.
    changes = settle(result)
    assert changes[2] == 95
    assert sum(changes.values()) == 0
    assert changes[0] > changes[3] > changes[1]


@given(
    st.integers(2, 4).flatmap(
        lambda n: st.tuples(
            st.permutations(list(range(n))),
            st.lists(
                st.tuples(st.booleans(), st.booleans(), st.floats(0, 1)), min_size=n, max_size=n
            ),
            st.lists(st.booleans(), min_size=n, max_size=n),
        )
    )
)
def test_ledger_is_always_zero_sum(
    case: tuple[list[int], list[tuple[bool, bool, float]], list[bool]],
) -> None:
    order, results, tie_with_next = case
    placings: list[list[int]] = []
    for index, seat in enumerate(order):
        if placings and tie_with_next[index]:
            placings[-1].append(seat)
        else:
            placings.append([seat])
    result = Outcome(placings, {s: SeatResult(*results[s]) for s in order}, "test")
    changes = settle(result)
    assert sum(changes.values()) == 0
    assert set(changes) == set(order)
    if len(placings) == 1:
        assert all(change == 0 for change in changes.values())


def test_damage_points_round_halves_up() -> None:
    """d = round(50 * damage): 0.25 -> 12.5 -> 13 and 0.75 -> 37.5 -> 38, both up."""
    from app.scoring.ledger import damage_points
    from engines.base import Outcome, SeatResult

    outcome = Outcome(
        [[0], [1]],
        {0: SeatResult(False, False, 0.25), 1: SeatResult(True, False, 0.75)},
        "castle_destroyed",
    )
    assert damage_points(outcome, 0) == 13
    assert damage_points(outcome, 1) == 38
