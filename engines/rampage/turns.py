"""Turn flow: drawing, the one defence placement, ending turns, destruction and the end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Event, IllegalAction, InvalidAction, make_event
from engines.rampage.cards import OGRE_PLACEMENT_COST, STRUCTURES, card_of
from engines.rampage.state import OVER, PLAY, RampageState

GAME = "rampage"
TURN_DRAW = 2
FIRST_TURN_DRAW = 1
TURN_LIMIT = 400  # both players' turns counted; heuristic games end near 20


def draw_cards(state: RampageState, seat: int, count: int, reason: str) -> list[Event]:
    """Draw ``count`` cards into ``seat``'s hand.

    House rule: an empty draw pile is refilled by shuffling the discard pile; when both are
    empty the remaining draws are lost.
    """
    drawn: list[str] = []
    events: list[Event] = []
    for _ in range(count):
        if not state.draw:
            events.extend(refill_draw_pile(state))
        if not state.draw:
            break
        drawn.append(state.draw.pop(0))
    state.players[seat].hand.extend(drawn)
    events.append(
        make_event(
            "drew",
            visible_to=[seat],
            redacted={"seat": seat, "count": len(drawn), "reason": reason},
            seat=seat,
            cards=drawn,
            count=len(drawn),
            reason=reason,
        )
    )
    return events


def refill_draw_pile(state: RampageState) -> list[Event]:
    """Shuffle the discard pile into a new draw pile (house rule); no event when empty."""
    if not state.discard:
        return []
    state.draw, state.discard = state.discard, []
    state.rng.shuffle(state.draw)
    state.reshuffles += 1
    return [make_event("reshuffled", count=len(state.draw))]


def start_turn(state: RampageState, seat: int) -> list[Event]:
    """Begin ``seat``'s turn: draw 2, or 1 on the starting player's very first turn.

    House rule (the rulebook assumes a Castle always falls): the siege is exhausted, and the
    match ends, when a turn would begin with nothing left to draw in either pile or after
    ``TURN_LIMIT`` turns; see ``exhausted``.
    """
    if state.turn >= TURN_LIMIT or (not state.draw and not state.discard):
        return exhausted(state, "turn_limit" if state.turn >= TURN_LIMIT else "exhausted")
    state.active = seat
    state.turn += 1
    state.defended = False
    state.veteran_played = False
    count = FIRST_TURN_DRAW if state.turn == 1 else TURN_DRAW
    player = state.players[seat]
    count += sum(card_of(p).amount for p in player.permanents if card_of(p).effect == "barracks")
    events = [make_event("turn_started", seat=seat, turn=state.turn)]
    return events + draw_cards(state, seat, count, "turn")


def exhausted(state: RampageState, reason: str) -> list[Event]:
    """End an exhausted siege: more Castle cards wins, then more Gate cards; else a draw."""
    sizes = [(len(p.castle), len(p.gate)) for p in state.players]
    if sizes[0] == sizes[1]:
        state.phase = OVER
        state.loser = None
        state.reason = reason
        return [make_event("game_over", loser=None, winner=None, reason=reason)]
    return finish(state, 0 if sizes[0] < sizes[1] else 1, reason)


def finish(state: RampageState, loser: int, reason: str) -> list[Event]:
    """End the match with ``loser`` beaten for ``reason``."""
    state.phase = OVER
    state.loser = loser
    state.reason = reason
    return [make_event("game_over", loser=loser, winner=1 - loser, reason=reason)]


def check_castles(state: RampageState) -> list[Event]:
    """End the match once a Castle is empty; both at once: the active player loses.

    End of the game: "as soon as the last card of any Castle is destroyed"; callers check
    after every single destruction, so two Castles are empty at once only when one effect
    destroys both tops together (the Summoner: "the player who played the Summoner loses").
    """
    fallen = [seat for seat, p in enumerate(state.players) if not p.castle]
    if not fallen:
        return []
    if len(fallen) == 2:
        return finish(state, state.active, "both_castles_destroyed")
    return finish(state, fallen[0], "castle_destroyed")


def destroy_top(state: RampageState, seat: int, structure: str, cause: str) -> list[Event]:
    """Destroy the top card of ``seat``'s ``structure`` (face up to the discard pile).

    Used for destruction outside an attack, so purple effects do not trigger.
    """
    player = state.players[seat]
    stack = player.stack(structure)
    if not stack:
        return []
    card_id = stack.pop(0)
    state.discard.append(card_id)
    player.lost += 1
    return [make_event("destroyed", seat=seat, structure=structure, card=card_id, cause=cause)]


def outer_structure(state: RampageState, seat: int) -> str:
    """The structure an attack (or a Sapper) meets first: the Gate unless it is empty."""
    return "gate" if state.players[seat].gate else "castle"


def require_turn(state: RampageState, seat: int) -> None:
    """Refuse unless it is ``seat``'s turn in the play phase.

    IllegalAction rampage/wrong_phase (set-up still running) or rampage/not_your_turn.
    """
    if state.phase != PLAY:
        raise IllegalAction(f"{GAME}/wrong_phase", "the cards are still being set up")
    if state.active != seat:
        raise IllegalAction(f"{GAME}/not_your_turn", "it is not your turn")


def end_turn(state: RampageState, seat: int) -> list[Event]:
    """End ``seat``'s turn; the opponent's begins at once."""
    return [make_event("turn_ended", seat=seat), *start_turn(state, 1 - seat)]


def validate_defend(state: RampageState, seat: int, action: Mapping[str, Any]) -> None:
    """Refuse a bad defence placement.

    InvalidAction rampage/bad_structure; IllegalAction rampage/not_your_turn,
    rampage/already_defended, rampage/not_in_hand, rampage/ogre_cost.
    """
    # The envelope (``engine.ACTIONS``) checked the types: card a string, pay strings.
    structure, card_id, pay = action.get("to"), action["card"], action.get("pay", [])
    if structure not in STRUCTURES:
        raise InvalidAction(f"{GAME}/bad_structure", "to must be 'gate' or 'castle'")
    require_turn(state, seat)
    if state.defended:
        raise IllegalAction(f"{GAME}/already_defended", "one defence placement per turn")
    hand = state.players[seat].hand
    if card_id not in hand:
        raise IllegalAction(f"{GAME}/not_in_hand", "that card is not in your hand")
    needed = OGRE_PLACEMENT_COST if card_of(card_id).effect == "ogre" else 0
    if (
        len(pay) != needed
        or len(set(pay)) != len(pay)
        or card_id in pay
        or not all(c in hand for c in pay)
    ):
        raise IllegalAction(
            f"{GAME}/ogre_cost",
            "only the Ogre costs 2 discards of other hand cards to place; others cost nothing",
        )


def apply_defend(state: RampageState, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """Put one hand card under the Gate or Castle, unseen and without its effect."""
    player = state.players[seat]
    card_id, structure = str(action["card"]), str(action["to"])
    pay = [str(c) for c in action.get("pay", [])]
    events: list[Event] = []
    if pay:
        events.append(discard_from_hand(state, seat, pay, "ogre_cost"))
    player.hand.remove(card_id)
    player.stack(structure).append(card_id)
    player.placed += 1
    state.defended = True
    events.append(
        make_event(
            "defended",
            visible_to=[seat],
            redacted={"seat": seat, "to": structure},
            seat=seat,
            to=structure,
            card=card_id,
        )
    )
    return events


def discard_from_hand(state: RampageState, seat: int, cards: list[str], reason: str) -> Event:
    """Move ``cards`` from ``seat``'s hand to the discard pile, face up for all to see."""
    hand = state.players[seat].hand
    for card_id in cards:
        hand.remove(card_id)
        state.discard.append(card_id)
    return make_event("discarded", seat=seat, cards=list(cards), reason=reason)
