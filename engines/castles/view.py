"""What one seat may know: the open board, its own hand, hand sizes and Spy-revealed cards."""

from __future__ import annotations

from typing import Any

from engines.castles.board import ROLES, colour_id, side_of, zone_side
from engines.castles.cards import CARDS
from engines.castles.state import GameState, board, memo


def to_act(state: GameState) -> list[int]:
    if state.phase == "over":
        return []
    if state.phase == "response" and state.window is not None:
        return sorted(state.window.responders)
    return [state.active]


# One in-play entry per kind with the fixed fields filled in, in the view's key order: copying
# it and setting the seven changing fields is cheaper than building a ten-key dict each time.
IN_PLAY_TEMPLATES: dict[str, dict[str, Any]] = {
    kind: {
        "id": -1,
        "kind": kind,
        "type": spec.type,
        "side": -1,
        "zone": -1,
        "hp": 0,
        "max_hp": spec.hp,
        "moves": 0,
        "acts": 0,
        "charged": False,
    }
    for kind, spec in CARDS.items()
}
CASTLE_IDS = (colour_id(0, "castle"), colour_id(1, "castle"))
ZONE_FACTS = tuple((z, zone_side(z), ROLES[z]) for z in range(6))


def _in_play(state: GameState) -> list[dict[str, Any]]:
    """Fresh public entries of the cards in play. Each card's last entry is kept with the
    fields it was built from and copied while they stay the same (most actions change one or
    two cards): a copy is cheaper than setting seven keys. The kept entry is never handed out."""
    public = state.public
    out = []
    for card in board(state):
        key = (card.side, card.zone, card.hp, card.moves, card.acts, card.charged)
        known = public[card.id]
        if known is not None and known[0] == key:
            out.append(known[1].copy())
            continue
        entry = IN_PLAY_TEMPLATES[card.kind].copy()
        entry["id"] = card.id
        entry["side"] = card.side
        entry["zone"] = card.zone
        entry["hp"] = card.hp
        entry["moves"] = card.moves
        entry["acts"] = card.acts
        entry["charged"] = card.charged
        public[card.id] = (key, entry)
        out.append(entry.copy())
    return out


def _public(state: GameState) -> dict[str, Any]:
    """What every seat's view shows alike, built afresh once per change of the state (the host
    asks for a view per seat after every change) and shared by the views of that change. The
    state never changes it: the next change builds a new one."""
    found: dict[str, Any] | None = memo(state).get("public")
    if found is not None:
        return found
    cards = state.cards
    window = state.window
    found = state.memo["public"] = {
        "to_act": to_act(state),
        "names": list(state.names),
        "zones": [
            {"zone": z, "side": zone_owner, "role": role, "terrain": state.terrain[z]}
            for z, zone_owner, role in ZONE_FACTS
        ],
        "rivers": list(state.rivers),
        "castle_hp": [cards[CASTLE_IDS[0]].hp, cards[CASTLE_IDS[1]].hp],
        "in_play": _in_play(state),
        "hand_sizes": list(map(len, state.hands)),
        "pile_sizes": list(map(len, state.piles)),
        "discard": [{"id": i, "kind": cards[i].kind} for i in state.discard],
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
    return found


def view(state: GameState, seat: int | None, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """The board is open; hands, piles and the RNG are not. A seat sees its own hand and the
    enemy cards its side's Spy revealed (while they stay in that hand); never its partner's."""
    side = None if seat is None else side_of(seat)
    cards = state.cards
    known: dict[str, list[dict[str, Any]]] = {}
    if side is not None:
        for other in range(1 - side, state.seats, 2):  # the enemy side's seats
            shown = [i for i in state.hands[other] if side in cards[i].seen_by]
            if shown:
                known[str(other)] = [{"id": i, "kind": cards[i].kind} for i in shown]
    public = _public(state)
    return {
        "game": "castles",
        "phase": state.phase,
        "seats": state.seats,
        "to_act": public["to_act"],
        "outcome": outcome,
        "seat": seat,
        "side": side,
        "teams": state.seats > 2,
        "names": public["names"],
        "active": state.active,
        "turn": state.turn,
        "max_turns": state.max_turns,
        "zones": public["zones"],
        "rivers": public["rivers"],
        "castle_hp": public["castle_hp"],
        "in_play": public["in_play"],
        "hand": []
        if seat is None
        else [{"id": i, "kind": cards[i].kind} for i in state.hands[seat]],
        "hand_sizes": public["hand_sizes"],
        "known": known,
        "pile_sizes": public["pile_sizes"],
        "discard": public["discard"],
        "ambush": state.ambush,
        "trap_prompts": None if seat is None else not state.prompts_off[seat],
        "window": public["window"],
    }
