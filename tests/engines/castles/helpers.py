"""Scenario helpers for the Castles engine tests: stacked decks and hand-placed cards."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from engines.base import ActionError, Event
from engines.castles.board import colour_id
from engines.castles.cards import shared_deck
from engines.castles.combat import destroy
from engines.castles.engine import CastlesEngine
from engines.castles.playing import enter_play
from engines.castles.state import HAND, PILE, Card, GameState, touch

ENGINE = CastlesEngine()
FILLER = "medicine"  # a harmless card to pad hands with


def new_game(
    hands: Sequence[Sequence[str]] = (),
    pile: Sequence[str] = (),
    *,
    seats: int = 2,
    spare: Sequence[str] | None = None,
    **options: Any,
) -> GameState:
    """A match whose hands are exactly ``hands`` (padded with Medicine to five cards each),
    whose draw pile continues with ``pile``, then ``spare`` cards (by default one whole shared
    deck) that the tests ``put`` into play. Red (seat 0) moves first, with no first draw."""
    deck: list[str] = []
    for seat in range(seats):
        hand = list(hands[seat]) if seat < len(hands) else []
        deck += hand + [FILLER] * (5 - len(hand))
    deck += list(pile) + (shared_deck() if spare is None else list(spare))
    return ENGINE.setup(seats, 7, {"deck": deck, **options})


def find(
    state: GameState, kind: str, *, place: str | None = None, holder: int | None = None
) -> Card:
    """The first card of ``kind`` (optionally in ``place``, held by ``holder``)."""
    for card in state.cards:
        if (
            card.kind == kind
            and (place is None or card.place == place)
            and (holder is None or card.holder == holder)
        ):
            return card
    raise LookupError(kind)


def in_hand(state: GameState, seat: int, kind: str) -> int:
    return find(state, kind, place=HAND, holder=seat).id


def colour(state: GameState, side: int, kind: str) -> Card:
    return state.cards[colour_id(side, kind)]


def put(state: GameState, kind: str, side: int, zone: int, *, ready: bool = True) -> Card:
    """Take a ``kind`` card from the back of the pile and stand it in ``zone`` for ``side``."""
    for card_id in reversed(state.piles[0]):
        card = state.cards[card_id]
        if card.kind == kind:
            state.piles[0].remove(card_id)
            enter_play(state, card, side, zone)
            if ready:
                card.moves = card.acts = 1
            touch(state)  # a hand edit: views and listings derived before are stale
            return card
    raise LookupError(f"no {kind} left in the pile")


def move(state: GameState, card: Card, zone: int) -> None:
    """Stand a card in play somewhere else (scenario set-up, not a rules move)."""
    card.zone = zone
    touch(state)


def kill(state: GameState, card: Card) -> None:
    events: list[Event] = []
    destroy(state, card, events)
    touch(state)


class Clock:
    """Increasing ``at_ms`` values for a scripted match."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        self.now += 1000
        return self.now


CLOCK = Clock()


def do(state: GameState, seat: int, /, **action: Any) -> list[Event]:
    """Apply an action, which must be accepted."""
    return ENGINE.apply(state, seat, dict(action), CLOCK())


def snapshot(state: GameState) -> str:
    return json.dumps(ENGINE.to_json(state), sort_keys=True)


def refused(state: GameState, seat: int, code: str, /, **action: Any) -> None:
    """The action is refused with ``code`` and the state is byte-for-byte unchanged."""
    before = snapshot(state)
    with pytest.raises(ActionError) as caught:
        ENGINE.apply(state, seat, dict(action), CLOCK())
    assert caught.value.code == code
    assert snapshot(state) == before


def listed(state: GameState, seat: int, /, **action: Any) -> bool:
    touch(state)  # tests edit card fields by hand between listings
    return dict(action) in ENGINE.legal_actions(state, seat)


def end_turn(state: GameState) -> None:
    do(state, state.active, type="end_turn")


__all__ = ["HAND", "PILE"]
