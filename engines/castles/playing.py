"""Playing cards from hand in your own turn: Soldiers and Civilians, and every Action card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import Event, IllegalAction, InvalidAction, make_event
from engines.castles.board import (
    ACTION_CLASS,
    KIND_TYPE,
    castle_zone,
    depth,
    enemy,
    front_zone,
    has_forward_soldier,
    has_in_play,
    in_play,
    is_civilian,
    is_soldier,
    is_unit,
    mend_refusal,
    middle_zone,
    side_of,
    spec,
)
from engines.castles.cards import CARDS
from engines.castles.combat import heal, hit_all
from engines.castles.state import (
    DISCARD,
    HAND,
    PLAY,
    Card,
    GameState,
    board_changed,
    edited,
    readied,
)

CODE = "castles/"
BURN = CARDS["incendiarism"].damage
STORM = CARDS["lightning_storm"].damage


def field_int(action: dict[str, Any], name: str) -> int:
    """An integer field of an action; raises ``InvalidAction`` castles/bad_field otherwise."""
    value = action.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(CODE + "bad_field", f"{name} must be an integer")
    return value


def card_field(state: GameState, action: dict[str, Any], name: str) -> Card:
    """The card an action names; raises ``InvalidAction`` castles/bad_field for unknown ids."""
    card_id = field_int(action, name)
    if not 0 <= card_id < len(state.cards):
        raise InvalidAction(CODE + "bad_field", f"{name} names no card")
    return state.cards[card_id]


def in_play_target(state: GameState, action: dict[str, Any]) -> Card:
    """The ``target`` card, which must be in play (castles/bad_target otherwise)."""
    target = card_field(state, action, "target")
    if target.place != PLAY:
        raise IllegalAction(CODE + "bad_target", "the target is not in play")
    return target


def enter_play(state: GameState, card: Card, side: int, zone: int) -> None:
    """A card comes into play: full HP, and no move or Action until its side's next turn."""
    card.place, card.holder, card.side, card.zone = PLAY, -1, side, zone
    board_changed(state, card)
    card.hp = spec(card).hp
    card.moves = card.acts = 0
    card.charged = False
    card.seen_by = []
    edited(state, card)  # once its side is set: that side's count changes


REQUIREMENT_TEXT = {
    "instant_only": "Trap is played in the opponent's turn",
    "needs_wizard": "Spells need your Wizard in play",
    "needs_general": "Special Attacks need your General",
    "needs_forward_soldier": "Special Attacks need a Soldier out of your Castle",
}


def requirement_refusal(state: GameState, side: int, card: Card) -> str | None:
    """Why ``side`` may not play the Action ``card`` now (a code suffix of REQUIREMENT_TEXT)."""
    kind_class = ACTION_CLASS[card.kind]
    if kind_class == "instant":
        return "instant_only"
    if kind_class == "spell" and not has_in_play(state, side, "wizard"):
        return "needs_wizard"
    if kind_class == "attack":
        if not has_in_play(state, side, "general"):
            return "needs_general"
        if not has_forward_soldier(state, side):
            return "needs_forward_soldier"
    return None


def check_requirements(state: GameState, side: int, card: Card) -> None:
    """Spells need the Wizard; Special Attacks need the General and a forward Soldier.

    Raises ``IllegalAction`` castles/needs_wizard, castles/needs_general,
    castles/needs_forward_soldier, castles/instant_only (Trap is played in a response window).
    """
    refusal = requirement_refusal(state, side, card)
    if refusal:
        raise IllegalAction(CODE + refusal, REQUIREMENT_TEXT[refusal])


