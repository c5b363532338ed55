"""Property tests over many bot games: the end, card conservation, refusals that change
nothing, replay, and no leak of hidden cards into a seat's view."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engines.base import ActionError, events_for
from engines.ember.bots import HeuristicBot, RandomBot
from engines.ember.engine import EmberEngine
from engines.ember.state import HAND_LIMIT, SCAPE_SIZE, ZONES, EmberState
from engines.playout import LogEntry, play, replay

ENGINE = EmberEngine()
Check = Callable[[EmberState, list[dict[str, Any]]], None]


def drive(
    seats: int, seed: int, options: dict[str, Any] | None = None, check: Check | None = None
) -> tuple[EmberState, list[LogEntry]]:
    """A bot game (heuristic and random bots mixed) on the playout host; exactly one seat acts
    at a time, no bot action is refused and every change reports what happened."""
    bots = [
        (HeuristicBot if (seed + seat) % 3 else RandomBot)(seat, seed * 10 + seat)
        for seat in range(seats)
    ]

    def each_change(state: EmberState, events: list[dict[str, Any]]) -> None:
        assert events, "every accepted action or due tick reports what happened"
        assert state.phase == "over" or len(ENGINE.to_act(state)) == 1, "one seat acts"
        if check is not None:
            check(state, events)

    record = play(ENGINE, bots, seed, options, max_steps=5_000, on_change=each_change)
    assert not record.rejected, record.rejected
    return record.state, record.log


def conserved(state: EmberState, events: list[dict[str, Any]]) -> None:
    """Every card is in exactly one place; areas respect the rulebook's limits."""
    places: list[int] = []
    for player in state.players:
        for zone in ZONES:
            places += getattr(player, zone)
        assert set(player.face_down) <= set(player.scape)
        assert set(player.hidden_collected) <= set(player.collection)
        assert len(player.scape) <= SCAPE_SIZE
        assert len(player.arcane) <= 4
    places += [item["uid"] for item in state.stack if item["zone"] == "stack"]
    assert sorted(places) == list(range(len(state.kinds)))
    if state.phase in ("mode", "play"):
        # The hand limit is enforced in every end phase.
        assert all(len(p.hand) <= HAND_LIMIT + 12 for p in state.players)
    for event in events:
        assert event["visible_to"] == "all" or event["visible_to"] == sorted(event["visible_to"])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bot_games_end_and_conserve_every_card(seats: int) -> None:
    reasons: dict[str, int] = {}
    for seed in range(400):
        state, _ = drive(seats, seed, {"heroes": "random"}, conserved)
        outcome = ENGINE.outcome(state)
        assert outcome is not None, f"seed {seed} did not end"
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
        assert sorted(s for group in outcome.placings for s in group) == list(range(seats))
        assert json.dumps(ENGINE.view(state, None)["outcome"])
        # Hand limit: nobody ends a turn above 9 cards.
        assert all(len(p.hand) <= HAND_LIMIT + 2 for p in state.players)
    assert reasons.get("last_arcane", 0) > 350, reasons


def test_refused_actions_change_nothing() -> None:
    """A refusal (malformed, out of turn, or not legal now) leaves to_json identical."""

    def probes(state: EmberState) -> list[tuple[int, dict[str, Any]]]:
        (seat,) = ENGINE.to_act(state)
        other = (seat + 1) % state.seats
        hand = state.players[seat].hand
        foreign = state.players[other].hand[:1] or [len(state.kinds) + 5]
        return [
            (other, {"type": "pass"}),
            (other, {"type": "play", "card": foreign[0]}),
            (seat, {"type": "play", "card": foreign[0]}),
            (seat, {"type": "play", "card": "x"}),
            (seat, {"type": "mode", "card": foreign[0]}),
            (seat, {"type": "respond", "card": hand[0] if hand else 0}),
            (seat, {"type": "discard", "card": foreign[0]}),
            (seat, {"type": "arcane", "target_seat": 9}),
            (seat, {"type": "hero", "hero": "yvera"}),
            (seat, {"type": "play", "card": hand[0] if hand else 0, "target_seat": seat}),
            (seat, {"type": "nope"}),
            (7, {"type": "pass"}),
        ]

    checked = 0

    def probe(state: EmberState, events: list[dict[str, Any]]) -> None:
        nonlocal checked
        if ENGINE.outcome(state) is not None:
            return
        before = json.dumps(ENGINE.to_json(state), sort_keys=True)
        for seat, action in probes(state):
            if action in ENGINE.legal_actions(state, seat) if 0 <= seat < state.seats else False:
                continue
            with pytest.raises(ActionError):
                ENGINE.apply(state, seat, action, 0)
            assert json.dumps(ENGINE.to_json(state), sort_keys=True) == before
            checked += 1

    for seed in range(20):
        drive(2 + seed % 3, seed, {"heroes": "random"}, probe)
    assert checked > 1000


