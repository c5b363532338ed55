"""Property tests over 2,000 bot games (800 with 2 seats, 700 with 3, 500 with 4; heuristic and
random bots mixed).

Every game: it ends, all 52 cards are accounted for after every step, the outcome is sane.
On a subset (every 40th game, 51 games, to keep the folder fast): replay of seed + log gives
the same to_json, every view is JSON, a refused action changes nothing, and the no-leak check: each
seat's view is identical on a twin state whose cards hidden from that seat are shuffled
around (other hands, captured piles, unlooked face-down cells, deck order, the RNG).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.ambush.bots import HeuristicBot, RandomBot
from engines.ambush.state import AmbushState
from engines.base import ActionError, Bot, Rng, events_for
from engines.playout import play, replay
from tests.engines.ambush.ambush_support import ENGINE, conserved

GAMES = {2: 800, 3: 700, 4: 500}  # 4-seat games cost about 3x a duel
DEEP_EVERY = 40
PRIVATE = {"looked", "stolen", "captured", "returned"}
CARD_EVENTS = {"exposed", "played", "trigger"} | PRIVATE


def _bots(game: int, seats: int) -> list[Bot]:
    # Every 4th game is all heuristic; the others alternate heuristic and random seats.
    if game % 4 == 0:
        return [HeuristicBot(s, game * 10 + s) for s in range(seats)]
    kinds = (HeuristicBot, RandomBot)
    return [kinds[(game + s) % 2](s, game * 10 + s) for s in range(seats)]


def _twin(state: AmbushState, seat: int | None, rng: Rng) -> AmbushState:
    """The same state with every card hidden from ``seat`` moved around at random."""
    twin = ENGINE.from_json(ENGINE.to_json(state))
    looks = twin.looks[seat] if seat is not None else {}
    slots: list[tuple[list[Any] | dict[Any, Any], Any]] = [
        (twin.deck, i) for i in range(len(twin.deck))
    ]
    for other in range(twin.seats):
        if other != seat:
            slots += [(twin.hands[other], i) for i in range(len(twin.hands[other]))]
        slots += [(twin.captured[other], i) for i in range(len(twin.captured[other]))]
    slots += [(twin.grid, cell) for cell in twin.grid if cell not in looks]
    slots += [(twin.placing, i) for i in range(len(twin.placing))]
    cards = [box[key] for box, key in slots]
    rng.shuffle(cards)
    for (box, key), card in zip(slots, cards, strict=True):
        box[key] = card
    twin.rng = Rng(twin.rng.seed + 1, twin.rng.position + 7)
    return twin


BOGUS: list[tuple[int, dict[str, Any]]] = [
    (0, {"type": "grab", "cell": [1, 0]}),
    (1, {"type": "play", "card": "dragon", "target": 0, "cell": [1, 0]}),
    (0, {"type": "return", "cards": ["dragon"]}),
    (2, {"type": "call_ambush"}),
    (3, {"type": "play", "card": "scout", "target": 1, "cell": [1, 1], "look": [5, 5]}),
    (1, {"type": "place", "cell": [0, 0]}),
    (0, {"type": "expose", "cell": [9, 9]}),
    (1, {"type": "fly"}),
]


def _deep_checks(state: AmbushState, events: list[dict[str, Any]], rng: Rng) -> None:
    for seat in [None, *range(state.seats)]:
        view = ENGINE.view(state, seat)
        json.dumps(view)
        assert ENGINE.view(_twin(state, seat, rng), seat) == view
        for event in events_for(events, seat):
            if "card" in event or "cards" in event:
                assert event["type"] in CARD_EVENTS, event
    # Probes run on a copy: one that happens to be legal must not change the real game.
    probe = ENGINE.from_json(ENGINE.to_json(state))
    before = json.dumps(ENGINE.to_json(probe), sort_keys=True)
    seat, action = BOGUS[rng.randbelow(len(BOGUS))]
    try:
        ENGINE.apply(probe, seat % state.seats, action, -1)
    except ActionError:
        assert json.dumps(ENGINE.to_json(probe), sort_keys=True) == before


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bot_games_keep_every_invariant(seats: int) -> None:
    count = GAMES[seats]
    reasons: dict[str, int] = {}
    for index in range(count):
        game = index * 3 + seats
        deep = index % DEEP_EVERY == 0
        rng = Rng(game)

        def check(
            state: AmbushState, events: list[dict[str, Any]], deep: bool = deep, rng: Rng = rng
        ) -> None:
            assert conserved(state)
            if deep:
                _deep_checks(state, events, rng)

        record = play(ENGINE, _bots(game, seats), game, on_change=check)
        outcome = record.outcome
        assert outcome is not None, f"game {game} did not end"
        placed = sorted(s for group in outcome.placings for s in group)
        assert placed == list(range(seats))
        assert all(0.0 <= r.damage <= 1.0 for r in outcome.seats.values())
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
        if deep:
            again = replay(ENGINE, seats, game, record.options, record.log)
            assert ENGINE.to_json(again) == ENGINE.to_json(record.state)
            assert ENGINE.to_json(ENGINE.from_json(ENGINE.to_json(again))) == ENGINE.to_json(again)
    assert reasons.get("last_castle", 0) > count // 2
