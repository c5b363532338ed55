"""The heuristic bot's fast choice equals the plain rule: every action scored, ties drawn."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import Decision, Rng
from engines.castles.bots import HeuristicBot, RandomBot, _Scorer
from engines.playout import play
from tests.engines.castles.helpers import ENGINE

Action = dict[str, Any]
TERRAIN = {
    "terrain": ["plains", "hills", "lake", "high_hills", "forest", "plains"],
    "rivers": [2],
}


def plain_choice(view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
    """The rule ``HeuristicBot.choose`` follows, written plainly: each action gets
    ``_Scorer.score``; the best score above 0 wins (``legal[0]`` when none is), and a tie among
    several best is drawn with one ``randbelow`` over them in listing order."""
    scorer = _Scorer(view, view["side"], {c["id"]: c["kind"] for c in view["hand"]})
    scores = [scorer.score(action) for action in legal]
    best = max(scores)
    if best <= 0:
        return legal[0]
    tied = [action for action, score in zip(legal, scores, strict=True) if score == best]
    return tied[0] if len(tied) == 1 else tied[rng.randbelow(len(tied))]


class Checked(HeuristicBot):
    """A heuristic bot that checks each turn choice against ``plain_choice``."""

    checked = 0

    def decide(self, view: dict[str, Any], legal: list[Action], now_ms: int) -> Decision | None:
        if legal and view["phase"] == "turn":
            rng = Rng(self.rng.seed, self.rng.position)
            expected = plain_choice(view, legal, rng)
            position = self.rng.position
            chosen = self.choose(view, legal)
            assert chosen is expected, (chosen, expected)
            assert self.rng.position == rng.position  # the same tie-break draws
            self.rng.position = position  # decide chooses again, as it would have
            Checked.checked += 1
        return super().decide(view, legal, now_ms)


@pytest.mark.parametrize("seats", [2, 4])
def test_fast_choice_equals_the_plain_rule(seats: int) -> None:
    """Actions and plays scored first, moves inline and only when one could still win, choose
    what scoring every legal action with ``_Scorer.score`` chooses, with the same draws."""
    Checked.checked = 0
    for seed in range(4):
        bots = [Checked(seat, seed * 10 + seat) for seat in range(seats)]
        play(ENGINE, bots, seed, TERRAIN if seed % 2 else None)
    assert Checked.checked > 200


def test_heuristic_bot_beats_random_bot() -> None:
    """The heuristic side wins every one of 20 two-seat games against a random player, seats
    alternated (a strength floor: the bot plays fewer, better actions than it once did)."""
    wins = 0
    for seed in range(20):
        heuristic = seed % 2
        bots = [
            HeuristicBot(s, seed * 10 + s) if s == heuristic else RandomBot(s, seed * 10 + s)
            for s in range(2)
        ]
        outcome = play(ENGINE, bots, 100 + seed).outcome
        assert outcome is not None
        wins += heuristic in outcome.placings[0] and len(outcome.placings) > 1
    assert wins == 20