def effect_target_refusal(state: GameState, side: int, kind: str, target: Card) -> str | None:
    """Why the targeted Action ``kind`` (Repair, Medicine, Charge, Rout) may not take the card
    in play ``target``: bad_target, full_hp or rout_forbidden, checked in that order."""
    if kind == "repair" or kind == "medicine":
        return mend_refusal(target, buildings=kind == "repair")
    target_type = KIND_TYPE[target.kind]  # not is_soldier() & co.: listings ask this a lot
    if kind == "charge":
        mine = target.side == side and target_type == "soldier"
        return None if mine and state.terrain[target.zone] != "marsh" else "bad_target"
    foe = enemy(side)  # Rout
    if target.side != foe or target_type != "soldier" or depth(side, target.zone) > 2:
        return "bad_target"
    return "rout_forbidden" if rout_forbidden(state, side) else None


def rout_forbidden(state: GameState, side: int) -> bool:
    """The enemy General or Watchtower in play forbids ``side`` to play Rout."""
    foe = enemy(side)
    return has_in_play(state, foe, "general") or has_in_play(state, foe, "watchtower")


TARGET_TEXT = {
    "repair": "Repair needs a damaged Building",
    "medicine": "Medicine needs a wounded Civilian or Soldier",
    "charge": "Charge needs your Soldier, not on a Marsh",
    "rout": "Rout needs an enemy Soldier across the Front, and no enemy General or Watchtower",
}


def _effect_target(state: GameState, side: int, kind: str, action: dict[str, Any]) -> Card:
    """The target of a targeted Action card, checked (raises its ``effect_target_refusal``)."""
    target = in_play_target(state, action)
    refusal = effect_target_refusal(state, side, kind, target)
    if refusal:
        raise IllegalAction(CODE + refusal, TARGET_TEXT[kind])
    return target


Effect = Callable[[GameState, int, dict[str, Any]], Callable[[], list[Event]]]


