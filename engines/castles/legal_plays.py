"""Listing the plays from hand in your own turn: units into a zone, Action cards by their
requirements and targets (the ``play`` part of ``legal.turn_actions``)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from engines.base import ActionError
from engines.castles.board import (
    ACTION_CLASS,
    KIND_HP,
    KIND_TYPE,
    castle_zone,
    is_soldier,
    middle_zone,
)
from engines.castles.playing import (
    EFFECTS,
    effect_target_refusal,
    home_archers,
    rally_met,
    requirement_refusal,
    rout_forbidden,
)
from engines.castles.state import Card, GameState

Action = dict[str, Any]
TARGETED_EFFECTS = frozenset({"repair", "medicine", "charge", "rout"})
# The card types each targeted Action card can take at all (Medicine: a Spy in its own Castle
# Zone counts as a Civilian); ``effect_target_refusal`` refuses every other type.
TARGET_TYPES = {
    "repair": ("building",),
    "medicine": ("soldier", "civilian", "special"),
    "charge": ("soldier",),
    "rout": ("soldier",),
}
# Action cards with no check beyond their requirements (Incendiarism: any zone 0..5).
UNCHECKED_EFFECTS = frozenset({"ambush", "plague", "lightning_storm", "incendiarism"})
PLAYS_KEYS = tuple(("plays", seat) for seat in range(4))  # GameState.parts keys, by seat
# Whose cards in play the choices of an Action card depend on, besides the card itself: its
# own side's (Arrow Rain's Archers, Rally's and Charge's Soldiers), the enemy's (Rout), or
# both sides' and their HP (Repair, Medicine). Resurrection depends on the discard.
OWN, ENEMY, BOTH = range(3)
EFFECT_FACTS = {
    "arrow_rain": OWN,
    "rally_forces": OWN,
    "charge": OWN,
    "rout": ENEMY,
    "repair": BOTH,
    "medicine": BOTH,
}


def _accepted(check: Callable[..., object], *args: Any) -> bool:
    """Whether the checking code (the same ``apply`` runs) accepts these arguments; kept for
    Resurrection's few pairs, a rare card whose check has no separate predicate."""
    try:
        check(*args)
    except ActionError:
        return False
    return True


def plays(
    state: GameState, seat: int, side: int, board: list[Card], mine: list[Card]
) -> list[Action]:
    """Every card of the hand (the first copy of each kind: identical cards give identical
    choices), in hand order: units into the Castle or Middle Zone, Action cards as their
    requirements and targets allow."""
    hand = state.hands[seat]
    key = PLAYS_KEYS[seat]
    kept = state.parts.get(key)  # the hand's choices, rebuilt when its ids differ
    if kept is None or kept[0] != hand:
        kept = state.parts[key] = (list(hand), *_hand_choices(state, side, hand))
    fixed: list[Action] | None = kept[2]
    if fixed is not None:
        return fixed  # units only: nothing but the hand decides (never changed: extended from)
    out: list[Action] = []
    # By action class (the requirements read nothing else): the side's Wizard, General and
    # Soldiers in play and their zones, so kept while none of its cards entered, left or moved.
    own_mark = state.placed[side]
    kept_refusals = state.targets[side].get("requirements")
    if kept_refusals is None or kept_refusals[0] != own_mark:
        kept_refusals = state.targets[side]["requirements"] = (own_mark, {})
    refusals: dict[str, str | None] = kept_refusals[1]
    for card, choices in kept[1]:
        if card is None:
            out += choices
            continue
        action_class = ACTION_CLASS[card.kind]
        if action_class not in refusals:
            refusals[action_class] = requirement_refusal(state, side, card)
        if refusals[action_class] is not None:
            continue
        if choices is None:
            facts = EFFECT_FACTS.get(card.kind)
            if facts is None:  # Resurrection: kept by the discard (``_effect_choices``)
                choices = _effect_choices(state, side, card, board, mine)
            else:  # kept while the cards it may take stand as they were (``GameState.placed``)
                placed = state.placed
                mark: Any
                if facts == OWN:
                    mark = placed[side]
                elif facts == ENEMY:
                    mark = placed[1 - side]
                else:
                    mark = (placed[0], placed[1], state.wounds)
                kept_effects = state.targets[side]
                found = kept_effects.get(card.id)
                if found is None or found[0] != mark:
                    found = kept_effects[card.id] = (
                        mark,
                        _effect_choices(state, side, card, board, mine),
                    )
                choices = found[1]
        out += choices
    return out


