"""What one seat (or a spectator) may see of an Ember match."""

from __future__ import annotations

from typing import Any

from engines.ember.cards import CARDS
from engines.ember.seen import Seen
from engines.ember.state import EmberState, Player, stones


def _facts(player: Player) -> tuple[Any, ...]:
    """Everything a player's entry shows, as live references (compared by value, not kept).

    The lists come last, in the order ``_seen`` reads them back: scape, face_down,
    collection, hidden_collected, discard.
    """
    pile = player.mode_pile
    return (
        player.hero,
        player.name,
        player.resigned,
        len(player.deck),
        len(player.hand),
        len(player.arcane),
        pile[-1] if pile else None,
        len(pile),
        player.scape,
        player.face_down,
        player.collection,
        player.hidden_collected,
        player.discard,
    )


def _scape(state: EmberState, player: Player, owner_sees: bool) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for uid in player.scape:
        if uid in player.face_down:
            card: dict[str, Any] = {"uid": uid, "face_down": True}
            if owner_sees:
                card["card"] = state.kinds[uid]
        else:
            card = {"uid": uid, "card": state.kinds[uid], "face_down": False}
        cards.append(card)
    return cards


def _seen(state: EmberState, owner: int) -> Seen:
    """The owner's view parts, rebuilt when its facts changed since they were built."""
    kept = state.seen
    while len(kept) <= owner:
        kept.append(Seen())
    seen = kept[owner]
    player = state.players[owner]
    facts = _facts(player)
    old = seen.facts
    if old == facts:
        return seen
    kinds = state.kinds
    if old is None or old[8] != player.scape or old[9] != player.face_down:
        seen.scape = _scape(state, player, False)
        seen.own_scape = None
    if old is None or old[10] != player.collection or old[11] != player.hidden_collected:
        public = [u for u in player.collection if u not in player.hidden_collected]
        seen.known_stones = stones(state, public)
        seen.stones = stones(state, player.collection)
    if old is None or old[12] != player.discard:
        seen.discard = [kinds[uid] for uid in player.discard]
    # Copies of the lists: the live ones change under the kept facts.
    seen.facts = (
        *facts[:8],
        list(player.scape),
        list(player.face_down),
        list(player.collection),
        list(player.hidden_collected),
        list(player.discard),
    )
    pile = player.mode_pile
    seen.public = {
        "seat": owner,
        "name": player.name,
        "hero": player.hero,
        "resigned": player.resigned,
        "mode": CARDS[kinds[pile[-1]]].mode if pile else None,
        "mode_card": kinds[pile[-1]] if pile else None,
        "mode_pile": len(pile),
        "deck": len(player.deck),
        "hand": len(player.hand),
        "arcane": len(player.arcane),
        "scape": seen.scape,
        "collection": len(player.collection),
        "known_stones": seen.known_stones,
        "discard": seen.discard,
    }
    seen.own = None
    return seen


def _own_entry(state: EmberState, owner: int, seen: Seen) -> dict[str, Any]:
    """The player's own entry: its face-down cards named, and its collection's total."""
    if seen.own is None:
        player = state.players[owner]
        own = dict(seen.public)
        if player.face_down:
            if seen.own_scape is None:
                seen.own_scape = _scape(state, player, True)
            own["scape"] = seen.own_scape
        own["stones"] = seen.stones
        seen.own = own
    return seen.own


def _hand(state: EmberState, seen: Seen, hand: list[int]) -> list[dict[str, Any]]:
    if seen.hand != hand:
        seen.hand = list(hand)
        seen.hand_view = [{"uid": u, "card": state.kinds[u]} for u in hand]
    return seen.hand_view


def _stack_item(state: EmberState, item: dict[str, Any], seat: int | None) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "role": item["role"],
        "seat": item["seat"],
        "uid": item["uid"],
        "card": state.kinds[item["uid"]],
        "target_seat": item["target_seat"],
        "target_card": item["target_card"],
        "answers": item["answers"],
        "cancelled": item["cancelled"],
        "stopped": item["stopped"],
    }
    player = state.players[item["seat"]]
    if item["uid"] in player.face_down and seat != item["seat"]:
        del shown["card"]
    if seat == item["seat"]:
        # The own-card choice may name a hidden card (rune swap), so only its player sees it.
        shown["choice"] = item["choice"]
    return shown


def refresh(state: EmberState, to_act: list[int], outcome: Any) -> None:
    """Bring the parts every view shares up to date with the state: once per change (when
    ``state.version`` moved), not once per seat. ``to_act`` and ``outcome`` as the engine
    reports them."""
    for owner in range(state.seats):
        _seen(state, owner)
    window = None
    if state.window is not None:
        window = {
            "seat": state.window["seat"],
            "deadline": state.window["opened_ms"] + state.response_ms,
        }
    arcane_card = None
    if state.phase == "arcane":
        uid = state.players[state.turn].arcane[0]
        arcane_card = {"uid": uid, "card": state.kinds[uid]}
    # Every key in view order; ``view`` fills in the seat's own (you, players, stack).
    state.shared = {
        "game": "ember",
        "phase": state.phase,
        "seats": state.seats,
        "to_act": to_act,
        "outcome": outcome,
        "you": None,
        "turn": state.turn,
        "round": state.round,
        "max_rounds": state.max_rounds,
        "players": [seen.public for seen in state.seen[: state.seats]],
        "stack": [],
        "window": window,
        "choosing": list(state.choosing),
        "arcane_card": arcane_card,
    }
    state.seen_version = state.version


def view(state: EmberState, seat: int | None) -> dict[str, Any]:
    """The seat's view: its own hand and face-down cards, every public area, counts of the rest.

    Never shown: another seat's hand or face-down cards, any deck order, arcane cards, the
    hidden part of a collection pile, or the RNG. Call ``refresh`` first after a change. All
    but the top-level dict is shared with other views (see ``Seen``): read it, never change it.
    """
    result = state.shared.copy()  # a C-level copy keeps the key order
    if state.stack:
        result["stack"] = [_stack_item(state, item, seat) for item in state.stack]
    if seat is not None:
        kept = state.seen[seat]
        players = list(result["players"])
        players[seat] = _own_entry(state, seat, kept)
        result["you"] = seat
        result["players"] = players
        result["hand"] = _hand(state, kept, state.players[seat].hand)
    return result
