"""Bots worth playing: targets by the game, never by seat; human-paced races; levels that matter.

Everything is measured on the simulated clock (``engines.playout``): the damage each seat takes
over seeded bot games, and the grab times the bots plan. No wall-clock timing.
"""

from __future__ import annotations

import importlib
import statistics

import pytest

from bench.bot_figures import ambush_damage, ambush_seat_totals, race_reactions
from engines import registry
from engines.base import Rng
from engines.botkit import LEVEL_NAMES, LEVELS
from engines.ember.bots import HeuristicBot as EmberBot
from engines.playout import play
from tests.engines.ember.helpers import ENGINE as EMBER
from tests.engines.ember.helpers import deck, game, to_play_phase

FAIR = 1.5  # no seat takes more than this times the mean of the others
# Passive-seat games per seat the passive one sits in, per level.
PASSIVE_GAMES = {"easy": 5, "normal": 10, "hard": 5}


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_passive_ambush_seat_takes_no_more_damage_than_the_others_wherever_it_sits(
    level: str,
) -> None:
    """4 seats, one only exposes and passes (a new human); the first six rounds. The bots
    used to hit the lowest weakest seat, so a passive seat 0 took 2.5 times the others'."""
    per_seat = PASSIVE_GAMES[level]
    mine, others = ambush_damage(4, 4 * per_seat, level, passive=True)
    for seat in range(4):
        taken, rest = statistics.fmean(mine[seat::4]), statistics.fmean(others[seat::4])
        assert rest > 0, f"{level}: the bots hit nobody"
        assert taken <= FAIR * rest, f"{level}, passive seat {seat}: {taken:.1f} vs {rest:.1f}"


def test_four_heuristic_ambush_bots_single_out_no_seat() -> None:
    totals = ambush_seat_totals(4, 40, "normal")
    for seat, taken in enumerate(totals):
        rest = statistics.fmean(t for s, t in enumerate(totals) if s != seat)
        assert rest / FAIR <= taken <= FAIR * rest, totals


def test_ember_bots_weigh_opponents_of_equal_standing_alike() -> None:
    """At the start every standing is 0: the bot's draws, not the seat number, pick whom its
    attack aims at (the leader's tie used to go to seat 0, every time)."""
    targets: dict[int, int] = {}
    for seed in range(60):
        state = game(deck(), deck(), deck(hand=["pickpocket"] * 5), deck(), seats=4, first_seat=2)
        to_play_phase(state, 2)
        bot = EmberBot(2, seed)
        view = EMBER.view(state, 2)
        bot.observe([], view)
        decision = bot.decide(view, EMBER.legal_actions(state, 2), 0)
        assert decision is not None and decision.action["type"] == "play"
        target = decision.action["target_seat"]
        targets[target] = targets.get(target, 0) + 1
    assert sorted(targets) == [0, 1, 3] and min(targets.values()) >= 10, targets


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_race_grabs_come_at_a_human_pace(level: str) -> None:
    """The grab times the bots plan in 4-seat Ambush! races: the first a median of 400 ms or
    more after the call, then 300 ms or more apart (median); never under 250 ms."""
    reactions = race_reactions(level, 12)
    assert len(reactions.first) >= 100 and len(reactions.apart) >= 100
    assert statistics.median(reactions.first) >= 400
    assert statistics.median(reactions.apart) >= 300
    assert min(reactions.first) >= 250 and min(reactions.apart) >= 250


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_reaction_draws_are_log_normal_around_the_levels_medians(level: str) -> None:
    """Each reaction of a level: the median as set, skewed to the slow side like people's
    (mean above median, a longer tail above than below), within its floor and cap."""
    setting = LEVELS[level]
    rng = Rng(7)
    for reaction in (setting.first_grab, setting.next_grab, setting.reaim, setting.call):
        draws = sorted(reaction.draw(rng) for _ in range(3000))
        median = statistics.median(draws)
        assert abs(median - reaction.median_ms) <= 0.05 * reaction.median_ms
        p10, p90 = draws[300], draws[2700]
        assert p90 - median > median - p10 > 0
        assert statistics.fmean(draws) > median
        assert reaction.floor_ms <= draws[0] and draws[-1] <= reaction.cap_ms
        if level == "hard":
            assert draws[0] >= 250
    assert setting.first_grab.median_ms >= 400 and setting.next_grab.median_ms >= 300


@pytest.mark.parametrize("game_id", ["ambush", "ember", "rampage"])
def test_easy_bots_lose_to_normal_ones_more_often_than_not(game_id: str) -> None:
    """Two heuristic bots, easy against normal, seats swapped every other game."""
    engine = registry.get(game_id)
    bots = importlib.import_module(f"engines.{game_id}.bots")
    wins = {"easy": 0, "normal": 0}
    for index in range(40):
        levels = ("easy", "normal") if index % 2 == 0 else ("normal", "easy")
        seated = [bots.HeuristicBot(s, index * 10 + s, levels[s]) for s in range(2)]
        record = play(engine, seated, seed=index)
        assert record.outcome is not None
        if len(record.outcome.winners) == 1:
            wins[levels[record.outcome.winners[0]]] += 1
    assert wins["normal"] > 1.5 * wins["easy"], wins
