"""Who and what a card may target: protection, face-down cards, room, and the play options."""

from __future__ import annotations

from typing import Any

from engines.ember.cards import CARD_ATTACKS, CARDS, HAND_ATTACKS, PROTECTABLE, Card
from engines.ember.state import SCAPE_SIZE, EmberState, lasting_count, mode_of

SCAPE_WARDED = frozenset({"steal_scape", "destroy_scape", "capture", "collect_scape"})
# By seat count and seat: the other seats, from the seat on the left round the table.
TURN_ORDER = {
    seats: [[(seat + k) % seats for k in range(1, seats)] for seat in range(seats)]
    for seats in range(2, 5)
}


def is_blocked(state: EmberState, target: int, attack: str) -> bool:
    """Whether ``target`` is protected against ``attack`` right now."""
    return protection_of(state, target, attack) is not None


def protection_of(state: EmberState, target: int, attack: str) -> str | None:
    """What protects ``target`` against ``attack`` right now: ``"mode"`` (protection mode),
    ``"ward"`` (a lasting card), or None.

    Rulebook, Mode symbols: protection mode stops stealing, destroying, capturing and collecting
    the cards in hand or emberscape, but not returning cards to hand nor mode-pile changes.
    """
    if attack in PROTECTABLE and mode_of(state, target) == "protection":
        return "mode"
    if attack in HAND_ATTACKS and lasting_count(state, target, "ward_hand"):
        return "ward"
    if attack in SCAPE_WARDED and lasting_count(state, target, "ward_scape") > 0:
        return "ward"
    return None


def opponents(state: EmberState, seat: int) -> list[int]:
    """Opponents still in play, in turn order starting at the seat on the left."""
    players = state.players
    return [s for s in TURN_ORDER[state.seats][seat] if not players[s].resigned]


def attack_targets(state: EmberState, seat: int, card: Card) -> list[tuple[int, int | None]]:
    """Every legal declaration ``(opponent, card uid or None)`` for the card's attack.

    Rulebook, Face-down cards: face-down cards may not be targeted by opponents; an opponent
    protected against this attack may not be declared.
    """
    attack = card.attack
    if attack is None:
        return []
    targets: list[tuple[int, int | None]] = []
    for opp in opponents(state, seat):
        if is_blocked(state, opp, attack):
            continue
        player = state.players[opp]
        if attack in CARD_ATTACKS:
            targets.extend((opp, uid) for uid in player.scape if uid not in player.face_down)
        elif attack in HAND_ATTACKS:
            if player.hand:
                targets.append((opp, None))
        else:
            targets.append((opp, None))
    return targets


def choice_options(
    state: EmberState, seat: int, card: Card, played: int, *, from_arcane: bool
) -> list[int | None]:
    """The own cards the card's choice effect may name (None: choose nothing)."""
    player = state.players[seat]
    choice = card.choice
    hand = [uid for uid in player.hand if uid != played]
    scape = [uid for uid in player.scape if uid != played]
    if choice == "add_from_hand":
        room = SCAPE_SIZE - len(scape) - (1 if card.to_scape else 0)
        return [None, *hand] if room > 0 else [None]
    if choice in ("return_own", "collect_own"):
        return [None, *scape]
    if choice == "rune_swap":
        arcane_left = len(player.arcane) - (1 if from_arcane else 0)
        return [None, *hand] if arcane_left > 0 else [None]
    if choice == "hex":
        return list(hand) if hand else [None]
    return [None]


def has_room(state: EmberState, seat: int, uid: int) -> bool:
    """Rulebook, Full emberscape: a card that would go into a full emberscape may not be played."""
    return not state.card(uid).to_scape or len(state.players[seat].scape) < SCAPE_SIZE


def play_options(
    state: EmberState, seat: int, uid: int, *, from_arcane: bool = False
) -> list[dict[str, Any]]:
    """Every legal declaration for playing ``uid``: target seat and card, and the choice.

    Rulebook, Attacking an opponent: when an attack has a legal target, one must be declared.
    """
    card = state.card(uid)
    if card.attack is None and card.choice is None:
        return [{}]  # most cards declare nothing (listed for every hand card, every change)
    targets: list[tuple[int | None, int | None]] = list(attack_targets(state, seat, card))
    if not targets:
        targets = [(None, None)]
    choices = choice_options(state, seat, card, uid, from_arcane=from_arcane)
    options: list[dict[str, Any]] = []
    for target_seat, target_card in targets:
        for choice in choices:
            option: dict[str, Any] = {}
            if target_seat is not None:
                option["target_seat"] = target_seat
            if target_card is not None:
                option["target_card"] = target_card
            if choice is not None:
                option["choice"] = choice
            options.append(option)
    return options


def playable(state: EmberState, seat: int) -> list[int]:
    """The hand cards that may be played now (those with room to land)."""
    player = state.players[seat]
    if len(player.scape) < SCAPE_SIZE:
        return list(player.hand)
    kinds = state.kinds
    return [uid for uid in player.hand if not CARDS[kinds[uid]].to_scape]


def attacked_seat(state: EmberState, item: dict[str, Any]) -> int | None:
    """The seat an item on the stack acts against (its response window's seat)."""
    if item["role"] == "card":
        target: int | None = item["target_seat"]
        return target
    answered: int = state.stack[item["answers"]]["seat"]
    return answered


def response_options(state: EmberState, seat: int) -> list[int]:
    """The response cards ``seat`` may play against the top of the stack (uids).

    Martyr, ward and vengeance answer an opponent's attack card aimed at the seat; dispel
    answers any opponent item aimed at the seat. Face-down cards answer from the emberscape.
    """
    if not state.stack:
        return []
    top = state.stack[-1]
    if top["seat"] == seat or attacked_seat(state, top) != seat:
        return []
    player = state.players[seat]
    kinds = {"dispel"} if top["role"] == "response" else {"martyr", "ward", "vengeance", "dispel"}
    options = [
        uid
        for uid in player.hand
        if state.card(uid).response in kinds and state.card(uid).play != "face_down"
    ]
    options += [uid for uid in player.face_down if state.card(uid).response in kinds]
    return options
