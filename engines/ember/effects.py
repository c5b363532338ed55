"""Card movements and effects: draw, collect, steal, capture, destroy, return, hex, responses."""

from __future__ import annotations

from typing import Any

from engines.base import Event, make_event
from engines.ember.cards import CARD_ATTACKS, CHOICES
from engines.ember.state import SCAPE_SIZE, EmberState
from engines.ember.targeting import is_blocked, opponents, protection_of


def shown(state: EmberState, uid: int) -> dict[str, Any]:
    """A face-up card as events and views show it."""
    return {"uid": uid, "card": state.kinds[uid]}


def take_top(state: EmberState, seat: int, events: list[Event]) -> int | None:
    """The top card of the seat's deck, None if deck and discard pile are both empty.

    House rule (the rulebook is silent on an empty deck): the discard pile is shuffled into a
    new deck.
    """
    player = state.players[seat]
    if not player.deck and player.discard:
        player.deck = list(player.discard)
        player.discard.clear()
        state.rng.shuffle(player.deck)
        events.append(make_event("reshuffled", seat=seat, count=len(player.deck)))
    return player.deck.pop(0) if player.deck else None


def draw(state: EmberState, seat: int, count: int, events: list[Event]) -> None:
    """Draw ``count`` cards (fewer if deck and discard run out); only the seat sees which."""
    drawn: list[int] = []
    for _ in range(count):
        uid = take_top(state, seat, events)
        if uid is None:
            break
        drawn.append(uid)
    state.players[seat].hand.extend(drawn)
    events.append(
        make_event(
            "drew",
            visible_to=[seat],
            redacted={"seat": seat, "count": len(drawn)},
            seat=seat,
            count=len(drawn),
            cards=[shown(state, uid) for uid in drawn],
        )
    )


def leave_scape(state: EmberState, seat: int, uid: int) -> bool:
    """Take ``uid`` out of the seat's emberscape; returns whether it was face down."""
    player = state.players[seat]
    player.scape.remove(uid)
    if uid in player.face_down:
        player.face_down.remove(uid)
        return True
    return False


def collect_all(state: EmberState, seat: int, events: list[Event]) -> None:
    """Collect the whole emberscape into the collection pile (face-down cards stay hidden)."""
    player = state.players[seat]
    hidden = [uid for uid in player.scape if uid in player.face_down]
    open_cards = [shown(state, uid) for uid in player.scape if uid not in player.face_down]
    player.collection.extend(player.scape)
    player.hidden_collected.extend(hidden)
    player.scape.clear()
    player.face_down.clear()
    events.append(make_event("collected", seat=seat, cards=open_cards, hidden=len(hidden)))


def _attack(state: EmberState, item: dict[str, Any], attack: str, events: list[Event]) -> None:
    seat, target = item["seat"], item["target_seat"]
    if target is None:
        # Played with nobody it could hit: say who was protected (modes and lasting cards are
        # public), so "X plays Cleave" is not all the table hears.
        shielded = [
            [opp, why]
            for opp in opponents(state, seat)
            if (why := protection_of(state, opp, attack)) is not None
        ]
        events.append(make_event("no_target", seat=seat, effect=attack, protected=shielded))
        return
    if item["stopped"]:
        events.append(make_event("attack_stopped", seat=seat, target_seat=target, why="response"))
        return
    if is_blocked(state, target, attack):
        events.append(make_event("attack_stopped", seat=seat, target_seat=target, why="protected"))
        return
    victim, attacker = state.players[target], state.players[seat]
    if attack in CARD_ATTACKS:
        uid = item["target_card"]
        if uid not in victim.scape or uid in victim.face_down:
            events.append(make_event("attack_missed", seat=seat, target_seat=target, uid=uid))
            return
        if attack == "capture" and len(attacker.scape) >= SCAPE_SIZE:
            events.append(make_event("no_room", seat=seat, effect=attack))
            return
        leave_scape(state, target, uid)
        destination = {
            "steal_scape": attacker.hand,
            "destroy_scape": victim.discard,
            "capture": attacker.scape,
            "collect_scape": attacker.collection,
            "return_scape": victim.hand,
        }[attack]
        destination.append(uid)
        events.append(make_event(attack, seat=seat, target_seat=target, **shown(state, uid)))
    elif attack in ("steal_hand", "destroy_hand"):
        if not victim.hand:
            return
        uid = victim.hand.pop(state.rng.randbelow(len(victim.hand)))
        if attack == "destroy_hand":
            victim.discard.append(uid)
            events.append(make_event(attack, seat=seat, target_seat=target, **shown(state, uid)))
        else:
            attacker.hand.append(uid)
            events.append(
                make_event(
                    attack,
                    visible_to=[seat, target],
                    redacted={"seat": seat, "target_seat": target},
                    seat=seat,
                    target_seat=target,
                    **shown(state, uid),
                )
            )
    elif attack == "hex":
        uid = item["choice"]
        if uid is None or uid not in attacker.hand:
            return
        attacker.hand.remove(uid)
        victim.mode_pile.append(uid)
        events.append(make_event("hex", seat=seat, target_seat=target, **shown(state, uid)))


