"""What one seat may know: the open board, its own hand, hand sizes and Spy-revealed cards."""

from __future__ import annotations

from typing import Any

from engines.castles.board import ROLES, colour_id, enemy, seats_of, side_of, zone_side
from engines.castles.cards import CARDS
from engines.castles.state import PLAY, Card, GameState


def to_act(state: GameState) -> list[int]:
    if state.phase == "over":
        return []
    if state.phase == "response" and state.window is not None:
        return sorted(state.window.responders)
    return [state.active]


def _in_play(card: Card) -> dict[str, Any]:
    kind = CARDS[card.kind]
    return {
        "id": card.id,
        "kind": card.kind,
        "type": kind.type,
        "side": card.side,
        "zone": card.zone,
        "hp": card.hp,
        "max_hp": kind.hp,
        "moves": card.moves,
        "acts": card.acts,
        "charged": card.charged,
    }


def _card(state: GameState, card_id: int) -> dict[str, Any]:
    return {"id": card_id, "kind": state.cards[card_id].kind}


def view(state: GameState, seat: int | None, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """The board is open; hands, piles and the RNG are not. A seat sees its own hand and the
    enemy cards its side's Spy revealed (while they stay in that hand); never its partner's."""
    side = None if seat is None else side_of(seat)
    known: dict[str, list[dict[str, Any]]] = {}
    if side is not None:
        for other in seats_of(state, enemy(side)):
            shown = [i for i in state.hands[other] if side in state.cards[i].seen_by]
            if shown:
                known[str(other)] = [_card(state, i) for i in shown]
    window = state.window
    return {
        "game": "castles",
        "phase": state.phase,
        "seats": state.seats,
        "to_act": to_act(state),
        "outcome": outcome,
        "seat": seat,
        "side": side,
        "teams": state.teams,
        "names": list(state.names),
        "active": state.active,
        "turn": state.turn,
        "max_turns": state.max_turns,
        "zones": [
            {"zone": z, "side": zone_side(z), "role": ROLES[z], "terrain": state.terrain[z]}
            for z in range(6)
        ],
        "rivers": list(state.rivers),
        "castle_hp": [state.cards[colour_id(s, "castle")].hp for s in (0, 1)],
        "in_play": [_in_play(c) for c in state.cards if c.place == PLAY],
        "hand": [] if seat is None else [_card(state, i) for i in state.hands[seat]],
        "hand_sizes": [len(hand) for hand in state.hands],
        "known": known,
        "pile_sizes": [len(pile) for pile in state.piles],
        "discard": [_card(state, i) for i in state.discard],
        "ambush": state.ambush,
        "trap_prompts": None if seat is None else not state.prompts_off[seat],
        "window": None
        if window is None
        else {
            "side": window.side,
            "seats": sorted(window.responders),
            "entered": list(window.trap_targets),
            "crossing": list(window.strike_targets),
            "struck": list(window.struck),
            "deadline": window.deadline,
        },
    }