def _repair(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    return _healing(state, _effect_target(state, side, "repair", action), "repair")


def _medicine(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    return _healing(state, _effect_target(state, side, "medicine", action), "medicine")


def _healing(state: GameState, target: Card, source: str) -> Callable[[], list[Event]]:
    def run() -> list[Event]:
        events: list[Event] = []
        heal(state, target, CARDS[source].heal, source, events)
        return events

    return run


def _charge(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    target = _effect_target(state, side, "charge", action)

    def run() -> list[Event]:
        target.charged = True
        readied(state, target)
        return []

    return run


def home_archers(state: GameState, side: int) -> list[Card]:
    """``side``'s Archers in its own Castle Zone: Arrow Rain needs one and readies them all."""
    return [  # by_kind keeps card order, as a scan of the cards in play would
        c
        for c in state.by_kind.get("archer", ())
        if c.place == PLAY and c.side == side and c.zone == castle_zone(side)
    ]


def _arrow_rain(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    archers = home_archers(state, side)
    if not archers:
        raise IllegalAction(CODE + "needs_archer", "Arrow Rain needs an Archer in your Castle Zone")

    def run() -> list[Event]:
        for archer in archers:
            archer.acts += 1  # one more 2-damage shot this turn, even if it just arrived
            readied(state, archer)
        return [make_event("volley", archers=[a.id for a in archers])]

    return run


def _rout(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    target = _effect_target(state, side, "rout", action)
    foe = enemy(side)

    def run() -> list[Event]:
        start, target.zone = target.zone, middle_zone(foe)
        edited(state, target)
        return [make_event("moved", card=target.id, start=start, to=target.zone)]

    return run


def rally_met(side: int, soldiers: list[Card]) -> bool:
    """Rally Forces needs ``side``'s Soldiers in its Castle, Middle and Front Zones."""
    zones = {c.zone for c in soldiers}
    return {castle_zone(side), middle_zone(side), front_zone(side)} <= zones


def _rally(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    soldiers = [c for c in in_play(state) if c.side == side and is_soldier(c)]
    if not rally_met(side, soldiers):
        raise IllegalAction(CODE + "rally_unmet", "needs Soldiers in your Castle, Middle, Front")

    def run() -> list[Event]:
        events: list[Event] = []
        for soldier in soldiers:
            if soldier.zone != middle_zone(side):
                start, soldier.zone = soldier.zone, middle_zone(side)
                edited(state, soldier)
                events.append(make_event("moved", card=soldier.id, start=start, to=soldier.zone))
        return events

    return run


def _ambush(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    def run() -> list[Event]:
        state.ambush = True
        return []

    return run


def _incendiarism(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    zone = field_int(action, "zone")
    if not 0 <= zone <= 5:
        raise InvalidAction(CODE + "bad_field", "zone must be 0..5")
    return lambda: hit_all(
        state, [c for c in in_play(state) if c.zone == zone and is_unit(c)], BURN, "incendiarism"
    )


def _resurrection(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    raw = action.get("targets")
    if not isinstance(raw, list) or not all(type(x) is int for x in raw):
        raise InvalidAction(CODE + "bad_field", "targets must be a list of card ids")
    fallen = [i for i in state.discard if is_soldier(state.cards[i])]
    if not fallen:
        raise IllegalAction(CODE + "no_soldiers", "no Soldier in the discard pile")
    if len(set(raw)) != len(raw) or len(raw) != min(2, len(fallen)) or not set(raw) <= set(fallen):
        raise IllegalAction(CODE + "bad_target", "name two Soldiers of the discard pile")

    def run() -> list[Event]:
        for card_id in raw:
            state.discard.remove(card_id)
            enter_play(state, state.cards[card_id], side, middle_zone(side))
        return [make_event("restored", cards=list(raw), zone=middle_zone(side))]

    return run


def _plague(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    zone = castle_zone(enemy(side))
    return lambda: hit_all(
        state,
        [c for c in in_play(state) if c.zone == zone and (is_soldier(c) or is_civilian(c))],
        CARDS["plague"].damage,
        "plague",
    )


def _storm(state: GameState, side: int, action: dict[str, Any]) -> Callable[[], list[Event]]:
    foe = enemy(side)
    return lambda: hit_all(
        state, [c for c in in_play(state) if depth(foe, c.zone) <= 2], STORM, "lightning_storm"
    )


EFFECTS: dict[str, Effect] = {
    "repair": _repair,
    "medicine": _medicine,
    "charge": _charge,
    "arrow_rain": _arrow_rain,
    "rout": _rout,
    "rally_forces": _rally,
    "ambush": _ambush,
    "incendiarism": _incendiarism,
    "resurrection": _resurrection,
    "plague": _plague,
    "lightning_storm": _storm,
}


def play_card(state: GameState, seat: int, action: dict[str, Any]) -> list[Event]:
    """Play a card from ``seat``'s hand: a unit into its Castle or Middle Zone, or an Action.

    Raises castles/not_in_hand, castles/bad_zone (units go to your Castle or Middle Zone),
    castles/needs_builder (Buildings come in through a Builder's Action), the requirement codes
    of ``check_requirements`` and each card's own target codes. Nothing changes on a refusal.
    """
    card = card_field(state, action, "card")
    if card.place != HAND or card.holder != seat:
        raise IllegalAction(CODE + "not_in_hand", "that card is not in your hand")
    side = side_of(seat)
    kind = spec(card)
    if kind.type == "building":
        raise IllegalAction(CODE + "needs_builder", "a Builder's Action plays Buildings")
    if kind.type in ("soldier", "civilian"):
        zone = field_int(action, "zone")
        if zone not in (castle_zone(side), middle_zone(side)):
            raise IllegalAction(CODE + "bad_zone", "play into your Castle or Middle Zone")
        state.hands[seat].remove(card.id)
        enter_play(state, card, side, zone)
        return [make_event("played", seat=seat, card=card.id, card_kind=card.kind, zone=zone)]
    check_requirements(state, side, card)
    run = EFFECTS[card.kind](state, side, action)
    state.hands[seat].remove(card.id)
    card.place, card.holder, card.seen_by = DISCARD, -1, []
    state.discard.append(card.id)
    shown = {k: v for k, v in action.items() if k in ("target", "targets", "zone")}
    events = [make_event("played", seat=seat, card=card.id, card_kind=card.kind, **shown)]
    return events + run()
