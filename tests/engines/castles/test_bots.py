"""The heuristic bot's fast choice equals the plain rule: every action scored, ties by noise."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import Decision, Rng
from engines.castles.bots import HeuristicBot, _Scorer
from engines.playout import play
from tests.engines.castles.helpers import ENGINE

Action = dict[str, Any]
TERRAIN = {
    "terrain": ["plains", "hills", "lake", "high_hills", "forest", "plains"],
    "rivers": [2],
}


def plain_choice(view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
    """The rule ``HeuristicBot.choose`` follows, written plainly: each action in order gets
    ``_Scorer.score``; one becomes the best when it beats the best score plus the noise in
    [0, 0.01) drawn when that one became the best (none for the first, ``legal[0]`` at 0)."""
    scorer = _Scorer(view, view["side"], {c["id"]: c["kind"] for c in view["hand"]})
    best, best_score, noise = legal[0], 0.0, 0.0
    for action in legal:
        score = scorer.score(action)
        if score > best_score + noise:
            best, best_score, noise = action, score, rng.random() * 0.01
    return best


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
            assert self.rng.position == rng.position  # the same noise draws
            self.rng.position = position  # decide chooses again, as it would have
            Checked.checked += 1
        return super().decide(view, legal, now_ms)


@pytest.mark.parametrize("seats", [2, 4])
def test_fast_choice_equals_the_plain_rule(seats: int) -> None:
    """Moves scored inline (and acts and plays without a table lookup) choose what scoring
    every legal action with ``_Scorer.score`` chooses, drawing the same tie-break noise."""
    Checked.checked = 0
    for seed in range(4):
        bots = [Checked(seat, seed * 10 + seat) for seat in range(seats)]
        play(ENGINE, bots, seed, TERRAIN if seed % 2 else None)
    assert Checked.checked > 200
