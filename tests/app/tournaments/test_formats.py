"""Formats: what an organiser may create, round counts, joining, starting and withdrawing."""

from __future__ import annotations

import pytest

from app.errors import AppError, Conflict
from app.tournaments.formats import (
    Format,
    Status,
    TournamentSpec,
    check_join,
    check_start,
    check_withdraw,
    late_join_limit,
    planned_rounds,
    validate,
)


def code_of(call: object) -> str:
    assert callable(call)
    with pytest.raises(AppError) as caught:
        call()
    return caught.value.code


def test_duel_games_take_duel_formats_and_multi_seat_swiss_needs_a_game_that_seats_it() -> None:
    validate(TournamentSpec("castles", Format.ROUND_ROBIN), min_seats=2, max_seats=2)
    validate(TournamentSpec("ambush", Format.SWISS, table_size=4), min_seats=2, max_seats=4)
    spec = TournamentSpec("castles", Format.SWISS, table_size=3)
    assert code_of(lambda: validate(spec, min_seats=2, max_seats=2)) == "tournament/bad_table_size"
    spec = TournamentSpec("ember", Format.SINGLE_ELIMINATION, table_size=4)
    assert code_of(lambda: validate(spec, min_seats=2, max_seats=4)) == "tournament/bad_table_size"
    spec = TournamentSpec("ember", Format.ROUND_ROBIN, table_size=3)
    assert code_of(lambda: validate(spec, min_seats=2, max_seats=4)) == "tournament/bad_table_size"


def test_rounds_are_bounded_and_elimination_rounds_follow_from_the_bracket() -> None:
    spec = TournamentSpec("castles", Format.SWISS, rounds=0)
    assert code_of(lambda: validate(spec, min_seats=2, max_seats=2)) == "tournament/bad_rounds"
    spec = TournamentSpec("castles", Format.SINGLE_ELIMINATION, rounds=3)
    assert code_of(lambda: validate(spec, min_seats=2, max_seats=2)) == "tournament/bad_rounds"
    spec = TournamentSpec("castles", Format.ROUND_ROBIN, late_join_until=2)
    assert code_of(lambda: validate(spec, min_seats=2, max_seats=2)) == "tournament/bad_late_join"


@pytest.mark.parametrize(
    ("spec", "players", "rounds"),
    [
        (TournamentSpec("castles", Format.ROUND_ROBIN), 6, 5),
        (TournamentSpec("castles", Format.ROUND_ROBIN), 7, 7),
        (TournamentSpec("castles", Format.ROUND_ROBIN, rounds=3), 8, 3),
        (TournamentSpec("castles", Format.SINGLE_ELIMINATION), 2, 1),
        (TournamentSpec("castles", Format.SINGLE_ELIMINATION), 33, 6),
        (TournamentSpec("castles", Format.SWISS), 8, 3),
        (TournamentSpec("castles", Format.SWISS), 9, 4),
        (TournamentSpec("castles", Format.SWISS, rounds=7), 9, 7),
        (TournamentSpec("ambush", Format.SWISS, table_size=4), 16, 3),
        (TournamentSpec("ambush", Format.SWISS, table_size=3), 10, 4),
    ],
)
def test_planned_rounds(spec: TournamentSpec, players: int, rounds: int) -> None:
    assert planned_rounds(spec, players) == rounds


def test_registration_opens_after_the_draft_and_closes_at_the_end() -> None:
    spec = TournamentSpec("castles", Format.SWISS)
    check_join(spec, Status.REGISTRATION, rounds_started=0, rounds=3, players=0)
    for status in (Status.DRAFT, Status.FINISHED):
        assert (
            code_of(lambda s=status: check_join(spec, s, rounds_started=0, rounds=3, players=0))
            == "tournament/registration_closed"
        )


def test_late_joining_is_swiss_only_and_until_the_middle_round_by_default() -> None:
    swiss = TournamentSpec("castles", Format.SWISS)
    assert late_join_limit(swiss, 5) == 3
    check_join(swiss, Status.RUNNING, rounds_started=2, rounds=5, players=8)
    assert (
        code_of(lambda: check_join(swiss, Status.RUNNING, rounds_started=3, rounds=5, players=8))
        == "tournament/late_join_closed"
    )
    assert late_join_limit(TournamentSpec("castles", Format.SWISS, late_join_until=1), 5) == 1
    robin = TournamentSpec("castles", Format.ROUND_ROBIN)
    assert (
        code_of(lambda: check_join(robin, Status.RUNNING, rounds_started=0, rounds=5, players=8))
        == "tournament/late_join_closed"
    )


def test_a_full_tournament_refuses_more_players() -> None:
    spec = TournamentSpec("castles", Format.SWISS)
    with pytest.raises(Conflict) as caught:
        check_join(spec, Status.REGISTRATION, rounds_started=0, rounds=3, players=256)
    assert caught.value.code == "tournament/full"


def test_start_needs_open_registration_and_two_players() -> None:
    check_start(Status.REGISTRATION, 2)
    assert code_of(lambda: check_start(Status.DRAFT, 8)) == "tournament/not_open"
    assert code_of(lambda: check_start(Status.REGISTRATION, 1)) == "tournament/too_few_players"


def test_withdrawing_is_allowed_until_the_end() -> None:
    check_withdraw(Status.RUNNING)
    assert code_of(lambda: check_withdraw(Status.FINISHED)) == "tournament/finished"
