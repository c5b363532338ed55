"""Scenario tests on stacked decks for the common cards (every card text, one by one)."""

from __future__ import annotations

import pytest

from engines.ember.cards import CARDS
from tests.engines.ember.helpers import (
    ENGINE,
    act,
    arrange,
    attack,
    deck,
    game,
    keep_mode,
    kinds,
    next_turn,
    play,
    to_play_phase,
    types,
    uid,
)

VANILLA = sorted(
    cid
    for cid, card in CARDS.items()
    if not card.effects and not card.response and card.play == "emberscape"
)


@pytest.mark.parametrize("card", VANILLA)
def test_vanilla_cards_only_bring_their_stones(card: str) -> None:
    state = game(deck(hand=[card]))
    to_play_phase(state, 0, mode="martyr")
    events = play(state, 0, card)
    assert types(events) == ["played", "resolved", "turn_started", "drew"][: len(types(events))]
    assert kinds(state, 0, "scape") == [card]
    state.players[0].collection.extend(state.players[0].scape)
    assert ENGINE.view(state, 0)["players"][0]["stones"] == CARDS[card].stones


def test_glimmer__draws_one() -> None:
    state = game(deck(hand=["glimmer"], rest=["dispel"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "glimmer")
    assert "dispel" in kinds(state, 0, "hand") and kinds(state, 0, "scape") == ["glimmer"]


def test_kindling__draws_one_then_becomes_the_mode_card() -> None:
    state = game(deck(hand=["kindling"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "kindling")
    assert kinds(state, 0, "mode_pile") == ["martyr", "kindling"]
    assert ENGINE.view(state, 0)["players"][0]["mode"] == "hasty"


def test_ember_cache__goes_straight_to_the_collection_pile() -> None:
    state = game(deck(hand=["ember_cache"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "ember_cache")
    assert kinds(state, 0, "collection") == ["ember_cache"]
    assert ENGINE.view(state, 1)["players"][0]["known_stones"] == 2


def test_seductress__adds_a_hand_card_without_its_effects() -> None:
    state = game(deck(hand=["seductress", "lethal_assassin"]))
    arrange(state, 1, scape=["ember_cluster"])
    to_play_phase(state, 0, mode="martyr")
    assassin = uid(state, 0, "lethal_assassin")
    events = play(state, 0, "seductress", choice=assassin)
    assert "window_opened" not in types(events) and "destroy_scape" not in types(events)
    assert kinds(state, 0, "scape") == ["seductress", "lethal_assassin"]
    assert len(state.players[1].scape) == 1


def test_seductress__may_add_nothing() -> None:
    state = game(deck(hand=["seductress"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "seductress")
    assert kinds(state, 0, "scape") == ["seductress"]


def test_thief_in_the_night__steals_from_the_emberscape_then_is_discarded() -> None:
    state = game(deck(hand=["thief_in_the_night"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = attack(state, "thief_in_the_night", "golden_hoard")
    assert target in state.players[0].hand and not state.players[1].scape
    assert kinds(state, 0, "discard") == ["thief_in_the_night"]


def test_lethal_assassin__destroys_to_the_discard_pile() -> None:
    state = game(deck(hand=["lethal_assassin"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = attack(state, "lethal_assassin", "golden_hoard")
    assert state.players[1].discard == [target]
    assert kinds(state, 0, "scape") == ["lethal_assassin"]


def test_martyr__stops_an_attack_and_is_discarded_or_plays_as_a_stone() -> None:
    state = game(deck(hand=["cleave"]), deck(hand=["martyr", "martyr"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = uid(state, 1, "golden_hoard", "scape")
    play(state, 0, "cleave", target_seat=1, target_card=target)
    act(state, 1, {"type": "respond", "card": uid(state, 1, "martyr")})
    act(state, 0, {"type": "pass"})
    assert target in state.players[1].scape and kinds(state, 1, "discard") == ["martyr"]
    next_turn(state, 1)
    assert kinds(state, 1, "scape") == ["golden_hoard", "ember_shard"]


def test_shrouded_snare__face_down_then_answers_with_protection() -> None:
    state = game(deck(hand=["archers_mark"]), deck(hand=["shrouded_snare"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "ember_shard")
    to_play_phase(state, 1, mode="glimmer")
    play(state, 1, "shrouded_snare")
    snare = uid(state, 1, "shrouded_snare", "scape")
    assert state.players[1].face_down == [snare]
    arrange(state, 1, scape=["golden_hoard"])
    keep_mode(state, 0)
    target = uid(state, 1, "golden_hoard", "scape")
    play(state, 0, "archers_mark", target_seat=1, target_card=target)
    assert {"type": "respond", "card": snare} in ENGINE.legal_actions(state, 1)
    act(state, 1, {"type": "respond", "card": snare})
    act(state, 0, {"type": "pass"})
    assert target in state.players[1].scape
    assert state.players[1].mode_pile[-1] == snare and snare not in state.players[1].scape
    assert ENGINE.view(state, 0)["players"][1]["mode"] == "protection"


def test_veiled_cache__hidden_untouchable_and_collected_unseen() -> None:
    state = game(deck(hand=["veiled_cache"]), deck(hand=["lethal_assassin"]))
    to_play_phase(state, 0, mode="martyr")
    arrange(state, 0, scape=["ember_cluster"] * 4)
    play(state, 0, "veiled_cache")
    seen = ENGINE.view(state, 1)["players"][0]["scape"]
    assert [card["face_down"] for card in seen] == [False] * 4 + [True]
    assert "card" not in seen[-1]
    to_play_phase(state, 1, mode="glimmer")
    assassin = uid(state, 1, "lethal_assassin")
    hidden = uid(state, 0, "veiled_cache", "scape")
    assert all(a.get("target_card") != hidden for a in ENGINE.legal_actions(state, 1))
    play(state, 1, "ember_shard")
    # Seat 0's collection phase collects all five; opponents never learn the hidden stones.
    assert len(state.players[0].collection) == 5 and assassin in state.players[1].hand
    assert ENGINE.view(state, 1)["players"][0]["known_stones"] == 3 * 4
    assert ENGINE.view(state, 0)["players"][0]["stones"] == 3 * 4 + 2


def test_dispel__cancels_every_effect_of_an_attack_card() -> None:
    state = game(deck(hand=["blade_dancer"]), deck(hand=["dispel"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "blade_dancer")  # no attack: no window, nothing to dispel
    assert state.turn == 1
    state = game(deck(hand=["pickpocket"]), deck(hand=["dispel"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "pickpocket", target_seat=1)
    act(state, 1, {"type": "respond", "card": uid(state, 1, "dispel")})
    events = act(state, 0, {"type": "pass"})
    assert "cancelled" in types(events) and "steal_hand" not in types(events)
    assert len(state.players[1].hand) == 4 and kinds(state, 1, "discard") == ["dispel"]
