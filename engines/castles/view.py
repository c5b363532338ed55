"""What one seat may know: the open board, its own hand, hand sizes and Spy-revealed cards."""

from __future__ import annotations

from typing import Any

from engines.castles.board import ROLES, colour_id, zone_side
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
    """Public entries of the cards in play. Each card keeps its entry until the rules change one
    of its fields (``edited`` drops it; most actions change one or two cards) and hands that
    same dict out again meanwhile. Sharing is safe because no entry is ever changed once built
    (a changed card gets a new dict) and nothing in the repository changes a view it receives."""
    public = state.public
    out = []
    for card in board(state):
        entry = public[card.id]
        if entry is None:  # built here rather than by a call: most changes edit a few cards
            entry = public[card.id] = IN_PLAY_TEMPLATES[card.kind].copy()
            entry["id"] = card.id
            entry["side"] = card.side
            entry["zone"] = card.zone
            entry["hp"] = card.hp
            entry["moves"] = card.moves
            entry["acts"] = card.acts
            entry["charged"] = card.charged
        out.append(entry)
    return out


def _fixed(state: GameState) -> tuple[list[str], list[str], list[int], list[dict[str, Any]]]:
    """Names, terrain, rivers and the zone list: set up once, so built once and handed out
    again while the state's lists still equal the copies they were built from."""
    found: tuple[Any, ...] | None = state.parts.get("fixed")
    if (
        found is None
        or found[0] != state.names
        or found[1] != state.terrain
        or found[2] != state.rivers
    ):
        terrain = list(state.terrain)
        zones = [
            {"zone": z, "side": zone_owner, "role": role, "terrain": terrain[z]}
            for z, zone_owner, role in ZONE_FACTS
        ]
        found = state.parts["fixed"] = (list(state.names), terrain, list(state.rivers), zones)
    return found


def _named(state: GameState, key: Any, ids: list[int]) -> list[dict[str, Any]]:
    """``[{"id", "kind"}]`` for a pile of card ids (the discard, a hand), rebuilt only when the
    ids differ from those it was last built from (most actions leave them alone)."""
    found = state.parts.get(key)
    if found is None or found[0] != ids:
        named = state.named  # one shared {"id", "kind"} per card: a card's kind never changes
        found = state.parts[key] = (list(ids), [named[i] for i in ids])
    entries: list[dict[str, Any]] = found[1]
    return entries


def _base(state: GameState) -> dict[str, Any]:
    """The spectator's view without an outcome: every key of a view in order, the parts every
    seat sees alike included. Put together once per change of the state (the host asks for a
    view per seat after every change); each view is a copy with its seat's fields set. Parts
    are new objects whenever they differ from the last change's and are never changed in
    place, so every view handed out stays a snapshot."""
    kept: dict[str, Any] | None = memo(state).get("base")
    if kept is not None:
        return kept
    cards = state.cards
    window = state.window
    names, _terrain, rivers, zones = _fixed(state)
    found = state.memo["base"] = {
        "game": "castles",
        "phase": state.phase,
        "seats": state.seats,
        "to_act": [state.active] if state.phase == "turn" else to_act(state),
        "outcome": None,
        "seat": None,
        "side": None,
        "teams": state.seats > 2,
        "names": names,
        "active": state.active,
        "turn": state.turn,
        "max_turns": state.max_turns,
        "zones": zones,
        "rivers": rivers,
        "castle_hp": [cards[CASTLE_IDS[0]].hp, cards[CASTLE_IDS[1]].hp],
        "in_play": _in_play(state),
        "hand": [],
        "hand_sizes": list(map(len, state.hands)),
        "known": {},
        "pile_sizes": list(map(len, state.piles)),
        "discard": _named(state, "discard", state.discard),
        "ambush": state.ambush,
        "trap_prompts": None,
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


def _known(state: GameState, side: int) -> dict[str, list[dict[str, Any]]]:
    """The enemy cards ``side``'s Spy revealed, by enemy seat, while they stay in that hand.
    Worked out again only when a Spy revealed cards or an enemy hand changed (a card's
    ``seen_by`` changes at a reveal, or when it leaves the hand); otherwise the last one is
    handed out.
    ``view`` asks only once a Spy has revealed cards (``GameState.reveals``)."""
    key = ("known", side)
    found = state.parts.get(key)
    enemy_hands = state.hands[1 - side :: 2]  # a card leaving a hand forgets who saw it
    if found is None or found[1] != state.reveals or found[0] != enemy_hands:
        cards = state.cards
        named = state.named
        known: dict[str, list[dict[str, Any]]] = {}
        for other in range(1 - side, state.seats, 2):  # the enemy side's seats
            shown = [named[i] for i in state.hands[other] if side in cards[i].seen_by]
            if shown:
                known[str(other)] = shown
        found = state.parts[key] = ([list(hand) for hand in enemy_hands], state.reveals, known)
    shared: dict[str, list[dict[str, Any]]] = found[2]
    return shared


def view(state: GameState, seat: int | None, outcome: dict[str, Any] | None) -> dict[str, Any]:
    """The board is open; hands, piles and the RNG are not. A seat sees its own hand and the
    enemy cards its side's Spy revealed (while they stay in that hand); never its partner's."""
    # The memo read inline and the side spelled out: this runs for every seat after every change.
    base = state.memo.get("base") if state.memo_version == state.version else None
    found = (base or _base(state)).copy()  # a C-level copy keeps the key order; 5 keys differ
    if outcome is not None:
        found["outcome"] = outcome
    if seat is not None:
        side = seat % 2  # side_of(seat)
        found["seat"] = seat
        found["side"] = side
        hand = state.hands[seat]
        kept = state.parts.get(seat)  # _named, written out
        found["hand"] = (
            kept[1] if kept is not None and kept[0] == hand else _named(state, seat, hand)
        )
        if state.reveals:  # otherwise the spectator's empty ``known`` stands (no Spy reveal yet)
            found["known"] = _known(state, side)
        found["trap_prompts"] = not state.prompts_off[seat]
    return found
