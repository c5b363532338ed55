"""Property tests over many bot games: the end, card conservation, refusals, replay, no leak."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

import pytest

from engines.base import ActionError, Bot, Decision, Event, events_for
from engines.castles.bots import HeuristicBot, RandomBot
from engines.castles.cards import CASTLE_HP, COLOUR_SET
from engines.castles.state import DISCARD, HAND, PILE, PLAY, GameState
from engines.playout import play, replay
from tests.engines.castles.helpers import ENGINE, snapshot

# Thousands of games take minutes: the default run keeps the folder under 90 s on two cores;
# CASTLES_PROPERTY_GAMES=3000 runs the long version (heuristic games; random ones scale too).
HEURISTIC_GAMES = int(os.environ.get("CASTLES_PROPERTY_GAMES", "400"))
RANDOM_GAMES = max(16, HEURISTIC_GAMES // 25)
TERRAIN = {
    "terrain": ["plains", "hills", "lake", "high_hills", "forest", "plains"],
    "rivers": [2],
}
MARSH = {"terrain": ["plains", "marsh", "forest", "hills", "marsh", "plains"], "rivers": [0, 4]}


def check_conservation(state: GameState) -> None:
    """Every card is in exactly one place, and its fields agree with that place."""
    where: Counter[int] = Counter()
    for pile in state.piles:
        where.update(pile)
    for hand in state.hands:
        where.update(hand)
    where.update(state.discard)
    for card in state.cards:
        if card.place == PLAY:
            where[card.id] += 1
            assert 0 <= card.zone <= 5 and card.side in (0, 1) and card.hp > 0, card
        else:
            assert card.zone == -1, card
    assert all(where[card.id] == 1 for card in state.cards), where
    for seat, hand in enumerate(state.hands):
        assert all(state.cards[i].place == HAND and state.cards[i].holder == seat for i in hand)
    for pile in state.piles:
        assert all(state.cards[i].place == PILE for i in pile)
    assert all(state.cards[i].place == DISCARD for i in state.discard)
    assert len(state.cards) == 2 * len(COLOUR_SET) + 72 or state.piles != [[]]


def checker(seats: int) -> Any:
    def on_change(state: GameState, events: list[Event]) -> None:
        check_conservation(state)
        for event in events:
            assert event["visible_to"] == "all" or event["visible_to"] == sorted(
                event["visible_to"]
            )
        view = ENGINE.view(state, state.active)
        assert {"game", "phase", "seats", "to_act", "outcome"} <= set(view)

    return on_change


def game_options(index: int) -> tuple[int, dict[str, Any]]:
    if index % 10 == 7:
        return 4, {"teams": True}
    if index % 10 == 8:
        return 2, dict(TERRAIN)
    if index % 10 == 9:
        return 3, dict(MARSH)
    return 2, {}


@pytest.mark.parametrize("chunk", range(4))
def test_heuristic_games_end_and_conserve_every_card(chunk: int) -> None:
    """Games end with a destroyed Castle (or the turn limit); no bot action is refused."""
    per_chunk = HEURISTIC_GAMES // 4
    for index in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        seats, options = game_options(index)
        bots = [HeuristicBot(seat, index * 10 + seat) for seat in range(seats)]
        record = play(ENGINE, bots, index, options, on_change=checker(seats))
        assert record.outcome is not None, index
        assert not record.rejected, record.rejected[:3]
        for result in record.outcome.seats.values():
            assert 0.0 <= result.damage <= 1.0
        if record.outcome.reason == "castle_destroyed":
            loser = record.outcome.placings[-1][0]
            assert record.outcome.seats[loser].destroyed
            assert record.outcome.seats[loser].damage == 1.0
        if index % 25 == 0:
            rebuilt = replay(ENGINE, seats, index, options, record.log)
            assert snapshot(rebuilt) == snapshot(record.state)


def test_random_games_accept_every_listed_action_and_refuse_without_change() -> None:
    """Every listed action is accepted (tried on a copy); seats not to act are refused and the
    state is unchanged; the log replays to the same state."""
    for index in range(RANDOM_GAMES):
        seats, options = game_options(index)
        steps = [0]

        def on_change(
            state: GameState, events: list[Event], seats: int = seats, steps: list[int] = steps
        ) -> None:
            check_conservation(state)
            steps[0] += 1
            if steps[0] % 13:
                return
            before = snapshot(state)
            acting = ENGINE.to_act(state)
            in_time = state.window.deadline - 1 if state.window else 10**9
            for seat in range(seats):
                legal = ENGINE.legal_actions(state, seat)
                if seat not in acting:
                    assert legal == []
                    with pytest.raises(ActionError):
                        ENGINE.apply(state, seat, {"type": "end_turn"}, 10**9)
                    continue
                for action in legal[:: max(1, len(legal) // 6)]:
                    copy = ENGINE.from_json(json.loads(before))
                    ENGINE.apply(copy, seat, action, in_time)
                for bad in (
                    {"type": "act", "card": 10**6},
                    {"type": "move", "card": 0, "to": 9},
                    {"type": "play", "card": 0, "zone": 1},
                    {"type": "trap", "card": 0, "target": 0},
                ):
                    with pytest.raises(ActionError):
                        ENGINE.apply(state, seat, bad, 10**9)
            assert snapshot(state) == before

        bots = [RandomBot(seat, index * 10 + seat) for seat in range(seats)]
        record = play(ENGINE, bots, index, options, on_change=on_change)
        assert record.outcome is not None
        rebuilt = replay(ENGINE, seats, index, options, record.log)
        assert snapshot(rebuilt) == snapshot(record.state)


class Filtered:
    """A heuristic bot that never uses its Spy (whose Action would legitimately reveal)."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.inner = HeuristicBot(seat, seed)

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        self.inner.observe(events, view)

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now: int
    ) -> Decision | None:
        spy = [c["id"] for c in view["in_play"] if c["kind"] == "spy"]
        legal = [a for a in legal if not (a["type"] == "act" and a["card"] in spy)]
        return self.inner.decide(view, legal, now)


