"""The legal-action listing against a brute-force oracle that tries every candidate through the
very checks ``apply`` runs (the listing itself uses the shared ``*_refusal`` predicates)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest

from engines.base import ActionError, Event
from engines.castles import legal, legal_plays
from engines.castles.board import castle_zone, enemy, middle_zone, seats_of, side_of, spec
from engines.castles.bots import HeuristicBot, RandomBot
from engines.castles.movement import plan_move
from engines.castles.playing import EFFECTS, check_requirements
from engines.castles.state import PLAY, Card, GameState
from engines.castles.unit_actions import ACTORS, check_action
from engines.playout import play
from tests.engines.castles.helpers import ENGINE

Action = dict[str, Any]
OPTIONS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {"teams": True}),
    (2, {"terrain": ["plains", "hills", "lake", "high_hills", "forest", "plains"], "rivers": [2]}),
    (3, {"terrain": ["plains", "marsh", "forest", "hills", "marsh", "plains"], "rivers": [0, 4]}),
]


def accepted(check: Callable[..., object], *args: Any) -> bool:
    try:
        check(*args)
    except ActionError:
        return False
    return True


def oracle(state: GameState, seat: int) -> list[Action]:
    """Every candidate of the listing's shapes (moves to any zone, Actions on any card), in the
    listing's order, kept when the checking code that ``apply`` runs accepts it."""
    side = side_of(seat)
    board = [c for c in state.cards if c.place == PLAY]
    mine = [c for c in board if c.side == side]
    actions: list[Action] = [{"type": "end_turn"}]
    seen: set[str] = set()
    for card_id in state.hands[seat]:
        card = state.cards[card_id]
        if card.kind in seen:
            continue  # identical cards give identical choices: the first copy only
        seen.add(card.kind)
        if spec(card).type in ("soldier", "civilian"):
            actions += [
                {"type": "play", "card": card_id, "zone": z}
                for z in (castle_zone(side), middle_zone(side))
            ]
        elif card.kind in EFFECTS and accepted(check_requirements, state, side, card):
            base: Action = {"type": "play", "card": card_id}
            if card.kind in ("repair", "medicine", "charge", "rout"):
                options = [{**base, "target": t.id} for t in board]
            elif card.kind == "incendiarism":
                options = [{**base, "zone": z} for z in range(-1, 7)]
            elif card.kind == "resurrection":
                options = [{**base, "targets": pair} for pair in legal_plays.fallen_pairs(state)]
            else:
                options = [base]
            actions += [a for a in options if accepted(EFFECTS[card.kind], state, side, a)]
    for card in mine:
        if card.moves > 0:
            actions += _moves(state, card, mine)
    for card in mine:
        if card.acts > 0 and card.kind in ACTORS:  # apply refuses the others: no_action
            base = {"type": "act", "card": card.id}
            if card.kind == "builder":
                options = [{**base, "build": i} for i in state.hands[seat]]
            elif card.kind == "spy":
                options = [{**base, "seat": s} for s in seats_of(state, enemy(side))]
            else:
                options = [{**base, "target": t.id} for t in board]
            actions += [a for a in options if accepted(check_action, state, seat, card, a)]
    return [*actions, {"type": "resign"}]


def _moves(state: GameState, card: Card, mine: list[Card]) -> list[Action]:
    out: list[Action] = []
    if spec(card).type == "building":
        able = [
            c
            for c in mine
            if c.zone == card.zone and c.moves > 0 and spec(c).type in ("soldier", "civilian")
        ]
        for to in range(-1, 7):
            for group in combinations(able, max(1, spec(card).carriers)):
                if accepted(plan_move, state, card, to, list(group)):
                    out.append(
                        {"type": "move", "card": card.id, "to": to, "with": [c.id for c in group]}
                    )
        return out
    for to in range(-1, 7):
        if accepted(plan_move, state, card, to, []):
            out.append({"type": "move", "card": card.id, "to": to})
    return out


@pytest.mark.parametrize("game", range(8))
def test_listing_equals_every_candidate_the_checks_accept(game: int) -> None:
    """Listing rule: every play, move and Action ``apply`` would accept, and nothing else."""
    index = game
    seats, options = OPTIONS[index % len(OPTIONS)]
    bot_type = HeuristicBot if index % 2 == 0 else RandomBot
    checked = [0]

    def on_change(state: GameState, events: list[Event]) -> None:
        if state.phase != "turn":
            return
        listed = legal.turn_actions(state, state.active)
        expected = oracle(state, state.active)
        assert listed == expected, (index, state.turn)
        checked[0] += 1

    bots = [bot_type(seat, index * 10 + seat) for seat in range(seats)]
    play(ENGINE, bots, index, options, on_change=on_change)
    assert checked[0] > 20
