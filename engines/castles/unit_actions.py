"""Each card's Action in play: attacks, healing, building, the Spy's look, the Assassin's kill."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import ALL, Event, IllegalAction, make_event
from engines.castles.board import (
    castle_zone,
    enemy,
    is_special,
    mend_refusal,
    middle_zone,
    seats_of,
    side_of,
    spec,
)
from engines.castles.combat import SHOOTERS, attack_damage, damage, destroy, heal, target_refusal
from engines.castles.playing import card_field, enter_play, field_int, in_play_target
from engines.castles.state import HAND, PLAY, Card, GameState, readied

CODE = "castles/"
Runner = Callable[[], list[Event]]
ACTORS = SHOOTERS | {"mason", "medic", "builder", "spy", "assassin"}


def own_ready_card(state: GameState, seat: int, action: dict[str, Any]) -> Card:
    """The acting card: yours, in play, with an Action left (castles/already_acted if not:
    it acted this turn or came into play this turn)."""
    card = card_field(state, action, "card")
    if card.place != PLAY or card.side != side_of(seat):
        raise IllegalAction(CODE + "not_your_card", "that card is not yours in play")
    if card.kind not in ACTORS:
        raise IllegalAction(CODE + "no_action", "that card has no Action")
    if card.acts < 1:
        raise IllegalAction(CODE + "already_acted", "no Action left this turn for that card")
    return card


def use_action(state: GameState, seat: int, action: dict[str, Any]) -> list[Event]:
    """Use a card's Action: ``{"type": "act", "card": id, ...}`` with ``target`` (attacks,
    healing, Assassin), ``build`` (Builder: a Building from hand) or ``seat`` (Spy).

    Raises castles/not_your_card, castles/no_action, castles/already_acted, castles/bad_target,
    castles/out_of_range, castles/blocked (a Wall), castles/full_hp, castles/bad_zone,
    castles/not_in_hand, castles/spy_not_inside, castles/nothing_to_reveal.
    """
    card = own_ready_card(state, seat, action)
    run = check_action(state, seat, card, action)
    card.acts -= 1
    readied(state, card)
    return run()


def check_action(state: GameState, seat: int, card: Card, action: dict[str, Any]) -> Runner:
    """Validate ``card``'s Action and return the closure that performs it."""
    if card.kind == "builder":
        return _build(state, seat, card, action)
    if card.kind == "spy":
        return _spy(state, seat, card, action)
    target = in_play_target(state, action)
    if card.kind in SHOOTERS:
        refusal = target_refusal(state, card, target)
        if refusal:
            raise IllegalAction(CODE + refusal, "that card cannot hit that target")
        amount = attack_damage(state, card, target)

        def shoot() -> list[Event]:
            events = [{"type": "attacked", "card": card.id, "target": target.id, "visible_to": ALL}]
            damage(state, target, amount, card.kind, events)
            return events

        return shoot
    refusal = close_refusal(card, target)
    if refusal:
        raise IllegalAction(
            CODE + refusal, CLOSE_TEXT.get(card.kind, "that card cannot act on that")
        )
    if card.kind == "assassin":

        def kill() -> list[Event]:
            events = [make_event("attacked", card=card.id, target=target.id)]
            destroy(state, target, events)
            return events

        return kill

    def mend() -> list[Event]:
        events: list[Event] = []
        heal(state, target, spec(card).heal, card.kind, events)
        return events

    return mend


CLOSE_TEXT = {
    "assassin": "the Assassin kills enemy Special cards in its zone",
    "mason": "the Mason repairs a damaged Building in its zone",
    "medic": "the Medic heals a wounded Civilian or Soldier in its zone",
}


def close_refusal(card: Card, target: Card) -> str | None:
    """Why the Assassin, Mason or Medic ``card`` may not act on ``target`` in play: out_of_range
    (another zone), bad_target or full_hp, in that order; the check and the legal listing share
    it."""
    if target.zone != card.zone:
        return "out_of_range"
    if card.kind == "assassin":
        return None if target.side != card.side and is_special(target) else "bad_target"
    return mend_refusal(target, buildings=card.kind == "mason")


def building_zone_refusal(card: Card, side: int, zone: int) -> str | None:
    """Wall goes to your Middle Zone, Armoury and Watchtower to your Castle Zone."""
    placement = spec(card).placement
    if placement == "middle" and zone != middle_zone(side):
        return "bad_zone"
    if placement == "castle" and zone != castle_zone(side):
        return "bad_zone"
    return None


def _build(state: GameState, seat: int, builder: Card, action: dict[str, Any]) -> Runner:
    building = card_field(state, action, "build")
    if building.place != HAND or building.holder != seat:
        raise IllegalAction(CODE + "not_in_hand", "that Building is not in your hand")
    if spec(building).type != "building":
        raise IllegalAction(CODE + "bad_target", "a Builder plays Buildings only")
    refusal = building_zone_refusal(building, builder.side, builder.zone)
    if refusal:
        raise IllegalAction(CODE + refusal, "that Building cannot go into this zone")

    def build() -> list[Event]:
        state.hands[seat].remove(building.id)
        enter_play(state, building, builder.side, builder.zone)
        return [
            make_event(
                "played", seat=seat, card=building.id, card_kind=building.kind, zone=builder.zone
            )
        ]

    return build


def unseen_cards(state: GameState, side: int, victim: int) -> list[int]:
    """The cards of ``victim``'s hand that ``side``'s Spy has not shown it yet."""
    return [i for i in state.hands[victim] if side not in state.cards[i].seen_by]


def _spy(state: GameState, seat: int, spy: Card, action: dict[str, Any]) -> Runner:
    side = spy.side
    if spy.zone != castle_zone(enemy(side)):
        raise IllegalAction(CODE + "spy_not_inside", "the Spy looks only from the enemy Castle")
    victims = seats_of(state, enemy(side))
    victim = field_int(action, "seat") if "seat" in action or len(victims) > 1 else victims[0]
    if victim not in victims:
        raise IllegalAction(CODE + "bad_target", "name an opponent's seat")
    unseen = unseen_cards(state, side, victim)
    if not unseen:
        raise IllegalAction(CODE + "nothing_to_reveal", "you have seen every card of that hand")

    def reveal() -> list[Event]:
        shown: list[int] = []
        for _ in range(min(2, len(unseen))):
            pick = unseen.pop(state.rng.randbelow(len(unseen)))
            state.cards[pick].seen_by = sorted({*state.cards[pick].seen_by, side})
            state.reveals += 1
            shown.append(pick)
        cards = [{"id": i, "kind": state.cards[i].kind} for i in sorted(shown)]
        watchers = [*seats_of(state, side), victim]
        return [
            make_event(
                "revealed",
                visible_to=watchers,
                redacted={"spy": spy.id, "seat": victim, "count": len(cards)},
                spy=spy.id,
                seat=victim,
                cards=cards,
            )
        ]

    return reveal