class Passive:
    """Always takes the default: end the turn, pass in a window."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        pass

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now: int
    ) -> Decision | None:
        return Decision(legal[0], now + 500) if legal else None


def watch(deck: list[str], seed: int) -> list[str]:
    """Red's view and events after every change of a match where Blue only passes."""
    seen: list[str] = []
    bots: list[Bot] = [Filtered(0, seed), Passive(1)]

    def on_change(state: GameState, events: list[Event]) -> None:
        seen.append(json.dumps([events_for(events, 0), ENGINE.view(state, 0)], sort_keys=True))
        seen.append(json.dumps([events_for(events, None), ENGINE.view(state, None)]))

    play(ENGINE, bots, seed, {"deck": deck, "max_turns": 30}, on_change=on_change)
    return seen


@pytest.mark.parametrize("seed", range(12))
def test_no_leak_reds_view_ignores_cards_hidden_from_red(seed: int) -> None:
    """Two matches differing only in Blue's hand and the cards Blue draws: Red's views and
    events (and the spectator's) are identical at every step."""
    from engines.base import Rng
    from engines.castles.cards import shared_deck

    deck = shared_deck()
    Rng(seed).shuffle(deck)
    other = list(deck)
    blue_slots = list(range(5, 10)) + list(range(10, 72, 2))  # Blue's hand, Blue's draws
    hidden = [other[i] for i in blue_slots]
    Rng(seed + 99).shuffle(hidden)
    for slot, kind in zip(blue_slots, hidden, strict=True):
        other[slot] = kind
    assert other != deck
    assert watch(deck, seed) == watch(other, seed)


def test_outcome_damage_is_castle_hp_lost_over_50() -> None:
    record = play(ENGINE, [HeuristicBot(0, 1), HeuristicBot(1, 2)], 3)
    outcome = record.outcome
    assert outcome is not None
    for seat, result in outcome.seats.items():
        hp = record.state.cards[(seat % 2) * len(COLOUR_SET)].hp
        assert result.damage == (CASTLE_HP - hp) / CASTLE_HP
