"""Pure pairing: no repeats while avoidable, fair byes, seat rotation, brackets of 2 to 33."""

from __future__ import annotations

import math
import random
from functools import cache
from itertools import combinations

import pytest

from app.tournaments.formats import Format, TournamentSpec
from app.tournaments.pairing import (
    History,
    Pairing,
    Table,
    advance,
    bracket_order,
    elimination_round,
    elimination_slots,
    repeated_meetings,
    round_robin,
    swiss_duels,
    swiss_tables,
    table_sizes,
    without,
)
from tests.app.tournaments import sim

SWISS = TournamentSpec("castles", Format.SWISS)


def pairs(pairing: Pairing) -> set[frozenset[int]]:
    return {frozenset(t.players) for t in pairing.tables}


def perfect_matching_exists(players: tuple[int, ...], met: frozenset[frozenset[int]]) -> bool:
    """Oracle: can ``players`` be paired with nobody meeting again? (Exhaustive.)"""

    @cache
    def solve(left: frozenset[int]) -> bool:
        if not left:
            return True
        top = min(left)
        return any(
            solve(left - {top, other})
            for other in left - {top}
            if frozenset((top, other)) not in met
        )

    return solve(frozenset(players))


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    pairing = swiss_duels(list(range(1, 9)), History())
    assert pairs(pairing) == {frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]}
    assert pairing.byes == ()


def test_round_one_with_an_odd_field_gives_the_bye_to_the_lowest_seed() -> None:
    pairing = swiss_duels(list(range(1, 8)), History())
    assert pairing.byes == (7,)
    assert len(pairing.tables) == 3


def test_later_rounds_pair_equal_scores_together_and_avoid_the_last_opponent() -> None:
    history = History.from_rounds([swiss_duels([1, 2, 3, 4], History())])  # 1-3, 2-4
    scores = {1: 1600.0, 2: 1600.0, 3: 1400.0, 4: 1400.0}
    pairing = swiss_duels([1, 2, 3, 4], history, scores)
    assert pairs(pairing) == {frozenset((1, 2)), frozenset((3, 4))}


@pytest.mark.parametrize("players", range(2, 13))
def test_no_repeat_pairing_while_avoidable_checked_against_an_exhaustive_oracle(
    players: int,
) -> None:
    """Many more rounds than players, random results: a repeat happens only when no
    repeat-free pairing existed for any fair bye."""
    for seed in range(3):
        history = History()

        def check(state: sim.Sim, history: History = history, seed: int = seed) -> None:
            pairing = state.rounds[-1].pairing
            if repeated_meetings(pairing, history):
                met = frozenset(k for k, v in history.met.items() if v)
                fewest = min(history.byes[p] for p in state.active)
                fair = [p for p in state.active if history.byes[p] == fewest]
                candidates = [(p,) for p in fair] if players % 2 else [()]
                assert not any(
                    perfect_matching_exists(tuple(q for q in state.active if q not in bye), met)
                    for bye in candidates
                ), (players, seed, len(state.rounds))
            history.record(pairing)

        sim.run(SWISS, players, seed, rounds=players + 2, between=check)


@pytest.mark.parametrize("players", range(2, 34))
def test_swiss_has_no_repeats_while_the_field_is_fresh(players: int) -> None:
    """After r rounds every player still has n-1-r unmet opponents; while that is at least
    half the field a repeat-free pairing exists (Dirac), and the search must find it."""
    safe = (players - 2) // 2 if players % 2 == 0 else (players - 3) // 2
    state = sim.run(SWISS, players, players, rounds=max(1, safe + 1))
    history = History()
    for record in state.rounds:
        assert repeated_meetings(record.pairing, history) == 0, (players, record.number)
        history.record(record.pairing)
        assert len(record.pairing.players()) == players


@pytest.mark.parametrize("players", [3, 5, 7, 9, 15, 33])
def test_byes_are_fair_nobody_gets_a_second_before_everyone_has_one(players: int) -> None:
    state = sim.run(SWISS, players, 7, rounds=players + 3)
    history = History()
    for record in state.rounds:
        (bye,) = record.pairing.byes
        assert history.byes[bye] == min(history.byes[p] for p in range(1, players + 1))
        history.record(record.pairing)
    assert max(history.byes.values()) - min(history.byes[p] for p in range(1, players + 1)) <= 1


def test_even_fields_get_no_byes() -> None:
    state = sim.run(SWISS, 10, 1, rounds=6)
    assert all(record.pairing.byes == () for record in state.rounds)


def test_first_seat_rotates_in_swiss_duels() -> None:
    state = sim.run(SWISS, 12, 3, rounds=8)
    history = History.from_rounds(r.pairing for r in state.rounds)
    assert all(abs(history.balance(p)) <= 2 for p in range(1, 13))


def test_table_sizes_are_as_even_as_possible() -> None:
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(5, 4) == [3, 2]
    assert table_sizes(7, 3) == [3, 2, 2]
    assert table_sizes(1, 4) == []
    for n in range(2, 34):
        for k in (3, 4):
            sizes = table_sizes(n, k)
            assert sum(sizes) == n and max(sizes) <= k and min(sizes) >= 2
            assert max(sizes) - min(sizes) <= 1


