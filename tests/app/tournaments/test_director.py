"""Whole tournaments simulated without a server: every format to its end, the ledger zero-sum
after every round, late joiners and withdrawals."""

from __future__ import annotations

import pytest

from app.tournaments import director
from app.tournaments.director import RoundRecord
from app.tournaments.formats import Format, TournamentSpec, planned_rounds
from app.tournaments.pairing import Pairing, Table
from app.tournaments.standings import GameResult
from tests.app.tournaments import sim

SPECS = [
    TournamentSpec("castles", Format.SWISS),
    TournamentSpec("ambush", Format.SWISS, table_size=3),
    TournamentSpec("ember", Format.SWISS, table_size=4),
    TournamentSpec("rampage", Format.ROUND_ROBIN),
    TournamentSpec("castles", Format.SINGLE_ELIMINATION),
]


def zero_sum(state: sim.Sim) -> None:
    assert sum(points - 1500 for points in state.points().values()) == 0


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.format}-{s.table_size}")
@pytest.mark.parametrize("players", [2, 3, 5, 8, 13])
def test_ledger_sums_to_zero_after_every_round(spec: TournamentSpec, players: int) -> None:
    state = sim.run(spec, players, players, between=zero_sum)
    assert len(state.rounds) == planned_rounds(spec, players)
    for record in state.rounds:
        assert record.pairing.players() <= set(state.active)


def test_swiss_duels_plays_the_planned_rounds_with_everyone_every_round() -> None:
    spec = TournamentSpec("castles", Format.SWISS, rounds=5)
    state = sim.run(spec, 8, 1)
    assert len(state.rounds) == 5
    assert all(r.pairing.players() == set(range(1, 9)) for r in state.rounds)


def test_single_elimination_ends_with_one_unbeaten_champion() -> None:
    spec = TournamentSpec("castles", Format.SINGLE_ELIMINATION)
    state = sim.run(spec, 11, 4)
    seed = {p: p for p in state.seeded}
    slots = director.elimination_state(state.seeded, state.rounds)
    (champion,) = slots
    assert champion is not None
    for record in state.rounds:
        for result in record.results:
            if champion in result.players:
                assert director.knockout_winner(result, seed) == champion
    assert director.next_pairing(spec, state.seeded, state.active, state.rounds, 99) is None


def test_a_drawn_knockout_game_sends_the_better_seed_through() -> None:
    result = GameResult(1, (5, 2), ((5, 2),), {5: 0, 2: 0})
    assert director.knockout_winner(result, {2: 0, 5: 1}) == 2


def test_withdrawn_players_are_never_paired_again_and_keep_their_points() -> None:
    spec = TournamentSpec("castles", Format.SWISS, rounds=6)

    def withdraw(state: sim.Sim) -> None:
        zero_sum(state)
        if len(state.rounds) == 2:
            state.active.remove(3)
            state.active.remove(6)

    state = sim.run(spec, 10, 2, between=withdraw)
    for record in state.rounds[2:]:
        assert not {3, 6} & record.pairing.players()
    table = director.current_standings(state.seeded, state.rounds, withdrawn=[3, 6])
    assert {s.player for s in table if s.withdrawn} == {3, 6}
    assert len(table) == 10


def test_round_robin_games_against_a_withdrawn_player_become_byes() -> None:
    spec = TournamentSpec("rampage", Format.ROUND_ROBIN)

    def withdraw(state: sim.Sim) -> None:
        if len(state.rounds) == 1:
            state.active.remove(4)

    state = sim.run(spec, 6, 3, between=withdraw)
    assert len(state.rounds) == 5
    later_byes = [p for record in state.rounds[1:] for p in record.pairing.byes]
    assert len(later_byes) == 4  # 4 had four more games to play
    assert all(4 not in record.pairing.players() for record in state.rounds[1:])


def test_elimination_withdrawal_is_a_walkover_for_the_next_opponent() -> None:
    spec = TournamentSpec("castles", Format.SINGLE_ELIMINATION)
    seeded = [1, 2, 3, 4]
    first = director.next_pairing(spec, seeded, seeded, [], 2)
    assert first is not None
    record = RoundRecord(1, first)
    record.results = [
        GameResult(1, t.players, ((min(t.players),), (max(t.players),)), {}) for t in first.tables
    ]
    # 1 and 2 reached the final; 2 withdraws: 1 wins by walkover and the bracket is over.
    assert director.elimination_state(seeded, [record]) == [1, 2]
    assert director.next_pairing(spec, seeded, [1, 3, 4], [record], 2) is None


def test_late_joiners_start_at_1500_and_are_paired_from_the_next_round() -> None:
    spec = TournamentSpec("castles", Format.SWISS, rounds=5)

    def join(state: sim.Sim) -> None:
        zero_sum(state)
        if len(state.rounds) == 2:
            state.seeded.append(99)
            state.active.append(99)
            assert state.points()[99] == 1500

    state = sim.run(spec, 7, 5, between=join)
    assert all(99 not in r.pairing.players() for r in state.rounds[:2])
    assert all(99 in r.pairing.players() for r in state.rounds[2:])


def test_next_pairing_refuses_while_a_round_is_unfinished() -> None:
    spec = TournamentSpec("castles", Format.SWISS, rounds=3)
    record = RoundRecord(1, Pairing((Table((1, 2)),)))
    with pytest.raises(ValueError):
        director.next_pairing(spec, [1, 2], [1, 2], [record], 3)


def test_a_field_shrunk_to_one_player_ends_the_tournament() -> None:
    spec = TournamentSpec("castles", Format.SWISS, rounds=3)
    assert director.next_pairing(spec, [1, 2], [1], [], 3) is None
