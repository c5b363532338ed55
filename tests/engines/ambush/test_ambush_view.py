"""Views and events: the shape a client renders, and that nothing hidden leaks."""

from __future__ import annotations

import json
from typing import Any

from engines.base import events_for
from tests.engines.ambush.ambush_support import (
    CALL,
    ENGINE,
    PASS,
    act,
    expose,
    grab,
    new_game,
    play,
)

VIEW_KEYS = {
    "game", "phase", "seats", "to_act", "awaiting", "outcome", "options", "turn", "turn_number",
    "step", "deck_count", "castles", "battlefield", "exposed", "reserved", "placing_left",
    "race", "returning", "last_check", "quiet_turns",
}  # fmt: skip
CASTLE_KEYS = {"seat", "name", "hp", "ward", "alive", "resigned", "hand_count", "captured_count"}


def test_view_has_the_documented_shape() -> None:
    state = new_game([["knight"], []], top=["dragon"], names=["Orozan", "Grozan"])
    mine = ENGINE.view(state, 0)
    assert set(mine) == VIEW_KEYS | {"hand"}
    assert set(ENGINE.view(state, None)) == VIEW_KEYS  # a spectator has no hand
    assert mine["game"] == "ambush" and mine["phase"] == "turn" and mine["step"] == "expose"
    assert mine["to_act"] == [0, 1] and mine["awaiting"] == [0] and mine["outcome"] is None
    assert mine["options"] == {
        "castle_hp": 30, "hand_size": 5, "hand_limit": 10, "grab_cooldown_ms": 250,
        "ambush_idle_ms": 2000, "ambush_max_ms": 15000, "return_ms": 20000,
    }  # fmt: skip
    assert all(set(c) == CASTLE_KEYS for c in mine["castles"])
    assert mine["castles"][1]["name"] == "Grozan" and mine["deck_count"] == 42
    act(state, 0, expose([1, 0]))
    mine = ENGINE.view(state, 1)
    assert mine["exposed"] == {"cell": [1, 0], "card": "dragon", "seat": 0}
    assert mine["battlefield"] == [{"cell": [1, 0]}]
    act(state, 1, CALL, 500)
    race = ENGINE.view(state, None)["race"]
    assert race["caller"] == 1 and race["started_at"] == 500 and race["ends_at"] == 2500
    assert race["deadline"] == 2500 and race["next_free"] == [500, 500] and race["busy"] == []
    assert ENGINE.view(state, 0)["to_act"] == [0, 1] and ENGINE.view(state, 0)["awaiting"] == []
    json.dumps(ENGINE.view(state, 0))


def test_legal_actions_put_the_default_first_and_stay_bounded() -> None:
    state = new_game([["scout", "trickster", "knight"], []], seats=2)
    first = ENGINE.legal_actions(state, 0)
    assert first[0] == {"type": "expose", "cell": [1, 0]}
    assert first[-2:] == [CALL, {"type": "resign"}]
    assert ENGINE.legal_actions(state, 1) == [CALL, {"type": "resign"}]
    act(state, 0, expose([1, 0]))
    listed = ENGINE.legal_actions(state, 0)
    assert listed[0] == PASS
    assert play("scout", [1, 1], 1, look=[1, 0]) in listed
    assert play("knight", [1, 1], 1) in listed
    for action in listed:
        if action["type"] == "play":
            probe = new_game([["scout", "trickster", "knight"], []], seats=2)
            act(probe, 0, expose([1, 0]))
            act(probe, 0, action)
    full = new_game(seats=4, hands=[[], [], [], []])
    assert len(ENGINE.legal_actions(full, 0)) < 20


def test_apply_accepts_any_legal_choice_not_only_listed_ones() -> None:
    state = new_game([["scout"], []], top=["dragon", "knight", "footman"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([1, 1]))
    act(state, 1, PASS)
    act(state, 0, expose([1, -1]))
    act(state, 0, play("scout", [0, -1], 1, look=[1, 1]))
    assert state.looks[0] == {(1, 1): "knight"}


def _pair() -> tuple[Any, Any]:
    """Two games that differ only in seat 1's hand and in the two cards an Elven Archer puts
    down unseen: the same multiset is stacked, so every later shuffle is identical."""
    mine = ["elven_archer", "scout", "healer", "knight", "knight"]
    hidden_a = ["battering_ram", "footman", "footman", "dragon", "knight"]
    hidden_b = ["battering_ram", "footman", "footman", "thief", "fire_mage"]
    a = new_game([mine, hidden_a], top=["ambush", "thief", "fire_mage", "treasure", "footman"])
    b = new_game([mine, hidden_b], top=["ambush", "dragon", "knight", "treasure", "footman"])
    return a, b


SCRIPT: list[tuple[int, dict[str, Any], int]] = [
    (0, expose([1, 0]), 0),
    (0, play("elven_archer", [2, 0], 1), 0),
    (0, {"type": "place", "cell": [1, 1]}, 0),
    (0, {"type": "place", "cell": [1, -1]}, 0),
    (1, expose([3, 0]), 0),
    (1, play("battering_ram", [4, 0], 0), 0),
    (0, expose([5, 0]), 0),
    (0, play("scout", [6, 0], 1, look=[1, 0]), 0),
    (0, CALL, 100),  # a false call: the caller loses only the Ambush! both games share
    (1, grab([1, -1]), 400),
    (0, grab([1, 0]), 420),
    (1, grab([1, 1]), 700),
    (1, {"type": "tick"}, 5000),
    (1, expose([1, 0]), 5000),
]


def test_no_leak_a_seat_sees_the_same_across_games_differing_in_hidden_cards() -> None:
    a, b = _pair()
    for seat, action, at in SCRIPT:
        if action["type"] == "tick":
            events_a, events_b = ENGINE.tick(a, at), ENGINE.tick(b, at)
        else:
            events_a, events_b = act(a, seat, action, at), act(b, seat, action, at)
        for viewer in (0, None):
            assert ENGINE.view(a, viewer) == ENGINE.view(b, viewer), (action, viewer)
            assert events_for(events_a, viewer) == events_for(events_b, viewer), action
        json.dumps(ENGINE.view(a, 1))
    assert a.hands[1] != b.hands[1]  # the games really differed, for seat 1


def test_no_leak_events_for_others_drop_private_cards() -> None:
    state = new_game([["thief"], ["dragon"]], top=["knight", "ambush"])
    act(state, 0, expose([1, 0]))
    events = act(state, 0, play("thief", [2, 0], 1))
    public = events_for(events, None)
    assert [e["type"] for e in public] == ["played", "stolen", "turn_started"]
    assert public[1] == {"type": "stolen", "thief": 0, "victim": 1}
    act(state, 1, expose([3, 0]))
    act(state, 0, CALL, 0)
    events = act(state, 0, grab([1, 0]), 300) + ENGINE.tick(state, 9000)
    for e in events_for(events, 1):
        assert "cards" not in e or e["seat"] == 1
