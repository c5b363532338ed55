"""Scenario tests on stacked decks: every card of the house deck does what its text says."""

from __future__ import annotations

import pytest

from engines.ambush.cards import CARDS
from engines.base import event_for
from tests.engines.ambush.ambush_support import (
    CALL,
    ENGINE,
    PASS,
    act,
    conserved,
    expose,
    find,
    grab,
    kinds,
    new_game,
    play,
    refused,
)

PLACE = "place"


def place(cell: list[int]) -> dict[str, object]:
    return {"type": PLACE, "cell": cell}


@pytest.mark.parametrize(
    ("card", "damage"),
    [("ambush", 2), ("footman", 2), ("knight", 3), ("battering_ram", 5), ("dragon", 6)],
)
def test_plain_cards_deal_their_damage(card: str, damage: int) -> None:
    state = new_game([[card], []])
    act(state, 0, expose([1, 0]))
    act(state, 0, play(card, [2, 0], 1))
    assert state.hp == [30, 30 - damage] and state.grid[(2, 0)] == card
    assert CARDS[card].damage == damage


def test_elven_archer_puts_two_unseen_cards_down_where_its_player_chooses() -> None:
    state = new_game([["elven_archer"], []], top=["footman", "dragon", "ambush", "knight"])
    act(state, 0, expose([1, 0]))
    events = act(state, 0, play("elven_archer", [2, 0], 1))
    assert state.hp[1] == 29 and state.phase == "placing" and state.placing == ["dragon", "ambush"]
    assert ENGINE.view(state, 1)["reserved"] == {"cell": [2, 0], "card": "elven_archer"}
    assert ENGINE.legal_actions(state, 0)[0] == place([1, 1])
    assert refused(state, 1, place([1, 1])) == "ambush/not_your_turn"
    # Cards must touch a card already down: the reserved cell does not count.
    assert refused(state, 0, place([3, 0])) == "ambush/cell_not_adjacent"
    assert refused(state, 0, place([2, 0])) == "ambush/cell_not_free"
    assert refused(state, 0, PASS) == "ambush/wrong_step"
    events = act(state, 0, place([1, 1]))
    assert find(events, "placed") == {
        "type": "placed",
        "seat": 0,
        "cell": [1, 1],
        "left": 1,
        "visible_to": "all",
    }
    events = act(state, 0, place([1, 2]))
    assert state.grid == {(1, 0): "footman", (1, 1): "dragon", (1, 2): "ambush",
                          (2, 0): "elven_archer"}  # fmt: skip
    assert kinds(events) == ["placed", "turn_started"] and state.turn == 1
    assert all("card" not in cell for cell in ENGINE.view(state, 0)["battlefield"])
    assert conserved(state)


def test_elven_archer_on_an_empty_battlefield_places_next_to_the_deck() -> None:
    state = new_game([["elven_archer"], []], hand_size=5)
    act(state, 0, expose([1, 0]))
    act(state, 1, CALL, 0)
    ENGINE.tick(state, 2000)  # the battlefield is shuffled back, seat 0 plays on
    assert state.grid == {} and state.step == "play"
    act(state, 0, play("elven_archer", [1, 0], 1))
    assert ENGINE.legal_actions(state, 0)[0] == place([0, 1])
    act(state, 0, place([0, 1]))
    act(state, 0, place([0, 2]))
    assert set(state.grid) == {(1, 0), (0, 1), (0, 2)}


def test_elven_archer_with_one_card_left_places_what_there_is() -> None:
    state = new_game([["elven_archer"], []], top=["footman"])
    act(state, 0, expose([1, 0]))
    state.hands[1].extend(state.deck[:-1])  # park all but one card in seat 1's hand
    del state.deck[:-1]
    act(state, 0, play("elven_archer", [2, 0], 1))
    assert len(state.placing) == 1
    act(state, 0, place([1, 1]))
    assert state.turn == 1 and state.deck == [] and conserved(state)


def test_elven_archer_with_an_empty_deck_places_nothing() -> None:
    state = new_game([["elven_archer"], []], hand_size=26, hand_limit=26)
    events = act(state, 0, play("elven_archer", [1, 0], 1))
    assert state.phase == "turn" and state.turn == 1 and "placed" not in kinds(events)


