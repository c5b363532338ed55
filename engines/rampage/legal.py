"""Legal action lists: one representative per distinct choice, the default (end turn) first.

Copies of one kind are interchangeable, so choices that differ only in which copy is used
are listed once; ``apply`` still accepts any copy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from engines.rampage.cards import (
    CARD_BY_ID,
    CARDS,
    KIND_BY_ID,
    OGRE_PLACEMENT_COST,
    STRUCTURES,
    UNIT_TYPES,
    Card,
)
from engines.rampage.state import OVER, PLAY, SETUP, RampageState

RESIGN: dict[str, Any] = {"type": "resign"}
# ``Card.playable`` by kind, read once: the play listing asks it for every card in hand.
_PLAYABLE: dict[str, bool] = {kind: card.playable for kind, card in CARDS.items()}
# Listings run for every decision, so cards are looked up by instance id in the dicts built
# at import (``CARD_BY_ID``, ``KIND_BY_ID``); the ids come from the state, so all are known.
END_TURN: dict[str, Any] = {"type": "end_turn"}
# The instances that carry a unit symbol (Scheme payments are drawn from these).
_UNIT_IDS = frozenset(card_id for card_id, card in CARD_BY_ID.items() if card.units)
# Kinds played in exactly one way, always: playable, not a permanent (one of each in play),
# nothing to pay and no extra field. The play listing skips the general path for them.
_PLAIN = frozenset(
    kind
    for kind, card in CARDS.items()
    if card.playable
    and not card.permanent
    and card.scheme is None
    and card.cost == 0
    and card.effect not in ("priest", "archer", "fire_arrows")
)

# Kinds a player may play only once a turn (house rule 8: the Veteran).
_ONCE_A_TURN = frozenset(kind for kind, card in CARDS.items() if card.effect == "veteran")


def _five_splits() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(gate, castle) index pairs of five dealt cards, in ``setup_splits``'s order."""
    out = []
    for gate in combinations(range(5), 2):
        rest = [i for i in range(5) if i not in gate]
        out += [(gate, castle) for castle in combinations(rest, 2)]
    return out


_FIVE_SPLITS = _five_splits()


def legal_actions(state: RampageState, seat: int) -> list[dict[str, Any]]:
    """Everything ``seat`` may do now; resign last, and only while the match runs."""
    if state.phase == OVER or not 0 <= seat < len(state.players):
        return []
    player = state.players[seat]
    if state.phase == SETUP:
        return [*setup_splits(player.dealt), RESIGN] if not player.chosen else [RESIGN]
    if state.phase != PLAY or state.active != seat:
        return [RESIGN]
    actions: list[dict[str, Any]] = [dict(END_TURN)]
    firsts = _one_per_kind(player.hand)  # shared by both listings
    if not state.defended:
        actions.extend(defend_actions(player.hand, firsts))
    actions.extend(play_actions(state, seat, firsts))
    actions.append(RESIGN)
    return actions


def setup_splits(dealt: Sequence[str]) -> list[dict[str, Any]]:
    """Every way to put 2 dealt cards at the Gate and 2 at the Castle (the fifth aside)."""
    if len(dealt) == 5 and len({KIND_BY_ID[c] for c in dealt}) == 5:
        # Five different kinds (most deals): every split is distinct, nothing to deduplicate.
        return [
            {"type": "setup", "gate": [dealt[a], dealt[b]], "castle": [dealt[c], dealt[d]]}
            for (a, b), (c, d) in _FIVE_SPLITS
        ]
    splits: list[dict[str, Any]] = []
    seen: set[tuple[tuple[str, ...], tuple[str, ...], str]] = set()
    for gate in combinations(dealt, 2):
        rest = [c for c in dealt if c not in gate]
        gate_kinds = _pair_kinds(gate)
        for castle in combinations(rest, 2):
            aside = [c for c in rest if c not in castle]
            # The fifth card aside alone (the usual case) is its own kind: no sort, no join.
            aside_kinds = KIND_BY_ID[aside[0]] if len(aside) == 1 else ",".join(_kinds(aside))
            key = (gate_kinds, _pair_kinds(castle), aside_kinds)
            if key in seen:
                continue
            seen.add(key)
            splits.append({"type": "setup", "gate": list(gate), "castle": list(castle)})
    return splits


