"""What one seat (or a spectator) may see of an Ember match."""

from __future__ import annotations

from typing import Any

from engines.ember.state import EmberState, mode_of, stones


def _scape(state: EmberState, owner: int, seat: int | None) -> list[dict[str, Any]]:
    player = state.players[owner]
    cards: list[dict[str, Any]] = []
    for uid in player.scape:
        if uid in player.face_down:
            card: dict[str, Any] = {"uid": uid, "face_down": True}
            if seat == owner:
                card["card"] = state.kinds[uid]
        else:
            card = {"uid": uid, "card": state.kinds[uid], "face_down": False}
        cards.append(card)
    return cards


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


def view(state: EmberState, seat: int | None, to_act: list[int], outcome: Any) -> dict[str, Any]:
    """The seat's view: its own hand and face-down cards, every public area, counts of the rest.

    Never shown: another seat's hand or face-down cards, any deck order, arcane cards, the
    hidden part of a collection pile, or the RNG.
    """
    players: list[dict[str, Any]] = []
    for owner, player in enumerate(state.players):
        public_collected = [u for u in player.collection if u not in player.hidden_collected]
        entry: dict[str, Any] = {
            "seat": owner,
            "name": player.name,
            "hero": player.hero,
            "resigned": player.resigned,
            "mode": mode_of(state, owner) if state.kinds else None,
            "mode_card": state.kinds[player.mode_pile[-1]] if player.mode_pile else None,
            "mode_pile": len(player.mode_pile),
            "deck": len(player.deck),
            "hand": len(player.hand),
            "arcane": len(player.arcane),
            "scape": _scape(state, owner, seat),
            "collection": len(player.collection),
            "known_stones": stones(state, public_collected),
            "discard": [state.kinds[uid] for uid in player.discard],
        }
        if seat == owner:
            entry["stones"] = stones(state, player.collection)
        players.append(entry)
    window = None
    if state.window is not None:
        window = {
            "seat": state.window["seat"],
            "deadline": state.window["opened_ms"] + state.response_ms,
        }
    result: dict[str, Any] = {
        "game": "ember",
        "phase": state.phase,
        "seats": state.seats,
        "to_act": to_act,
        "outcome": outcome,
        "you": seat,
        "turn": state.turn,
        "round": state.round,
        "max_rounds": state.max_rounds,
        "players": players,
        "stack": [_stack_item(state, item, seat) for item in state.stack],
        "window": window,
        "choosing": list(state.choosing),
        "arcane_card": None,
    }
    if state.phase == "arcane":
        result["arcane_card"] = {
            "uid": state.players[state.turn].arcane[0],
            "card": state.kinds[state.players[state.turn].arcane[0]],
        }
    if seat is not None:
        result["hand"] = [{"uid": u, "card": state.kinds[u]} for u in state.players[seat].hand]
    return result