def test_fire_mage_hits_the_target_and_every_other_opponent() -> None:
    state = new_game([["fire_mage"], [], [], []])
    act(state, 0, expose([1, 0]))
    events = act(state, 0, play("fire_mage", [2, 0], 2))
    assert state.hp == [30, 29, 29, 29]
    assert [h["seat"] for h in find(events, "played")["hits"]] == [2, 1, 3]


def test_healer_restores_three_never_above_the_dial() -> None:
    state = new_game([["healer", "healer"], ["dragon"]])
    act(state, 0, expose([1, 0]))
    assert refused(state, 0, play("healer", [2, 0], 1)) == "ambush/bad_target"
    act(state, 0, play("healer", [2, 0]))
    assert state.hp[0] == 30
    act(state, 1, expose([3, 0]))
    act(state, 1, play("dragon", [4, 0], 0))
    act(state, 0, expose([5, 0]))
    events = act(state, 0, play("healer", [6, 0]))
    assert state.hp[0] == 27 and find(events, "healed")["amount"] == 3


def test_shieldbearer_wards_add_up_and_absorb_damage() -> None:
    state = new_game([["shieldbearer", "shieldbearer"], ["dragon", "knight"]])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("shieldbearer", [2, 0]))
    act(state, 1, expose([3, 0]))
    act(state, 1, play("knight", [4, 0], 0))
    assert (state.hp[0], state.ward[0]) == (30, 0)
    act(state, 0, expose([5, 0]))
    act(state, 0, play("shieldbearer", [6, 0]))
    assert ENGINE.view(state, 1)["castles"][0]["ward"] == 3
    act(state, 1, expose([7, 0]))
    events = act(state, 1, play("dragon", [8, 0], 0))
    assert (state.hp[0], state.ward[0]) == (27, 0)
    assert find(events, "played")["hits"][0]["absorbed"] == 3


def test_scout_looks_at_one_face_down_card_only_its_player_sees() -> None:
    state = new_game([["scout"], []], top=["dragon"])
    act(state, 0, expose([1, 0]))
    assert refused(state, 0, play("scout", [2, 0], 1, look=[2, 0])) == "ambush/bad_look"
    assert refused(state, 0, play("scout", [2, 0], 1)) == "ambush/bad_look"
    events = act(state, 0, play("scout", [2, 0], 1, look=[1, 0]))
    looked = find(events, "looked")
    assert event_for(looked, 0) == {"type": "looked", "seat": 0, "cell": [1, 0], "card": "dragon"}
    assert event_for(looked, 1) == {"type": "looked", "seat": 0, "cell": [1, 0]}
    assert {"cell": [1, 0], "card": "dragon"} in ENGINE.view(state, 0)["battlefield"]
    assert {"cell": [1, 0]} in ENGINE.view(state, 1)["battlefield"]
    assert {"cell": [1, 0]} in ENGINE.view(state, None)["battlefield"]


def test_scout_on_an_empty_battlefield_is_played_without_a_look() -> None:
    state = new_game([["scout"], []], hand_size=26, hand_limit=26)
    assert refused(state, 0, play("scout", [1, 0], 1, look=[1, 0])) == "ambush/bad_look"
    act(state, 0, play("scout", [1, 0], 1))
    assert state.looks[0] == {}


def test_scout_look_is_forgotten_when_the_card_moves() -> None:
    state = new_game([["scout"], []], top=["dragon", "knight"])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("scout", [2, 0], 1, look=[1, 0]))
    act(state, 1, expose([3, 0]))
    act(state, 1, CALL, 0)
    act(state, 1, grab([1, 0]), 300)
    assert all("card" not in c for c in ENGINE.view(state, 0)["battlefield"])


def test_trickster_swaps_two_cards_publicly_and_looks_follow_the_card() -> None:
    state = new_game([["scout", "trickster"], []], top=["dragon", "knight", "footman"])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("scout", [2, 0], 1, look=[1, 0]))
    act(state, 1, expose([3, 0]))
    act(state, 1, PASS)
    act(state, 0, expose([4, 0]))
    bad = play("trickster", [5, 0], 1, swap=[[1, 0], [1, 0]])
    assert refused(state, 0, bad) == "ambush/bad_swap"
    assert refused(state, 0, play("trickster", [5, 0], 1)) == "ambush/bad_swap"
    events = act(state, 0, play("trickster", [5, 0], 1, swap=[[1, 0], [3, 0]]))
    assert find(events, "swapped") == {
        "type": "swapped",
        "seat": 0,
        "cells": [[1, 0], [3, 0]],
        "visible_to": "all",
    }
    assert state.grid[(3, 0)] == "dragon" and state.grid[(1, 0)] == "knight"
    assert {"cell": [3, 0], "card": "dragon"} in ENGINE.view(state, 0)["battlefield"]
    assert {"cell": [1, 0]} in ENGINE.view(state, 0)["battlefield"]


