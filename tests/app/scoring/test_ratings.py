"""Skill ratings: Glicko-2 per Glickman's worked example, OpenSkill for 3-4 seats, provisional."""

from __future__ import annotations

import pytest

from app.scoring.ratings import SkillRating, glicko2_update, rate_match, system_for


def glicko(mu: float, rd: float, volatility: float = 0.06, games: int = 0) -> SkillRating:
    return SkillRating("glicko2", mu, rd, volatility, games)


def test_glicko2_reproduces_glickmans_worked_example() -> None:
    """Glickman (2013), sec. 'Example': 1500/200/0.06 beats 1400/30, loses to 1550/100 and
    1700/300 with tau 0.5 -> 1464.06 / 151.52 / 0.05999."""
    player = glicko(1500, 200)
    after = glicko2_update(
        player, [(glicko(1400, 30), 1.0), (glicko(1550, 100), 0.0), (glicko(1700, 300), 0.0)]
    )
    assert after.mu == pytest.approx(1464.06, abs=0.01)
    assert after.sigma == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.games == 3


def test_an_empty_period_only_widens_the_deviation_up_to_350() -> None:
    after = glicko2_update(glicko(1600, 80), [])
    assert after.mu == 1600 and after.sigma > 80
    assert glicko2_update(glicko(1600, 349.99), []).sigma == 350


def test_glicko2_refuses_scores_outside_zero_to_one_and_openskill_ratings() -> None:
    with pytest.raises(ValueError):
        glicko2_update(glicko(1500, 350), [(glicko(1500, 350), 2.0)])
    with pytest.raises(ValueError):
        glicko2_update(SkillRating.initial("openskill"), [])


def test_duel_winner_gains_loser_loses_symmetrically_from_equal_ratings() -> None:
    after = rate_match({}, [[1], [0]])
    assert after[1].mu > 1500 > after[0].mu
    assert after[1].mu - 1500 == pytest.approx(1500 - after[0].mu)
    assert after[0].sigma < 350 and after[0].games == 1


def test_duel_draw_between_equals_moves_nobody() -> None:
    after = rate_match({}, [[0, 1]])
    assert after[0].mu == pytest.approx(1500) and after[1].mu == pytest.approx(1500)


def test_upset_moves_more_than_expected_win() -> None:
    strong, weak = glicko(1800, 60, games=30), glicko(1400, 60, games=30)
    expected = rate_match({0: strong, 1: weak}, [[0], [1]])
    upset = rate_match({0: strong, 1: weak}, [[1], [0]])
    assert upset[1].mu - 1400 > expected[0].mu - 1800 > 0


def test_three_and_four_seats_use_openskill_in_placing_order() -> None:
    assert system_for(2) == "glicko2" and system_for(3) == system_for(4) == "openskill"
    after = rate_match({}, [[2], [0], [3], [1]])
    assert {r.system for r in after.values()} == {"openskill"}
    assert after[2].mu > after[0].mu > after[3].mu > after[1].mu
    tied = rate_match({}, [[0], [1, 2]])
    assert tied[1].mu == pytest.approx(tied[2].mu)


def test_rate_match_refuses_mixed_systems_and_bad_placings() -> None:
    with pytest.raises(ValueError):
        rate_match({0: glicko(1500, 350)}, [[0], [1], [2]])
    with pytest.raises(ValueError):
        rate_match({}, [[0], [0]])
    with pytest.raises(ValueError):
        rate_match({}, [[0]])


def test_new_players_are_provisional_until_five_games_and_settled_uncertainty() -> None:
    rating = SkillRating.initial("glicko2")
    assert rating.provisional
    opponent = glicko(1500, 60, games=50)
    for game in range(5):
        assert rating.provisional, game
        rating = rate_match({0: rating, 1: opponent}, [[game % 2], [1 - game % 2]])[0]
    assert rating.games == 5
    assert rating.provisional == (rating.sigma > 110)
    assert not glicko(1500, 100, games=5).provisional
    assert glicko(1500, 120, games=40).provisional
    assert SkillRating.initial("openskill").provisional


def test_openskill_ratings_become_established_after_many_games() -> None:
    ratings = {seat: SkillRating.initial("openskill") for seat in range(4)}
    for game in range(40):
        order = [(game + k) % 4 for k in range(4)]
        ratings = rate_match(ratings, [[seat] for seat in order])
    assert all(not rating.provisional for rating in ratings.values())


def test_ratings_round_trip_through_json_and_display_on_the_ledger_scale() -> None:
    rating = rate_match({}, [[0], [1], [2]])[0]
    assert SkillRating.from_json(rating.to_json()) == rating
    assert SkillRating.initial("openskill").display == 1500
    assert glicko(1612.4, 50).display == 1612
    assert glicko(1600, 50).conservative == 1500