def defend_actions(
    hand: Sequence[str], firsts: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """One defence placement: any hand card under the Gate or Castle (the Ogre costs 2).

    ``firsts`` is ``_one_per_kind(hand)`` when the caller has it already.
    """
    actions: list[dict[str, Any]] = []
    for card_id in _one_per_kind(hand) if firsts is None else firsts:
        if CARD_BY_ID[card_id].effect == "ogre":
            others = [c for c in hand if c != card_id]
            for pay in distinct_combinations(others, OGRE_PLACEMENT_COST):
                for structure in STRUCTURES:
                    actions.append(
                        {"type": "defend", "card": card_id, "to": structure, "pay": list(pay)}
                    )
            continue
        actions += [
            {"type": "defend", "card": card_id, "to": structure} for structure in STRUCTURES
        ]
    return actions


def play_actions(
    state: RampageState, seat: int, firsts: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Every distinct way to play a card from ``seat``'s hand now (``firsts``: see above)."""
    player = state.players[seat]
    opponent = state.players[1 - seat]
    owned = {KIND_BY_ID[p] for p in player.permanents} if player.permanents else ()
    # House rule 8: one Veteran a turn (a Veteran back in hand waits for the next turn).
    spent = _ONCE_A_TURN if state.veteran_played else ()
    actions: list[dict[str, Any]] = []
    for card_id in _one_per_kind(player.hand) if firsts is None else firsts:
        if spent and KIND_BY_ID[card_id] in spent:
            continue
        if KIND_BY_ID[card_id] in _PLAIN:
            actions.append({"type": "play", "card": card_id})
            continue
        card = CARD_BY_ID[card_id]
        if not _PLAYABLE[card.kind] or (card.permanent and card.kind in owned):
            continue
        extras = _choices(card, opponent.hand, opponent.permanents)
        if card.scheme is None and card.cost == 0:
            # Nothing to pay (most cards): the one payment ``payments`` would yield is empty.
            actions += [{"type": "play", "card": card_id, **extra} for extra in extras]
            continue
        others = [c for c in player.hand if c != card_id]
        for pay, as_types in payments(card, others):
            base: dict[str, Any] = {"type": "play", "card": card_id}
            if pay:
                base["pay"] = list(pay)
            if as_types:
                base["as"] = as_types
            for extra in extras:
                actions.append({**base, **extra})
    return actions


def payments(card: Card, others: Sequence[str]) -> Iterator[tuple[list[str], dict[str, str]]]:
    """Distinct ways to pay ``card``'s cost from ``others``: discards or Scheme units."""
    if card.scheme is None:
        for pay in distinct_combinations(others, card.cost):
            yield list(pay), {}
        return
    scheme = card.scheme
    units = [c for c in others if c in _UNIT_IDS]
    for slots in (scheme.needs, (*scheme.needs, scheme.bonus)):
        if len(units) < len(slots):
            return  # each slot takes its own card: no assignment exists (the usual case)
        seen: set[tuple[tuple[str, str], ...]] = set()
        for picked in _assign(units, list(slots), []):
            key = tuple(sorted([(KIND_BY_ID[c], t) for c, t in picked]))
            if key in seen:
                continue
            seen.add(key)
            as_types = {c: t for c, t in picked if len(CARD_BY_ID[c].units) > 1}
            yield [c for c, _ in picked], as_types


def _assign(
    units: list[str], slots: list[str], picked: list[tuple[str, str]]
) -> Iterator[list[tuple[str, str]]]:
    """Every assignment of distinct unit cards to the ``slots`` unit types, in slot order."""
    if not slots:
        yield list(picked)
        return
    slot, rest = slots[0], slots[1:]
    used = {c for c, _ in picked}
    tried: set[str] = set()
    for card_id in units:
        card = CARD_BY_ID[card_id]
        kind = card.kind
        if card_id in used or kind in tried or slot not in card.units:
            continue
        tried.add(kind)
        yield from _assign(units, rest, [*picked, (card_id, slot)])


def _choices(card: Card, their_hand: Sequence[str], their_permanents: Sequence[str]) -> list[Any]:
    """The extra fields a card needs: a unit type, a hand position, a permanent."""
    if card.effect == "priest":
        return [{"name": unit} for unit in UNIT_TYPES]
    if card.effect == "archer":
        return [{"target": i} for i in range(len(their_hand))] or [{}]
    if card.effect == "fire_arrows":
        return [{"target": p} for p in their_permanents]
    return [{}]


def distinct_combinations(cards: Sequence[str], size: int) -> list[tuple[str, ...]]:
    """Combinations of ``size`` cards, one per distinct multiset of kinds."""
    if size == 0:
        return [()]
    if size == 1:  # the first card of each kind in sorted order: the loop below, cheaper
        return [(card_id,) for card_id in _one_per_kind(sorted(cards))]
    out: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()
    for combo in combinations(sorted(cards), size):
        # Pairs (every cost above one in the deck) skip the general sort.
        if size == 2:
            key: tuple[str, ...] = _pair_kinds((combo[0], combo[1]))
        else:
            key = _kinds(combo)
        if key not in seen:
            seen.add(key)
            out.append(combo)
    return out


def _one_per_kind(cards: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for card_id in cards:
        kind = KIND_BY_ID[card_id]
        if kind not in seen:
            seen.add(kind)
            out.append(card_id)
    return out


def _pair_kinds(pair: tuple[str, str]) -> tuple[str, ...]:
    """``_kinds`` of two cards without a sort (each set-up listing builds thirty of these)."""
    first, second = KIND_BY_ID[pair[0]], KIND_BY_ID[pair[1]]
    return (first, second) if first <= second else (second, first)


def _kinds(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted([KIND_BY_ID[c] for c in cards]))
