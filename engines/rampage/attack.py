"""Attack resolution: reveal, compare, carry over from Gate into Castle, purple triggers."""

from __future__ import annotations

from engines.base import Event, make_event
from engines.rampage.cards import card_of
from engines.rampage.state import OVER, RampageState
from engines.rampage.turns import check_castles, destroy_top, outer_structure

SABOTEUR_DISCARDS = 2
SPY_TAKES = 1


def defence_bonus(state: RampageState, seat: int, structure: str) -> int:
    """Permanent bonuses to each card of ``seat``'s ``structure`` (Palisade, Watchtower)."""
    wanted = "palisade" if structure == "gate" else "watchtower"
    return sum(
        card_of(p).amount for p in state.players[seat].permanents if card_of(p).effect == wanted
    )


def attack_bonus(state: RampageState, seat: int) -> int:
    """Permanent bonuses to every attack of ``seat`` (War Banner)."""
    return sum(
        card_of(p).amount for p in state.players[seat].permanents if card_of(p).effect == "banner"
    )


def first_target(state: RampageState, attacker: int, card_id: str) -> str:
    """Where an attack begins: the Gate, unless it is empty or the card digs past it."""
    if card_of(card_id).effect == "digger":
        return "castle"
    return outer_structure(state, 1 - attacker)


def resolve_attack(state: RampageState, attacker: int, card_id: str, strength: int) -> list[Event]:
    """Resolve the attack of ``card_id`` (already out of the hand) with ``strength``.

    Rulebook, Attacks: reveal the top card of the attacked structure and compare. Higher
    defence: the attacker is destroyed (a Veteran goes back to the hand) and the defender
    returns face down on top. Equal: both are destroyed, no further card is revealed. Lower:
    the defender is destroyed, its defence is subtracted and the next card is revealed, from
    the Castle once the Gate is empty. The attacking card always ends somewhere.

    A destroyed purple card fires its effect only while the game goes on: a Bomber that was
    the defender's last Castle card ends the game (the attacker wins) before its blast.
    """
    defender = 1 - attacker
    structure = first_target(state, attacker, card_id)
    events: list[Event] = [
        make_event(
            "attack",
            seat=attacker,
            card=card_id,
            strength=strength,
            target=defender,
            structure=structure,
        )
    ]
    stack_owner = state.players[defender]
    while True:
        stack = stack_owner.stack(structure)
        if not stack:
            if structure == "gate":
                structure = "castle"
                continue
            # Only reachable if the Castle is already empty; keep the card conserved.
            state.discard.append(card_id)
            return events
        top = stack[0]
        defence = card_of(top).defence(structure) + defence_bonus(state, defender, structure)
        events.append(
            make_event(
                "revealed",
                seat=defender,
                structure=structure,
                card=top,
                defence=defence,
                strength=strength,
            )
        )
        if defence > strength:
            events.append(_repel(state, attacker, card_id, defender, structure, top))
            return events
        stack.pop(0)
        state.discard.append(top)
        stack_owner.lost += 1
        events.append(
            make_event("destroyed", seat=defender, structure=structure, card=top, cause="attack")
        )
        # End of the game: "as soon as the last card of any Castle is destroyed". A purple
        # card that was its Castle's last ends the game before its own effect could fire.
        fallen = check_castles(state)
        stopped = False
        if not fallen:
            stopped, trigger_events = _purple_trigger(state, attacker, top)
            events.extend(trigger_events)
            fallen = check_castles(state)
        events.extend(fallen)
        if state.phase == OVER or defence == strength or stopped:
            state.discard.append(card_id)
            if state.phase != OVER:
                events.append(
                    make_event("attack_ended", seat=attacker, card=card_id, result="destroyed")
                )
            return events
        strength -= defence
        if structure == "gate" and not stack_owner.gate:
            structure = "castle"


def _repel(
    state: RampageState, attacker: int, card_id: str, defender: int, structure: str, top: str
) -> Event:
    """The defence held: the defender stays on top; the attacker is destroyed or returns."""
    if card_of(card_id).effect == "veteran":
        state.players[attacker].hand.append(card_id)
        result = "returned"
    else:
        state.discard.append(card_id)
        result = "destroyed"
    return make_event(
        "attack_ended",
        seat=attacker,
        card=card_id,
        result=result,
        repelled_by=top,
        target=defender,
        structure=structure,
    )


def _purple_trigger(state: RampageState, attacker: int, destroyed: str) -> tuple[bool, list[Event]]:
    """A purple card destroyed in an attack fires its effect; True when the attack stops."""
    effect = card_of(destroyed).effect
    owner = 1 - attacker
    if effect == "bomber":
        structure = outer_structure(state, attacker)
        events = [make_event("triggered", card=destroyed, seat=owner, effect=effect)]
        return True, events + destroy_top(state, attacker, structure, "bomber")
    if effect == "saboteur":
        lost = random_cards(state, attacker, SABOTEUR_DISCARDS)
        hand = state.players[attacker].hand
        for card_id in lost:
            hand.remove(card_id)
            state.discard.append(card_id)
        event = make_event(
            "triggered", card=destroyed, seat=owner, effect=effect, victim=attacker, cards=lost
        )
        return False, [event]
    if effect == "spy":
        taken = random_cards(state, attacker, SPY_TAKES)
        for card_id in taken:
            state.players[attacker].hand.remove(card_id)
            state.players[owner].hand.append(card_id)
        event = make_event(
            "triggered",
            visible_to=[attacker, owner],
            redacted={
                "card": destroyed,
                "seat": owner,
                "effect": effect,
                "victim": attacker,
                "count": len(taken),
            },
            card=destroyed,
            seat=owner,
            effect=effect,
            victim=attacker,
            cards=taken,
            count=len(taken),
        )
        return False, [event]
    return False, []


def random_cards(state: RampageState, seat: int, count: int) -> list[str]:
    """Up to ``count`` distinct random cards of ``seat``'s hand, chosen by the match RNG."""
    pool = list(state.players[seat].hand)
    picked: list[str] = []
    for _ in range(min(count, len(pool))):
        picked.append(pool.pop(state.rng.randbelow(len(pool))))
    return picked
