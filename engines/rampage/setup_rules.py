"""Match set-up: options, the shuffled or stacked pile, and the two simultaneous splits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Event, IllegalAction, InvalidAction, Rng, make_event, option_int
from engines.rampage.cards import CARD_IDS, CARDS, card_of, is_card_id, kind_of
from engines.rampage.state import PLAY, SETUP, Player, RampageState

GAME = "rampage"
HAND_DEAL = 5
SETUP_ROUNDS = 2
PER_STRUCTURE = 2  # cards placed at the Gate, and then at the Castle, each round


def _stacked_pile(deck: Any, rng: Rng) -> list[str]:
    """The draw pile with ``deck`` on top (ids or kind names) and the rest shuffled below.

    Raises ``InvalidAction`` (rampage/bad_option) for an unknown or repeated card.
    """
    if not isinstance(deck, list):
        raise InvalidAction(f"{GAME}/bad_option", "deck must be a list of card ids or kinds")
    used: set[str] = set()
    top: list[str] = []
    for entry in deck:
        if is_card_id(entry):
            card_id = str(entry)
        elif isinstance(entry, str) and entry in CARDS:
            # A kind name takes the lowest-numbered copy not yet stacked.
            free = [c for c in CARD_IDS if kind_of(c) == entry and c not in used and c not in deck]
            if not free:
                raise InvalidAction(f"{GAME}/bad_option", f"deck: no copy of {entry!r} is left")
            card_id = free[0]
        else:
            raise InvalidAction(f"{GAME}/bad_option", f"deck: unknown card {entry!r}")
        if card_id in used:
            raise InvalidAction(f"{GAME}/bad_option", f"deck: {card_id!r} appears twice")
        used.add(card_id)
        top.append(card_id)
    rest = [card_id for card_id in CARD_IDS if card_id not in used]
    rng.shuffle(rest)
    return top + rest


def _names(options: Mapping[str, Any]) -> list[str]:
    names = options.get("names", ["Castle 1", "Castle 2"])
    if (
        not isinstance(names, list)
        or len(names) != 2
        or not all(isinstance(n, str) and 0 < len(n) <= 64 for n in names)
    ):
        raise InvalidAction(f"{GAME}/bad_option", "names must be two strings of 1..64 chars")
    return list(names)


def new_state(seats: Any, seed: int, options: Mapping[str, Any]) -> tuple[RampageState, Event]:
    """A fresh match with round one dealt; raises ``InvalidAction`` for bad seats/options."""
    if seats != 2:
        raise InvalidAction(f"{GAME}/bad_seats", "Castle Rampage is a duel: exactly 2 seats")
    if "decks" in options:
        raise InvalidAction(f"{GAME}/bad_option", "Castle Rampage has one shared pile: use deck")
    names = _names(options)
    rng = Rng(seed)
    if "first_seat" in options:
        first = option_int(options, "first_seat", 0, GAME, low=0, high=1)
    else:
        first = rng.randbelow(2)
    if "deck" in options:
        pile = _stacked_pile(options["deck"], rng)
    else:
        pile = list(CARD_IDS)
        rng.shuffle(pile)
    state = RampageState(
        rng=rng, players=[Player(name=n) for n in names], first_seat=first, draw=pile
    )
    start = make_event("match_started", names=names, first_seat=first, deck_size=len(pile))
    return state, start


def deal_round(state: RampageState) -> list[Event]:
    """Deal five non-purple cards to each seat, seat 0 first (rulebook: Preparation).

    Purple cards met while dealing are set aside and then put back into the draw pile at
    random depths, which is the rulebook's "replace it, shuffle it back" without disturbing
    the order of a stacked pile's other cards.
    """
    skipped: list[str] = []
    events: list[Event] = []
    for seat, player in enumerate(state.players):
        player.chosen = False
        while len(player.dealt) < HAND_DEAL and state.draw:
            card_id = state.draw.pop(0)
            if card_of(card_id).purple:
                skipped.append(card_id)
            else:
                player.dealt.append(card_id)
        events.append(
            make_event(
                "dealt",
                visible_to=[seat],
                redacted={"seat": seat, "count": len(player.dealt)},
                seat=seat,
                round=state.setup_round,
                cards=list(player.dealt),
                count=len(player.dealt),
            )
        )
    for card_id in skipped:
        state.draw.insert(state.rng.randbelow(len(state.draw) + 1), card_id)
    if skipped:
        events.append(make_event("purple_returned", count=len(skipped)))
    return events


def validate_setup(state: RampageState, seat: int, action: Mapping[str, Any]) -> None:
    """Refuse a bad split: InvalidAction rampage/bad_cards for lists not of two cards;
    IllegalAction rampage/wrong_phase, rampage/already_chosen, rampage/not_dealt. The
    envelope (``engine.ACTIONS``) checked that both are lists of strings."""
    gate, castle = action["gate"], action["castle"]
    if len(gate) != PER_STRUCTURE or len(castle) != PER_STRUCTURE:
        raise InvalidAction(f"{GAME}/bad_cards", "gate and castle each list 2 card ids")
    if state.phase != SETUP:
        raise IllegalAction(f"{GAME}/wrong_phase", "set-up is over")
    player = state.players[seat]
    if player.chosen:
        raise IllegalAction(f"{GAME}/already_chosen", "you already split this round's cards")
    picked = [*gate, *castle]
    if len(set(picked)) != len(picked) or not all(c in player.dealt for c in picked):
        raise IllegalAction(f"{GAME}/not_dealt", "choose 4 different cards of your 5 dealt")


def apply_setup(state: RampageState, seat: int, action: Mapping[str, Any]) -> list[Event]:
    """Place 2 cards under the Gate and 2 under the Castle, set the fifth aside.

    When both seats have chosen, deal round two, or after it form the hands and begin.
    """
    player = state.players[seat]
    gate, castle = list(action["gate"]), list(action["castle"])
    # Rulebook note: added cards always go under the cards already at that structure.
    player.gate.extend(gate)
    player.castle.extend(castle)
    player.placed += len(gate) + len(castle)
    aside = [c for c in player.dealt if c not in gate and c not in castle]
    player.aside.extend(aside)
    player.dealt = []
    player.chosen = True
    events = [
        make_event(
            "setup_chosen",
            visible_to=[seat],
            redacted={"seat": seat},
            seat=seat,
            gate=gate,
            castle=castle,
            aside=aside,
        )
    ]
    if not all(p.chosen for p in state.players):
        return events
    if state.setup_round < SETUP_ROUNDS:
        state.setup_round += 1
        return events + deal_round(state)
    for other in state.players:
        other.hand, other.aside = other.aside, []
        other.chosen = False
    state.phase = PLAY
    events.append(make_event("setup_done", hand_sizes=[len(p.hand) for p in state.players]))
    return events
