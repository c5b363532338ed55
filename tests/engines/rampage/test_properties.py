"""Property tests over thousands of bot games: the end, conservation, refusals, replay, no leak."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.base import ActionError, Bot, Event, Rng, events_for
from engines.playout import play, replay
from engines.rampage.bots import HeuristicBot, RandomBot
from engines.rampage.engine import RampageEngine
from engines.rampage.state import OVER, RampageState

from .helpers import conserved, snapshot

ENGINE = RampageEngine()
PAIRINGS = {
    "heuristic": (HeuristicBot, HeuristicBot, 1200),
    "mixed": (HeuristicBot, RandomBot, 500),
    "random": (RandomBot, RandomBot, 150),
}
DEEP_EVERY = 40  # every n-th change of every 10th game: legal, refusal and leak checks


class Watcher:
    """Checks every change of one game; the deep checks run on a sample."""

    def __init__(self, deep: bool) -> None:
        self.deep = deep
        self.changes = 0
        self.rng = Rng(self.changes)

    def __call__(self, state: RampageState, events: list[Event]) -> None:
        self.changes += 1
        assert conserved(state), "a card was lost or duplicated"
        for event in events:
            visible = event["visible_to"]
            assert visible == "all" or visible == sorted(set(visible))
            redacted = event.get("redacted")
            if redacted is not None:
                # The others learn counts only (a Spy's own, public card aside).
                assert not {"cards", "gate", "castle", "aside"} & set(redacted), event
                assert "card" not in redacted or event["type"] == "triggered", event
        if self.deep and self.changes % DEEP_EVERY == 0 and state.phase != OVER:
            check_legal_actions_apply(state)
            check_refusals_change_nothing(state)
            for seat in (0, 1, None):
                check_no_leak(state, seat, self.rng)


def check_legal_actions_apply(state: RampageState) -> None:
    """Every listed legal action is accepted (on a copy)."""
    data = ENGINE.to_json(state)
    for seat in ENGINE.to_act(state):
        for action in ENGINE.legal_actions(state, seat):
            clone = ENGINE.from_json(json.loads(json.dumps(data)))
            ENGINE.apply(clone, seat, action, 0)


def check_refusals_change_nothing(state: RampageState) -> None:
    before = snapshot(state)
    acting = sorted(ENGINE.to_act(state))
    idle = [seat for seat in (0, 1) if seat not in acting]
    attempts: list[tuple[int, Any]] = [
        (acting[0], {"type": "play", "card": "no_such#1"}),
        (acting[0], {"type": "defend", "card": "knight#1", "to": "moat"}),
        (acting[0], {"type": "play", "card": "bomber#1", "pay": ["x"]}),
    ]
    for seat in idle:
        attempts.append((seat, {"type": "end_turn"}))
        attempts.extend((seat, a) for a in ENGINE.legal_actions(state, acting[0])[:3])
    for seat, action in attempts:
        if action["type"] == "resign":
            continue
        with pytest.raises(ActionError):
            ENGINE.apply(state, seat, action, 0)
        assert snapshot(state) == before


def check_no_leak(state: RampageState, seat: int | None, rng: Rng) -> None:
    """A seat's view is unchanged when the cards hidden from it are shuffled among their
    places: the draw pile, every Gate and Castle (even its own), the other hand and deal."""
    places: list[list[str]] = [state.draw]
    for other, player in enumerate(state.players):
        places += [player.gate, player.castle]
        if other != seat:
            places += [player.hand, player.dealt, player.aside]
    hidden = [card for place in places for card in place]
    rng.shuffle(hidden)
    data = ENGINE.to_json(state)
    variant = ENGINE.from_json(json.loads(json.dumps(data)))
    variant_places: list[list[str]] = [variant.draw]
    for other, player in enumerate(variant.players):
        variant_places += [player.gate, player.castle]
        if other != seat:
            variant_places += [player.hand, player.dealt, player.aside]
    start = 0
    for place in variant_places:
        place[:] = hidden[start : start + len(place)]
        start += len(place)
    variant.rng = Rng(12345, 678)
    assert ENGINE.view(variant, seat) == ENGINE.view(state, seat)
    if seat is not None:
        assert ENGINE.legal_actions(variant, seat) == ENGINE.legal_actions(state, seat)


def bots_for(pairing: str, seed: int) -> list[Bot]:
    first, second, _ = PAIRINGS[pairing]
    if seed % 2:
        first, second = second, first
    return [first(0, seed * 2 + 1), second(1, seed * 2 + 2)]


@pytest.mark.parametrize("pairing", sorted(PAIRINGS))
def test_bot_games_end_conserve_cards_replay_and_leak_nothing(pairing: str) -> None:
    games = PAIRINGS[pairing][2]
    lengths = []
    exhausted = 0
    for seed in range(games):
        watcher = Watcher(deep=seed % 10 == 0)
        record = play(ENGINE, bots_for(pairing, seed), seed, on_change=watcher)
        outcome = record.outcome
        assert outcome is not None, f"seed {seed} did not end"
        assert record.rejected == [], record.rejected[:3]
        assert sorted(s for g in outcome.placings for s in g) == [0, 1]
        assert all(0.0 <= r.damage <= 1.0 for r in outcome.seats.values())
        if outcome.reason in ("exhausted", "turn_limit"):
            exhausted += 1
        else:
            loser = outcome.placings[1][0]
            assert outcome.seats[loser].destroyed or outcome.seats[loser].resigned
        assert ENGINE.to_act(record.state) == frozenset()
        lengths.append(record.state.turn)
        if seed % 5 == 0:
            rebuilt = replay(ENGINE, 2, seed, record.options, record.log)
            assert snapshot(rebuilt) == snapshot(record.state)
    assert max(lengths) <= 401
    if pairing == "heuristic":
        assert exhausted == 0  # the house end is a safety net, not part of real games


def test_same_seed_same_game_and_views_are_json() -> None:
    first = play(ENGINE, bots_for("mixed", 3), 3)
    second = play(ENGINE, bots_for("mixed", 3), 3)
    assert first.log == second.log
    for seat in (0, 1, None):
        json.dumps(ENGINE.view(first.state, seat))


def test_events_a_seat_receives_name_no_card_hidden_from_it() -> None:
    """Every hidden-card event a seat gets shows only its own cards (or none)."""
    seen: list[tuple[int, dict[str, Any]]] = []

    def collect(state: RampageState, events: list[Event]) -> None:
        for seat in (0, 1):
            for event in events_for(events, seat):
                if event["type"] in ("drew", "dealt", "defended", "setup_chosen"):
                    seen.append((seat, event))

    for seed in range(20):
        play(ENGINE, bots_for("heuristic", seed), seed, on_change=collect)
    assert seen
    for seat, event in seen:
        if event["seat"] != seat:
            assert not {"cards", "card", "gate", "castle", "aside"} & set(event), event


def test_heuristic_bot_beats_the_random_bot() -> None:
    """The heuristic bot is a real opponent: it wins at least 85% against random play."""
    wins = 0
    games = 100
    for seed in range(games):
        record = play(ENGINE, bots_for("mixed", seed), seed)
        heuristic_seat = 1 if seed % 2 else 0
        assert record.outcome is not None
        wins += record.outcome.placings[0] == [heuristic_seat]
    assert wins >= 85
