"""Stacked-deck scenario builders for the Castle Rampage tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import Event
from engines.rampage.cards import DECK_SIZE, kind_of
from engines.rampage.engine import RampageEngine
from engines.rampage.state import RampageState

ENGINE = RampageEngine()


@dataclass
class Side:
    """One seat's set-up: Gate and Castle top first (4 each), starting hand (2 cards)."""

    gate: list[str] = field(default_factory=lambda: ["footman", "footman", "axe_man", "axe_man"])
    castle: list[str] = field(default_factory=lambda: ["knight", "knight", "squire", "squire"])
    hand: list[str] = field(default_factory=lambda: ["reinforcements", "quartermaster"])


def stacked_deck(sides: Sequence[Side], draws: Sequence[str] = ()) -> list[str]:
    """The pile (kinds, top first) that deals ``sides`` and then ``draws``.

    Round one deals each seat its first 2 Gate, first 2 Castle and first hand card; round
    two the rest; round-two cards go under round-one cards, as the rulebook says.
    """
    deck: list[str] = []
    for part in (slice(0, 2), slice(2, 4)):
        for side in sides:
            hand_card = side.hand[0 if part.start == 0 else 1]
            deck += [*side.gate[part], *side.castle[part], hand_card]
    return deck + list(draws)


def pick(dealt: list[str], kinds: Sequence[str]) -> list[str]:
    """Instance ids from ``dealt`` for ``kinds``, each id used once."""
    free = list(dealt)
    out = []
    for kind in kinds:
        card_id = next(c for c in free if kind_of(c) == kind)
        free.remove(card_id)
        out.append(card_id)
    return out


def start(
    p0: Side | None = None,
    p1: Side | None = None,
    draws: Sequence[str] = (),
    *,
    first_seat: int = 0,
    seed: int = 7,
) -> RampageState:
    """A match past set-up, at the start of ``first_seat``'s first turn (1 card drawn)."""
    sides = [p0 or Side(), p1 or Side()]
    options: dict[str, Any] = {"deck": stacked_deck(sides, draws), "first_seat": first_seat}
    state = ENGINE.setup(2, seed, options)
    for part in (slice(0, 2), slice(2, 4)):
        for seat, side in enumerate(sides):
            dealt = state.players[seat].dealt
            gate = pick(dealt, side.gate[part])
            castle = pick([c for c in dealt if c not in gate], side.castle[part])
            ENGINE.apply(state, seat, {"type": "setup", "gate": gate, "castle": castle}, 0)
    return state


def give(state: RampageState, seat: int, *kinds: str) -> list[str]:
    """Move copies of ``kinds`` from the draw pile into ``seat``'s hand (test surgery)."""
    ids = pick(state.draw, kinds)
    for card_id in ids:
        state.draw.remove(card_id)
        state.players[seat].hand.append(card_id)
    state.version += 1  # changed outside apply: views must not reuse their public part
    return ids


def card(state: RampageState, seat: int, kind: str) -> str:
    """The first copy of ``kind`` in ``seat``'s hand."""
    return pick(state.players[seat].hand, [kind])[0]


def act(state: RampageState, seat: int, action: dict[str, Any]) -> list[Event]:
    return ENGINE.apply(state, seat, action, 0)


def kinds(cards: Sequence[str]) -> list[str]:
    return [kind_of(c) for c in cards]


def types(events: Sequence[Event]) -> list[str]:
    return [e["type"] for e in events]


def snapshot(state: RampageState) -> str:
    return json.dumps(ENGINE.to_json(state), sort_keys=True)


def conserved(state: RampageState) -> bool:
    """All 118 cards present exactly once."""
    cards = list(state.all_cards())
    return len(cards) == DECK_SIZE and len(set(cards)) == DECK_SIZE


def bury(state: RampageState, seat: int, structure: str, kind: str) -> str:
    """Move a copy of ``kind`` from the draw pile onto the top of a stack (test surgery)."""
    card_id = pick(state.draw, [kind])[0]
    state.draw.remove(card_id)
    state.players[seat].stack(structure).insert(0, card_id)
    state.version += 1
    return card_id


def only(state: RampageState, seat: int, structure: str, count: int) -> None:
    """Trim a stack to its top ``count`` cards, the rest to the discard pile (test surgery)."""
    stack = state.players[seat].stack(structure)
    state.discard.extend(stack[count:])
    del stack[count:]
    state.version += 1


def others(state: RampageState, seat: int, played: str, count: int) -> list[str]:
    """``count`` hand cards other than ``played``, to pay a cost with."""
    return [c for c in state.players[seat].hand if c != played][:count]