def test_trickster_with_fewer_than_two_cards_skips_the_swap() -> None:
    state = new_game([["trickster"], []])
    act(state, 0, expose([1, 0]))
    bad = play("trickster", [2, 0], 1, swap=[[1, 0], [2, 0]])
    assert refused(state, 0, bad) == "ambush/bad_swap"
    events = act(state, 0, play("trickster", [2, 0], 1))
    assert "swapped" not in kinds(events) and state.hp[1] == 29


def test_thief_takes_a_random_card_seen_only_by_thief_and_victim() -> None:
    state = new_game([["thief"], ["dragon", "dragon", "knight", "knight", "knight"]], seats=2)
    act(state, 0, expose([1, 0]))
    assert refused(state, 0, play("thief", [2, 0])) == "ambush/bad_target"
    events = act(state, 0, play("thief", [2, 0], 1))
    stolen = find(events, "stolen")
    assert stolen["card"] in ("dragon", "knight") and stolen["visible_to"] == [0, 1]
    assert stolen["redacted"] == {"type": "stolen", "thief": 0, "victim": 1}
    assert len(state.hands[0]) == 5 and len(state.hands[1]) == 4 and state.hp == [30, 30]


def test_thief_against_an_empty_hand_takes_nothing() -> None:
    state = new_game([["thief"], []], seats=2)
    act(state, 0, expose([1, 0]))
    state.deck.extend(state.hands[1])
    state.hands[1].clear()
    events = act(state, 0, play("thief", [2, 0], 1))
    assert "stolen" not in kinds(events) and len(state.hands[0]) == 4


def _race_over(top: list[str], grabs: list[tuple[int, list[int], int]], **options: int) -> list:
    """Seat 0 exposes top[0] at (1,0), seat 1 exposes top[1] at (2,0), seat 1 calls at 0."""
    state = new_game(top=top, **options)
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, PASS)
    act(state, 0, expose([3, 0]))
    act(state, 1, CALL, 0)
    events: list = []
    for seat, cell, at in grabs:
        events = act(state, seat, grab(cell), at)
    return [state, events + ENGINE.tick(state, 10**6)]


def test_booby_trap_hurts_the_capturer_who_keeps_it() -> None:
    state, events = _race_over(["booby_trap", "ambush", "ambush"], [(0, [1, 0], 300)])
    trigger = find(events, "trigger")
    assert trigger["card"] == "booby_trap" and trigger["effect"] == "damage"
    assert state.hp == [27, 30]


def test_booby_trap_damage_is_absorbed_by_a_ward() -> None:
    state = new_game([["shieldbearer"], []], top=["ambush", "ambush", "booby_trap"])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("shieldbearer", [2, 0]))
    act(state, 1, expose([3, 0]))
    act(state, 1, PASS)
    act(state, 0, expose([4, 0]))
    act(state, 1, CALL, 0)
    act(state, 0, grab([4, 0]), 300)
    ENGINE.tick(state, 10**6)
    assert (state.hp[0], state.ward[0]) == (30, 0)


def test_booby_trap_lost_to_a_false_call_does_nothing() -> None:
    state, events = _race_over(["booby_trap", "footman", "knight"], [(1, [1, 0], 300)])
    assert find(events, "check")["penalty"] == 1 and "trigger" not in kinds(events)
    assert state.hp == [30, 30]


def test_treasure_chest_heals_the_capturer_who_keeps_it() -> None:
    state = new_game([[], ["dragon"]], top=["footman", "ambush", "treasure", "ambush"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, play("dragon", [3, 0], 0))
    act(state, 0, expose([4, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([5, 0]))
    act(state, 1, CALL, 0)
    events = act(state, 0, grab([4, 0]), 300) + ENGINE.tick(state, 10**6)
    assert find(events, "trigger")["hp_gained"] == 3 and state.hp[0] == 27
