"""Listing legal actions: every play, move and Action the checking code would accept."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from engines.base import ActionError
from engines.castles.board import (
    castle_zone,
    enemy,
    is_soldier,
    middle_zone,
    seats_of,
    side_of,
    spec,
)
from engines.castles.combat import SHOOTERS, target_refusal
from engines.castles.movement import plan_move
from engines.castles.playing import EFFECTS, check_requirements
from engines.castles.state import PLAY, Card, GameState
from engines.castles.unit_actions import building_zone_refusal, check_action

Action = dict[str, Any]
END_TURN: Action = {"type": "end_turn"}
RESIGN: Action = {"type": "resign"}


def _accepted(check: Callable[..., object], *args: Any) -> bool:
    """Whether the checking code (the same ``apply`` runs) accepts these arguments."""
    try:
        check(*args)
    except ActionError:
        return False
    return True


def turn_actions(state: GameState, seat: int) -> list[Action]:
    """The active seat's choices: end the turn first (the time-out default), resign last."""
    side = side_of(seat)
    mine = [c for c in state.cards if c.place == PLAY and c.side == side]
    board = [c for c in state.cards if c.place == PLAY]
    actions: list[Action] = [END_TURN]
    actions.extend(_plays(state, seat, side, board))
    for card in mine:
        if card.moves > 0:
            actions.extend(_moves(state, card, mine))
    for card in mine:
        if card.acts > 0:
            actions.extend(_acts(state, seat, card, board))
    actions.append(RESIGN)
    return actions


def _plays(state: GameState, seat: int, side: int, board: list[Card]) -> list[Action]:
    out: list[Action] = []
    seen: set[str] = set()
    for card_id in state.hands[seat]:
        card = state.cards[card_id]
        kind = spec(card)
        if card.kind in seen:
            continue  # identical cards give identical choices: list the first copy only
        seen.add(card.kind)
        if kind.type in ("soldier", "civilian"):
            for zone in (castle_zone(side), middle_zone(side)):
                out.append({"type": "play", "card": card_id, "zone": zone})
        elif (
            kind.type == "action"
            and card.kind in EFFECTS
            and _accepted(check_requirements, state, side, card)
        ):
            out.extend(_effect_choices(state, side, card, board))
    return out


def _effect_choices(state: GameState, side: int, card: Card, board: list[Card]) -> list[Action]:
    base: Action = {"type": "play", "card": card.id}
    if card.kind in ("repair", "medicine", "charge", "rout"):
        options = [{**base, "target": t.id} for t in board]
    elif card.kind == "incendiarism":
        options = [{**base, "zone": z} for z in range(6)]
    elif card.kind == "resurrection":
        options = [{**base, "targets": pair} for pair in _fallen_pairs(state)]
    else:
        options = [dict(base)]
    effect = EFFECTS[card.kind]
    return [a for a in options if _accepted(effect, state, side, a)]


def _fallen_pairs(state: GameState) -> list[list[int]]:
    """Resurrection choices, one per pair of kinds (same-kind Soldiers are interchangeable)."""
    fallen = [i for i in state.discard if is_soldier(state.cards[i])]
    pairs: dict[tuple[str, ...], list[int]] = {}
    for pair in combinations(fallen, min(2, len(fallen))):
        pairs.setdefault(tuple(sorted(state.cards[i].kind for i in pair)), list(pair))
    return list(pairs.values())


def _moves(state: GameState, card: Card, mine: list[Card]) -> list[Action]:
    out: list[Action] = []
    kind = spec(card)
    if kind.type == "building":
        if kind.carriers == 0:
            return out
        able = [
            c
            for c in mine
            if c.zone == card.zone and c.moves > 0 and spec(c).type in ("soldier", "civilian")
        ]
        for to in (card.zone - 1, card.zone + 1):
            for group in combinations(able, kind.carriers):
                if _accepted(plan_move, state, card, to, list(group)):
                    out.append(
                        {"type": "move", "card": card.id, "to": to, "with": [c.id for c in group]}
                    )
        return out
    reach = 2 if kind.move > 1 or kind.type == "soldier" else 1  # General, Charge: 2
    for to in range(max(0, card.zone - reach), min(5, card.zone + reach) + 1):
        if to != card.zone and _accepted(plan_move, state, card, to, []):
            out.append({"type": "move", "card": card.id, "to": to})
    return out


def _acts(state: GameState, seat: int, card: Card, board: list[Card]) -> list[Action]:
    base: Action = {"type": "act", "card": card.id}
    if card.kind in SHOOTERS:
        return [{**base, "target": t.id} for t in board if target_refusal(state, card, t) is None]
    if card.kind == "builder":
        out = []
        for card_id in state.hands[seat]:
            building = state.cards[card_id]
            if (
                spec(building).type == "building"
                and building_zone_refusal(building, card.side, card.zone) is None
            ):
                out.append({**base, "build": card_id})
        return out
    if card.kind == "spy":
        options = [{**base, "seat": s} for s in seats_of(state, enemy(card.side))]
    elif card.kind in ("assassin", "mason", "medic"):
        options = [{**base, "target": t.id} for t in board if t.zone == card.zone]
    else:
        return []
    return [a for a in options if _accepted(check_action, state, seat, card, a)]


def window_actions(state: GameState, seat: int) -> list[Action]:
    """A responder's choices: pass first (the time-out default), then Traps and strikes."""
    window = state.window
    if window is None or seat not in window.responders:
        return []
    actions: list[Action] = [{"type": "pass"}]
    if window.trap_targets and not state.prompts_off[seat]:
        actions.append({"type": "trap_prompts_off"})
        traps = [i for i in state.hands[seat] if state.cards[i].kind == "trap"]
        if traps:
            actions.extend(
                {"type": "trap", "card": traps[0], "target": t} for t in window.trap_targets
            )
    side = side_of(seat)
    for card in state.cards:
        if (
            card.place == PLAY
            and card.side == side
            and is_soldier(card)
            and (card.id not in window.struck)
        ):
            actions.extend(
                {"type": "strike", "card": card.id, "target": t} for t in window.strike_targets
            )
    actions.append(RESIGN)
    return actions
