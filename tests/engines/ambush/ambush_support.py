"""Helpers for the Ambush! tests: stacked games, short action calls, card conservation."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from engines.ambush.cards import CARDS, DECK_SIZE, full_deck
from engines.ambush.engine import AmbushEngine
from engines.ambush.state import AmbushState
from engines.base import ActionError, Event

ENGINE = AmbushEngine()
# Cards used to fill stacked hands: plain damage, no text, never an Ambush! by accident.
_FILLERS = ["footman", "knight", "healer", "shieldbearer", "fire_mage", "scout", "thief"]


def new_game(
    hands: list[list[str]] | None = None,
    top: list[str] | None = None,
    *,
    seats: int = 2,
    first: int = 0,
    seed: int = 1,
    **options: Any,
) -> AmbushState:
    """A game with stacked hands (padded to the hand size) and a stacked deck top."""
    hands = [list(h) for h in (hands or [[] for _ in range(seats)])]
    seats = len(hands)
    size = options.get("hand_size", 5)
    used = Counter(c for h in hands for c in h) + Counter(top or [])
    pool = Counter(full_deck()) - used
    for hand in hands:
        while len(hand) < size:
            filler = next(c for c in [*_FILLERS, *sorted(pool)] if pool[c] > 0)
            pool[filler] -= 1
            hand.append(filler)
    deck = [c for h in hands for c in h] + list(top or [])
    return ENGINE.setup(seats, seed, {"deck": deck, "first_seat": first, **options})


def act(state: AmbushState, seat: int, action: dict[str, Any], at: int = 0) -> list[Event]:
    return ENGINE.apply(state, seat, action, at)


def refused(state: AmbushState, seat: int, action: dict[str, Any], at: int = 0) -> str:
    """Apply an action that must be refused; check nothing changed; return its code."""
    before = json.dumps(ENGINE.to_json(state), sort_keys=True)
    try:
        ENGINE.apply(state, seat, action, at)
    except ActionError as error:
        assert json.dumps(ENGINE.to_json(state), sort_keys=True) == before
        return error.code
    raise AssertionError(f"{action} was accepted")


def expose(cell: list[int]) -> dict[str, Any]:
    return {"type": "expose", "cell": cell}


def play(card: str, cell: list[int], target: int | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "play", "card": card, "target": target, "cell": cell, **extra}


PASS = {"type": "pass"}
CALL = {"type": "call_ambush"}


def grab(cell: list[int]) -> dict[str, Any]:
    return {"type": "grab", "cell": cell}


def kinds(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def find(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e["type"] == kind)


def all_cards(state: AmbushState) -> Counter[str]:
    """Every card wherever it is: deck, hands, grid, captured piles, reserved, being placed."""
    cards = [*state.deck, *state.grid.values(), *state.placing]
    for hand in state.hands:
        cards += hand
    for pile in state.captured:
        cards += pile
    if state.reserved is not None:
        cards.append(state.reserved[1])
    return Counter(cards)


FULL = Counter(full_deck())
assert sum(FULL.values()) == DECK_SIZE and set(FULL) == set(CARDS)


def conserved(state: AmbushState) -> bool:
    return all_cards(state) == FULL
