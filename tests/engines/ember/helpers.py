"""Stacked Ember games for the tests: build a position, find cards, act and check refusals."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from engines.base import ActionError
from engines.ember.cards import CARDS
from engines.ember.engine import EmberEngine
from engines.ember.state import EmberState, touched

ENGINE = EmberEngine()
HEROES = ["yvera", "serephene", "rowl", "kaldoren"]
ARCANE_FILL = "golden_hoard"
HAND_FILL = "ember_shard"
DECK_FILL = "ember_cluster"


def deck(
    hand: Sequence[str] = (), arcane: Sequence[str] = (), rest: Sequence[str] = (), size: int = 30
) -> list[str]:
    """A stacked deck, top first: 4 arcane cards, a 5-card hand, the rest (padded to
    ``size`` with Ember Clusters), then five of every card."""
    top = [*arcane, *[ARCANE_FILL] * (4 - len(arcane))]
    top += [*hand, *[HAND_FILL] * (5 - len(hand))]
    cards = [*top, *rest]
    cards += [DECK_FILL] * max(0, size - len(cards))
    # A library of every card at the bottom, for ``arrange`` to build positions from.
    return cards + [card for card in sorted(CARDS) for _ in range(5)]


def game(*decks: list[str], seats: int = 2, first_seat: int = 0, **options: Any) -> EmberState:
    """A game on stacked decks (missing seats get the default deck); seat 0 starts."""
    stacked = [*decks, *[deck() for _ in range(seats - len(decks))]]
    opts = {"heroes": HEROES[:seats], "decks": stacked, "first_seat": first_seat, **options}
    return ENGINE.setup(seats, 1, opts)


def uid(state: EmberState, seat: int, card: str, zone: str = "hand") -> int:
    """The first card of kind ``card`` in the seat's ``zone``."""
    for candidate in getattr(state.players[seat], zone):
        if state.kinds[candidate] == card:
            return int(candidate)
    raise AssertionError(f"no {card} in seat {seat}'s {zone}")


def kinds(state: EmberState, seat: int, zone: str) -> list[str]:
    return [state.kinds[u] for u in getattr(state.players[seat], zone)]


def pull(state: EmberState, seat: int, card: str) -> int:
    """Take a card of kind ``card`` out of the seat's deck (the bottom-most, from the library)."""
    found = next(u for u in reversed(state.players[seat].deck) if state.kinds[u] == card)
    state.players[seat].deck.remove(found)
    touched(state)
    return found


def arrange(
    state: EmberState,
    seat: int,
    *,
    scape: Sequence[str] = (),
    mode: Sequence[str] = (),
    hand: Sequence[str] = (),
    face_down: Sequence[str] = (),
) -> None:
    """Move cards of the given kinds from the seat's deck into its areas (mode: bottom first)."""
    player = state.players[seat]
    for card in scape:
        player.scape.append(pull(state, seat, card))
    for card in face_down:
        hidden = pull(state, seat, card)
        player.scape.append(hidden)
        player.face_down.append(hidden)
    for card in mode:
        player.mode_pile.append(pull(state, seat, card))
    for card in hand:
        player.hand.append(pull(state, seat, card))


def act(state: EmberState, seat: int, action: dict[str, Any], at_ms: int = 0) -> list[Any]:
    return ENGINE.apply(state, seat, action, at_ms)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def refused(state: EmberState, seat: int, action: dict[str, Any], code: str) -> None:
    """The action is refused with ``code`` and the state is left exactly as it was."""
    before = json.dumps(ENGINE.to_json(state), sort_keys=True)
    with pytest.raises(ActionError) as error:
        ENGINE.apply(state, seat, action, 0)
    assert error.value.code == code
    assert json.dumps(ENGINE.to_json(state), sort_keys=True) == before


def keep_mode(state: EmberState, seat: int) -> None:
    """Pass the mode phase (arranging a mode card first if the pile is empty)."""
    if not state.players[seat].mode_pile:
        arrange(state, seat, mode=["ember_cluster"])
    act(state, seat, {"type": "pass"})


def to_play_phase(state: EmberState, seat: int, mode: str | None = None) -> None:
    """From the seat's mode phase to its play phase, with a mode card of kind ``mode``."""
    assert state.phase == "mode" and state.turn == seat
    if mode is not None:
        arrange(state, seat, mode=[mode])
    keep_mode(state, seat)
    assert state.phase == "play"


def play(state: EmberState, seat: int, card: str, **declared: int) -> list[Any]:
    return act(state, seat, {"type": "play", "card": uid(state, seat, card), **declared})


def next_turn(state: EmberState, seat: int) -> None:
    """Let ``seat`` (the opponent) play an Ember Shard so the turn comes back."""
    to_play_phase(state, seat, mode="martyr")
    play(state, seat, "ember_shard")


def attack(state: EmberState, card: str, target_card: str | None = None, **extra: int) -> int:
    """Seat 0 plays ``card`` on seat 1 (on its ``target_card``); seat 1 passes its window."""
    declared: dict[str, int] = {"target_seat": 1, **extra}
    target = -1
    if target_card is not None:
        target = uid(state, 1, target_card, "scape")
        declared["target_card"] = target
    play(state, 0, card, **declared)
    act(state, 1, {"type": "pass"})
    return target
