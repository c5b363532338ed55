"""Playing a card from hand: costs first (discards, Scheme units), then the card's effect."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from engines.base import Event, IllegalAction, InvalidAction, make_event
from engines.rampage.attack import attack_bonus, first_target, random_cards, resolve_attack
from engines.rampage.cards import UNIT_TYPES, Card, card_of
from engines.rampage.state import OVER, RampageState
from engines.rampage.turns import (
    check_castles,
    destroy_top,
    discard_from_hand,
    draw_cards,
    outer_structure,
    refill_draw_pile,
    require_turn,
)

GAME = "rampage"
TARGETED = frozenset({"archer", "fire_arrows"})


def scheme_fits(card: Card, pay: Sequence[str], as_types: Mapping[str, str]) -> tuple[bool, bool]:
    """Whether ``pay`` (with ``as`` choices) covers ``card``'s Scheme; second: bonus paid.

    Each discarded unit counts as exactly one of its symbols (rulebook: Giant, Mercenary).
    """
    scheme = card.scheme
    assert scheme is not None
    for slots, bonus in ((scheme.needs, False), ((*scheme.needs, scheme.bonus), True)):
        if len(pay) != len(slots):
            continue
        options = []
        for card_id in pay:
            units = card_of(card_id).units
            chosen = as_types.get(card_id)
            options.append(units if chosen is None else (chosen,) if chosen in units else ())
        for order in permutations(slots):
            if all(slot in opts for slot, opts in zip(order, options, strict=True)):
                return True, bonus
    return False, False


def validate_play(state: RampageState, seat: int, action: Mapping[str, Any]) -> None:
    """Refuse a card that may not be played as given.

    InvalidAction rampage/bad_as, rampage/bad_name for malformed fields.
    IllegalAction rampage/not_your_turn, rampage/not_in_hand, rampage/not_playable (purple
    cards only defend), rampage/once_per_turn (a second Veteran this turn, house rule 8),
    rampage/permanent_in_play (one of each permanent per player, house rule), rampage/cost
    (wrong discards or Scheme units), rampage/bad_target (a target this card does not take),
    rampage/no_target.
    """
    # The envelope (``engine.ACTIONS``) checked the types: card a string, pay strings, as an
    # object.
    card_id, pay, as_types = action["card"], action.get("pay", []), action.get("as", {})
    if not all(isinstance(k, str) and v in UNIT_TYPES for k, v in as_types.items()):
        raise InvalidAction(f"{GAME}/bad_as", "as maps card ids to knight/archer/warrior")
    require_turn(state, seat)
    player = state.players[seat]
    opponent = state.players[1 - seat]
    if card_id not in player.hand:
        raise IllegalAction(f"{GAME}/not_in_hand", "that card is not in your hand")
    card = card_of(card_id)
    if not card.playable:
        raise IllegalAction(f"{GAME}/not_playable", "purple cards can only defend")
    if card.effect == "veteran" and state.veteran_played:
        raise IllegalAction(
            f"{GAME}/once_per_turn", "one Veteran a turn: a Veteran back in hand attacks next turn"
        )
    if card.permanent and any(card_of(p).kind == card.kind for p in player.permanents):
        raise IllegalAction(f"{GAME}/permanent_in_play", f"you already have a {card.name}")
    if len(set(pay)) != len(pay) or card_id in pay or not all(c in player.hand for c in pay):
        raise IllegalAction(f"{GAME}/cost", "pay with other, distinct cards from your hand")
    if card.scheme is not None:
        if not scheme_fits(card, pay, as_types)[0]:
            raise IllegalAction(f"{GAME}/cost", "discard exactly the units this Scheme shows")
    elif len(pay) != card.cost or as_types:
        raise IllegalAction(f"{GAME}/cost", f"{card.name} costs {card.cost} discards")
    if card.effect == "priest" and action.get("name") not in UNIT_TYPES:
        raise InvalidAction(f"{GAME}/bad_name", "name a unit type: knight, archer or warrior")
    if card.effect != "priest" and "name" in action:
        raise InvalidAction(f"{GAME}/bad_name", f"{card.name} names nothing")
    target = action.get("target")
    if card.effect == "archer":
        if opponent.hand:
            if isinstance(target, bool) or not isinstance(target, int):
                raise IllegalAction(f"{GAME}/bad_target", "target is a position in their hand")
            if not 0 <= target < len(opponent.hand):
                raise IllegalAction(f"{GAME}/no_target", "no card at that hand position")
        elif target is not None:
            raise IllegalAction(f"{GAME}/no_target", "your opponent's hand is empty")
    if card.effect == "fire_arrows":
        if not opponent.permanents:
            raise IllegalAction(f"{GAME}/no_target", "your opponent has no permanent card")
        if not isinstance(target, str):
            raise IllegalAction(f"{GAME}/bad_target", "target is a permanent card id")
        if target not in opponent.permanents:
            raise IllegalAction(f"{GAME}/no_target", "target one of your opponent's permanents")
    elif card.effect not in TARGETED and target is not None:
        raise IllegalAction(f"{GAME}/bad_target", f"{card.name} takes no target")


def apply_play(state: RampageState, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """Pay, show the card, execute its effect, then discard it (permanents stay in play)."""
    player = state.players[seat]
    card_id = str(action["card"])
    card = card_of(card_id)
    pay = [str(c) for c in action.get("pay", [])]
    as_types = {str(k): str(v) for k, v in action.get("as", {}).items()}
    player.hand.remove(card_id)
    if card.effect == "veteran":
        state.veteran_played = True
    events: list[Event] = []
    if pay:
        events.append(discard_from_hand(state, seat, pay, "cost"))
    played = make_event("played", seat=seat, card=card_id, pay=pay)
    if as_types:
        played["as"] = as_types
    events.append(played)
    if card.permanent:
        player.permanents.append(card_id)
        return events
    if card.attack is not None:
        return events + _attack_card(state, seat, action, card_id, pay, as_types)
    events.extend(_effect(state, seat, action, card_id))
    state.discard.append(card_id)
    return events


def _attack_card(
    state: RampageState,
    seat: int,
    action: Mapping[str, Any],
    card_id: str,
    pay: list[str],
    as_types: dict[str, str],
) -> list[Event]:
    """An attacking card: its pre-attack effect, strength with modifiers, the attack, after."""
    card = card_of(card_id)
    assert card.attack is not None
    events: list[Event] = []
    strength = card.attack
    if card.effect == "archer":
        events.extend(_archer_shot(state, seat, action.get("target")))
    if card.effect == "jester":
        own = state.players[seat].castle
        if own:
            strength = 2 * card_of(own[0]).castle
        events.extend(destroy_top(state, seat, "castle", "jester"))
        events.extend(check_castles(state))
        if state.phase == OVER:
            state.discard.append(card_id)
            return events
    if card.scheme is not None and scheme_fits(card, pay, as_types)[1]:
        strength += card.scheme.bonus_strength
    starts_at = first_target(state, seat, card_id)
    if card.effect == "castle_bonus" and starts_at == "castle":
        strength += card.amount
    if card.effect == "gate_bonus" and starts_at == "gate":
        strength += card.amount
    strength += attack_bonus(state, seat)
    events.extend(resolve_attack(state, seat, card_id, strength))
    if card.effect == "draw" and state.phase != OVER:
        events.extend(draw_cards(state, seat, card.amount, card.kind))
    return events


def _archer_shot(state: RampageState, seat: int, target: Any) -> list[Event]:
    """Archer: the opponent discards the face-down hand card at position ``target``."""
    hand = state.players[1 - seat].hand
    if target is None or not hand:
        return []
    victim = hand[int(target)]
    return [discard_from_hand(state, 1 - seat, [victim], "archer")]


def _effect(state: RampageState, seat: int, action: Mapping[str, Any], card_id: str) -> list[Event]:
    """The effect of a card without an attack value."""
    card = card_of(card_id)
    opponent = 1 - seat
    effect = card.effect
    if effect == "draw":
        return draw_cards(state, seat, card.amount, card.kind)
    if effect == "priest":
        name = str(action["name"])
        hand = state.players[opponent].hand
        victims = [c for c in hand if name in card_of(c).units]
        event = discard_from_hand(state, opponent, victims, "priest")
        event["named"] = name
        return [event]
    if effect == "fire_arrows":
        return [_destroy_permanent(state, opponent, str(action["target"]), "fire_arrows")]
    if effect == "earthquake":
        return [
            _destroy_permanent(state, owner, permanent, "earthquake")
            for owner in (seat, opponent)
            for permanent in list(state.players[owner].permanents)
        ]
    if effect == "bricklayer":
        return _bricklayer(state, seat)
    if effect == "sapper":
        events = destroy_top(state, opponent, outer_structure(state, opponent), "sapper")
        return events + check_castles(state)
    if effect == "summoner":
        events = destroy_top(state, opponent, "castle", "summoner")
        events += destroy_top(state, seat, "castle", "summoner")
        return events + check_castles(state)
    if effect == "thief":
        return _steal(state, seat)
    raise AssertionError(f"no rule for effect {effect!r}")  # the loader forbids this


def _destroy_permanent(state: RampageState, owner: int, card_id: str, cause: str) -> Event:
    state.players[owner].permanents.remove(card_id)
    state.discard.append(card_id)
    return make_event("permanent_destroyed", seat=owner, card=card_id, cause=cause)


def _bricklayer(state: RampageState, seat: int) -> list[Event]:
    """The top card of the draw pile goes under the Castle unseen (refilled if empty)."""
    events: list[Event] = []
    if not state.draw:
        events.extend(refill_draw_pile(state))
    if not state.draw:
        return events
    player = state.players[seat]
    player.castle.append(state.draw.pop(0))
    player.placed += 1
    return [*events, make_event("bricklayer", seat=seat, to="castle")]


def _steal(state: RampageState, seat: int) -> list[Event]:
    """Thief: a random card of the opponent's hand moves to the thief's hand."""
    opponent = 1 - seat
    taken = random_cards(state, opponent, 1)
    for card_id in taken:
        state.players[opponent].hand.remove(card_id)
        state.players[seat].hand.append(card_id)
    return [
        make_event(
            "stolen",
            visible_to=[seat, opponent],
            redacted={"seat": seat, "victim": opponent, "count": len(taken)},
            seat=seat,
            victim=opponent,
            cards=taken,
            count=len(taken),
        )
    ]