def _choice(state: EmberState, item: dict[str, Any], effect: str, events: list[Event]) -> None:
    seat, uid = item["seat"], item["choice"]
    player = state.players[seat]
    if uid is None:
        return
    if effect == "add_from_hand":
        # Rulebook, Full emberscape: an effect adding a card to a full emberscape doesn't happen.
        if uid not in player.hand or len(player.scape) >= SCAPE_SIZE:
            events.append(make_event("no_room", seat=seat, effect=effect))
            return
        player.hand.remove(uid)
        player.scape.append(uid)
        events.append(make_event("added", seat=seat, **shown(state, uid)))
    elif effect in ("return_own", "collect_own"):
        if uid not in player.scape:
            return
        was_hidden = leave_scape(state, seat, uid)
        if effect == "return_own":
            player.hand.append(uid)
        else:
            player.collection.append(uid)
            if was_hidden:
                player.hidden_collected.append(uid)
        card = {"uid": uid} if was_hidden else shown(state, uid)
        events.append(make_event(effect, seat=seat, **card))
    elif effect == "rune_swap":
        if uid not in player.hand or not player.arcane:
            return
        index = player.hand.index(uid)
        player.hand[index], player.arcane[0] = player.arcane[0], uid
        events.append(
            make_event(
                "rune_swap",
                visible_to=[seat],
                redacted={"seat": seat},
                seat=seat,
                to_arcane=shown(state, uid),
                to_hand=shown(state, player.hand[index]),
            )
        )


def place_played(state: EmberState, item: dict[str, Any], events: list[Event]) -> None:
    """Put a card that was in play (not in the emberscape) into the area its symbol names.

    A used ward goes onto its player's mode pile (protection mode); every other response, and
    a cancelled ward, goes to the discard pile.
    """
    if item["zone"] != "stack":
        return
    seat, uid = item["seat"], item["uid"]
    card = state.card(uid)
    if item["role"] == "response":
        ward = card.response == "ward" and not item["cancelled"]
        where = "mode_pile" if ward else "discard"
    else:
        where = {"collection": "collection", "mode": "mode_pile"}.get(card.play, "discard")
    getattr(state.players[seat], where).append(uid)
    item["zone"] = where
    events.append(make_event("placed", seat=seat, to=where, **shown(state, uid)))


def resolve_card(state: EmberState, item: dict[str, Any], events: list[Event]) -> None:
    """Activate the card's effects in printed order (Rulebook, Play phase), then place it."""
    if item["cancelled"]:
        events.append(make_event("cancelled", seat=item["seat"], uid=item["uid"]))
    else:
        for effect, count in state.card(item["uid"]).effects:
            if effect == "draw":
                draw(state, item["seat"], count, events)
            elif effect in CHOICES:
                _choice(state, item, effect, events)
            else:
                _attack(state, item, effect, events)
    place_played(state, item, events)


def resolve_response(state: EmberState, item: dict[str, Any], events: list[Event]) -> None:
    """Resolve a response card; what it answers is still on the stack below it."""
    answered = state.stack[item["answers"]]
    seat, uid = item["seat"], item["uid"]
    kind = state.card(uid).response
    if item["zone"] == "scape":
        # A face-down response leaves the emberscape once it has been used.
        leave_scape(state, seat, uid)
        item["zone"] = "stack"
    if item["cancelled"]:
        events.append(make_event("cancelled", seat=seat, uid=uid))
    elif kind == "martyr":
        answered["stopped"] = True
    elif kind == "dispel":
        answered["cancelled"] = True
    elif kind == "vengeance":
        attacker = answered["seat"]
        if answered["uid"] in state.players[attacker].scape:
            # Rulebook, Response effects: a removed card's effects still occur afterwards.
            leave_scape(state, attacker, answered["uid"])
            state.players[attacker].discard.append(answered["uid"])
            events.append(
                make_event(
                    "destroy_scape",
                    seat=seat,
                    target_seat=attacker,
                    **shown(state, answered["uid"]),
                )
            )
    place_played(state, item, events)