def _hand_choices(
    state: GameState, side: int, hand: list[int]
) -> tuple[list[tuple[Card | None, list[Action] | None]], list[Action] | None]:
    """A hand's choices as far as the hand alone decides them: ``(card, choices)`` in hand
    order, ``card`` None for a unit's two plays, ``choices`` None for an Action card whose
    choices depend on the board (and every Action card waits for its requirements); and the
    whole list when the hand holds units only."""
    cards = state.cards
    home, middle = castle_zone(side), middle_zone(side)
    parts: list[tuple[Card | None, list[Action] | None]] = []
    seen: set[str] = set()
    units_only = True
    for card_id in hand:
        card = cards[card_id]
        kind = card.kind
        if kind in seen:
            continue
        seen.add(kind)
        kind_type = KIND_TYPE[kind]
        if kind_type == "soldier" or kind_type == "civilian":
            parts.append(
                (
                    None,
                    [
                        {"type": "play", "card": card_id, "zone": home},
                        {"type": "play", "card": card_id, "zone": middle},
                    ],
                )
            )
        elif kind_type == "action" and kind in EFFECTS:
            units_only = False
            base: Action = {"type": "play", "card": card_id}
            if kind == "incendiarism":
                parts.append((card, [{**base, "zone": z} for z in range(6)]))  # any zone 0..5
            elif kind in UNCHECKED_EFFECTS:
                parts.append((card, [base]))
            else:
                parts.append((card, None))
    if not units_only:
        return parts, None
    return parts, [action for _card, choices in parts for action in choices or ()]


def _effect_choices(
    state: GameState, side: int, card: Card, board: list[Card], mine: list[Card]
) -> list[Action]:
    """The choices of an Action card whose requirements are met, where the board decides
    (``mine``: the side's own cards in ``board``, in the same order)."""
    kind = card.kind
    if kind in TARGETED_EFFECTS:
        # Cheap first cuts, each a refusal the predicate would give anyway: the card type, full
        # HP for Repair and Medicine (most cards), Rout under the enemy General or Watchtower
        # (which forbid it whatever the target). The refusal predicate decides the rest.
        if kind == "rout" and rout_forbidden(state, side):
            return []
        types = TARGET_TYPES[kind]
        mends = kind == "repair" or kind == "medicine"
        out: list[Action] = []
        for t in mine if kind == "charge" else board:  # Charge takes your own Soldiers only
            if KIND_TYPE[t.kind] not in types or (mends and t.hp >= KIND_HP[t.kind]):
                continue
            if effect_target_refusal(state, side, kind, t) is None:
                out.append({"type": "play", "card": card.id, "target": t.id})
        return out
    base: Action = {"type": "play", "card": card.id}
    if kind == "arrow_rain":
        return [base] if home_archers(state, side) else []
    if kind == "rally_forces":
        soldiers = [c for c in mine if KIND_TYPE[c.kind] == "soldier"]
        return [base] if rally_met(side, soldiers) else []
    # Resurrection: a few pairs, tried through its own check; they depend on the discard only.
    key = ("resurrection", card.id, side)
    kept = state.parts.get(key)
    if kept is None or kept[0] != state.discard:
        options = [{**base, "targets": pair} for pair in fallen_pairs(state)]
        accepted = [a for a in options if _accepted(EFFECTS[kind], state, side, a)]
        kept = state.parts[key] = (list(state.discard), accepted)
    choices: list[Action] = kept[1]
    return choices


def fallen_pairs(state: GameState) -> list[list[int]]:
    """Resurrection choices, one per pair of kinds (same-kind Soldiers are interchangeable)."""
    fallen = [i for i in state.discard if is_soldier(state.cards[i])]
    pairs: dict[tuple[str, ...], list[int]] = {}
    for pair in combinations(fallen, min(2, len(fallen))):
        pairs.setdefault(tuple(sorted(state.cards[i].kind for i in pair)), list(pair))
    return list(pairs.values())
