"""Damage and healing: who may hit what, how much (bonuses, terrain), and what dies."""

from __future__ import annotations

from engines.base import ALL, Event
from engines.castles.board import (
    depth,
    enemy,
    has_in_play,
    is_building,
    is_civilian,
    is_soldier,
    is_special,
    middle_zone,
    side_of,
    spec,
    terrain,
)
from engines.castles.state import DISCARD, Card, GameState, board_changed, edited, hurt

SHOOTERS = frozenset({"spearman", "archer", "wizard", "catapult", "cannon"})


def in_boat(state: GameState, card: Card) -> bool:
    """Lake terrain: Soldiers and Civilians in a Lake zone are in boats."""
    return terrain(state, card.zone) == "lake" and (is_soldier(card) or is_civilian(card))


def archer_reach(state: GameState, archer: Card) -> tuple[int, bool]:
    """An Archer's range and whether it may shoot into the enemy Castle Zone (Hills rules)."""
    if terrain(state, archer.zone) in ("hills", "high_hills"):
        return 2, True
    return spec(archer).range, False


def wall_blocks(state: GameState, attacker: Card, target: Card) -> bool:
    """A Wall stops enemy ranged attacks from its Front side into its Middle and Castle Zones."""
    defender = enemy(attacker.side)
    if target.kind == "wall" or not has_in_play(state, defender, "wall", middle_zone(defender)):
        return False
    return depth(defender, target.zone) <= 1 and depth(defender, attacker.zone) >= 2


def target_refusal(state: GameState, attacker: Card, target: Card) -> str | None:
    """Why ``attacker``'s Action may not hit ``target`` (a code suffix), or None if it may."""
    kind = attacker.kind
    distance = abs(attacker.zone - target.zone)
    if kind == "wizard":
        return "bad_target" if is_special(target) else None
    if target.side == attacker.side:
        return "bad_target"
    if kind == "spearman" or kind == "archer":
        # Castle Zones spelled out (0 Red, 5 Blue): listings ask this for every target in reach.
        own_castle, foe_castle = (0, 5) if attacker.side == 0 else (5, 0)
        if target.kind == "spy" and target.zone == own_castle:
            return "bad_target"  # Spy: untouchable by Soldiers in its opponent's Castle Zone
        if kind == "spearman":
            return None if distance == 0 else "out_of_range"
        reach, into_castle = archer_reach(state, attacker)
        if distance > reach:
            return "out_of_range"
        if target.zone == foe_castle and not into_castle:
            return "out_of_range"
    elif kind == "catapult" or kind == "cannon":
        if not 1 <= distance <= spec(attacker).range:
            return "out_of_range"
        if kind == "catapult" and not is_building(target):
            return "bad_target"
        if kind == "cannon" and target.kind not in ("wall", "castle"):
            return "bad_target"
    else:
        return "bad_target"
    return "blocked" if distance > 0 and wall_blocks(state, attacker, target) else None


def attack_damage(state: GameState, attacker: Card, target: Card) -> int:
    """The damage ``attacker`` deals ``target``: printed value, bonuses, terrain, Ambush."""
    amount = spec(attacker).damage
    if not is_soldier(attacker):
        return amount
    if has_in_play(state, attacker.side, "armoury"):
        amount += 1
    if attacker.charged:
        amount += 1
    soft_target = is_soldier(target) or is_civilian(target)
    if attacker.kind == "archer":
        if terrain(state, attacker.zone) == "high_hills":
            amount += 1
        if soft_target and terrain(state, target.zone) == "forest":
            amount -= 1
    if in_boat(state, attacker):
        amount -= 1
    elif in_boat(state, target):
        amount += 1  # boats take +1 from Soldiers on the bank
    amount = max(0, amount)
    ambushing = (
        state.ambush
        and attacker.side == side_of(state.active)
        and terrain(state, attacker.zone) != "marsh"
    )
    if ambushing and soft_target and target.side != attacker.side:
        amount *= 2
    return amount


def damage(state: GameState, target: Card, amount: int, source: str, events: list[Event]) -> None:
    """Take ``amount`` HP from ``target``; at 0 it is discarded (a Castle ends the game)."""
    if amount <= 0 or target.place != "play":
        return
    target.hp = max(0, target.hp - amount)
    hurt(state, target)
    # Literal events (as ``make_event`` builds them, "visible_to" last): the hottest ones skip
    # its keyword packing.
    events.append(
        {
            "type": "damaged",
            "card": target.id,
            "amount": amount,
            "hp": target.hp,
            "by": source,
            "visible_to": ALL,
        }
    )
    if target.hp == 0:
        destroy(state, target, events)


def destroy(state: GameState, card: Card, events: list[Event]) -> None:
    """Discard a card in play. Colour cards never come back: Resurrection takes only Soldiers."""
    events.append(
        {
            "type": "destroyed",
            "card": card.id,
            "card_kind": card.kind,
            "side": card.side,
            "visible_to": ALL,
        }
    )
    was_side = card.side
    edited(state, card)
    card.place, card.zone, card.hp = DISCARD, -1, 0
    board_changed(state, card)
    card.moves = card.acts = 0
    card.charged = False
    if spec(card).count:
        card.side = -1  # a shared card belongs to whoever plays it next; colour cards keep theirs
    state.discard.append(card.id)
    if state.window is not None:
        for ids in (state.window.trap_targets, state.window.strike_targets):
            if card.id in ids:
                ids.remove(card.id)
    if card.kind == "castle" and state.winner_side is None:
        state.winner_side = enemy(was_side)
        state.end_reason = "castle_destroyed"


def heal(state: GameState, target: Card, amount: int, source: str, events: list[Event]) -> None:
    """Give HP, never above the printed value (house rule: damage stays within 0..1)."""
    gained = min(amount, spec(target).hp - target.hp)
    if gained > 0:
        target.hp += gained
        hurt(state, target)
        events.append(
            {
                "type": "healed",
                "card": target.id,
                "amount": gained,
                "hp": target.hp,
                "by": source,
                "visible_to": ALL,
            }
        )


def hit_all(state: GameState, cards: list[Card], amount: int, source: str) -> list[Event]:
    """Area damage (Incendiarism, Plague, Lightning Storm): everyone hit at once."""
    events: list[Event] = []
    for card in cards:
        damage(state, card, amount, source, events)
    return events