def test_tables_group_by_score_in_round_one() -> None:
    pairing = swiss_tables(list(range(1, 9)), History(), 4)
    assert [set(t.players) for t in pairing.tables] == [{1, 2, 3, 4}, {5, 6, 7, 8}]


def test_tables_minimise_repeat_meetings() -> None:
    """After 1-2-3-4 / 5-6-7-8, each new table best takes two from each old one: one old pair
    from each side per table, four repeated pairs in all, the least possible."""
    history = History.from_rounds([swiss_tables(list(range(1, 9)), History(), 4)])
    pairing = swiss_tables(list(range(1, 9)), history, 4)
    assert repeated_meetings(pairing, history) == 4
    for table in pairing.tables:
        assert len(set(table.players) & {1, 2, 3, 4}) == 2


def test_tables_of_three_avoid_repeats_when_possible() -> None:
    spec = TournamentSpec("ambush", Format.SWISS, table_size=3)
    history = History()

    def check(state: sim.Sim) -> None:
        pairing = state.rounds[-1].pairing
        assert repeated_meetings(pairing, history) == 0, len(state.rounds)
        history.record(pairing)

    sim.run(spec, 9, 5, rounds=4, between=check)  # 9 players, 3 tables of 3: a Kirkman start


def test_first_seat_rotates_at_tables() -> None:
    spec = TournamentSpec("ember", Format.SWISS, table_size=4)
    state = sim.run(spec, 8, 2, rounds=8)
    firsts = History.from_rounds(r.pairing for r in state.rounds).first
    assert max(firsts.values()) - min(firsts[p] for p in range(1, 9)) <= 1


@pytest.mark.parametrize("players", range(2, 34))
def test_round_robin_every_pair_meets_once_with_balanced_first_seats(players: int) -> None:
    rounds = round_robin(list(range(players)))
    assert len(rounds) == (players if players % 2 else players - 1)
    history = History.from_rounds(rounds)
    assert len(history.met) == players * (players - 1) // 2
    assert set(history.met.values()) == {1}
    for pairing in rounds:
        assert pairing.players() == set(range(players))
    assert all(history.byes[p] == players % 2 for p in range(players))
    assert all(abs(history.balance(p)) <= 1 for p in range(players))


def test_round_robin_games_against_a_withdrawn_player_become_byes() -> None:
    pairing = Pairing((Table((1, 2)), Table((3, 4))), (5,))
    assert without(pairing, [2]) == Pairing((Table((3, 4)),), (5, 1))


def test_bracket_order_keeps_top_seeds_apart() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(2) == [1, 2]


@pytest.mark.parametrize("players", range(2, 34))
def test_single_elimination_brackets_of_every_size(players: int) -> None:
    """Byes go to the top seeds, n-1 games crown one champion in ceil(log2 n) rounds, and
    seeds 1 and 2 meet only in the final when the better seed always wins."""
    seeded = list(range(1, players + 1))
    seed = {p: p for p in seeded}
    size = 1 << math.ceil(math.log2(players))
    slots = elimination_slots(seeded)
    assert len(slots) == size
    first = elimination_round(slots, History(), seed)
    assert sorted(first.byes) == list(range(1, size - players + 1))
    rng = random.Random(players)
    for favourites in (True, False):
        slots, games, rounds, met_top = elimination_slots(seeded), 0, 0, None
        while len(slots) > 1:
            pairing = elimination_round(slots, History(), seed)
            rounds += 1
            winners = set(pairing.byes)
            for table in pairing.tables:
                games += 1
                if set(table.players) == {1, 2}:
                    met_top = rounds
                winners.add(min(table.players) if favourites else rng.choice(table.players))
            slots = advance(slots, winners)
        assert games == players - 1
        assert rounds == math.ceil(math.log2(players))
        assert slots[0] is not None
        if favourites:
            assert slots == [1]
            assert met_top == rounds


def test_advance_refuses_two_winners_of_one_duel() -> None:
    with pytest.raises(ValueError):
        advance([1, 2], [1, 2])


def test_elimination_withdrawal_is_a_walkover() -> None:
    pairing = elimination_round([1, None, 4, 5], History(), {1: 1, 4: 4, 5: 5})
    assert pairing.byes == (1,)
    walkover = elimination_round([1, None, 4, None], History(), {1: 1, 4: 4})
    assert walkover.tables == () and set(walkover.byes) == {1, 4}


def test_pairings_are_deterministic() -> None:
    a = sim.run(SWISS, 11, 9, rounds=5)
    b = sim.run(SWISS, 11, 9, rounds=5)
    assert [r.pairing for r in a.rounds] == [r.pairing for r in b.rounds]
    assert all(
        not any(frozenset(p) in pairs(r.pairing) for p in combinations([1], 2)) for r in a.rounds
    )