def test_replay_and_round_trip_reproduce_playout_games() -> None:
    for seed in range(24):
        seats = 2 + seed % 3
        bots = [
            (HeuristicBot if seat % 2 else RandomBot)(seat, seed + seat) for seat in range(seats)
        ]
        record = play(ENGINE, bots, seed, {})
        assert record.outcome is not None and not record.rejected
        rebuilt = replay(ENGINE, seats, seed, record.options, record.log)
        assert ENGINE.to_json(rebuilt) == ENGINE.to_json(record.state)
        copy = ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(record.state))))
        assert ENGINE.to_json(copy) == ENGINE.to_json(record.state)


def stacked_options(state: EmberState) -> dict[str, Any]:
    """Options that rebuild the same deal as ``state`` (fresh from setup) on stacked decks."""
    decks = []
    for player in state.players:
        order = player.arcane + player.hand + player.deck
        decks.append([state.kinds[uid] for uid in order])
    return {
        "heroes": [p.hero for p in state.players],
        "decks": decks,
        "first_seat": state.first_seat,
    }


def views_along(options: dict[str, Any], seats: int, log: list[LogEntry], seat: int) -> list[Any]:
    state = ENGINE.setup(seats, 3, options)
    seen: list[Any] = [ENGINE.view(state, seat)]
    for entry in log:
        actor, action, at = entry
        events = ENGINE.tick(state, at) if actor is None else ENGINE.apply(state, actor, action, at)
        seen.append((events_for(events, seat), ENGINE.view(state, seat)))
    return seen


def test_no_leak_a_view_ignores_cards_hidden_from_it() -> None:
    """Two games that differ only in cards seat 0 never saw look identical to seat 0."""
    compared = 0
    for seed in range(42):
        seats = 2 + seed % 3
        dealt = ENGINE.setup(seats, seed, {"heroes": "random"})
        options = stacked_options(dealt)
        hidden: set[int] | None = None

        def watch(state: EmberState, events: list[dict[str, Any]]) -> None:
            nonlocal hidden
            now = set()
            for other in range(1, state.seats):
                now |= set(state.players[other].deck) | set(state.players[other].arcane[1:])
            hidden = now if hidden is None else hidden & now

        _, log = drive(seats, 3, options, watch)
        assert hidden is not None
        # Swap two hidden cards of different kinds in one opponent's stacked deck.
        for other in range(1, seats):
            offset = sum(len(d) for d in options["decks"][:other])
            mine = sorted(
                u - offset for u in hidden if 0 <= u - offset < len(options["decks"][other])
            )
            kinds = options["decks"][other]
            pair = next(((a, b) for a in mine for b in mine if kinds[a] != kinds[b]), None)
            if pair is None:
                continue
            swapped = json.loads(json.dumps(options))
            a, b = pair
            swapped["decks"][other][a], swapped["decks"][other][b] = kinds[b], kinds[a]
            assert views_along(options, seats, log, 0) == views_along(swapped, seats, log, 0)
            assert views_along(options, seats, log, None) == views_along(swapped, seats, log, None)
            compared += 1
    assert compared >= 30
