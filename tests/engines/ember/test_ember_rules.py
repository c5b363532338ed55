"""Rule tests, first part: setup and the five turn phases (rulebook clause in each docstring)."""

from __future__ import annotations

from tests.engines.ember.helpers import (
    ENGINE,
    act,
    arrange,
    deck,
    game,
    kinds,
    play,
    refused,
    to_play_phase,
    types,
    uid,
)


def test_setup_four_arcane_cards_from_the_top_then_a_five_card_hand() -> None:
    """Setup: "Place 4 cards from the top of your deck face down... Draw 5 cards"."""
    cards = deck(arcane=["glimmer"] * 4, hand=["martyr"] * 5, rest=["dispel"])
    state = game(cards)
    assert kinds(state, 0, "arcane") == ["glimmer"] * 4
    assert kinds(state, 0, "hand") == ["martyr"] * 5
    assert kinds(state, 0, "deck")[0] == "dispel"
    assert len(state.players[0].deck) == len(cards) - 9
    assert state.players[0].scape == state.players[0].collection == []


def test_getting_started_each_player_selects_a_different_hero() -> None:
    """Getting started: "Each player selects a different hero's deck"."""
    state = ENGINE.setup(2, 5, {"first_seat": 1})
    assert state.phase == "hero" and ENGINE.to_act(state) == {1}
    act(state, 1, {"type": "hero", "hero": "rowl"})
    refused(state, 0, {"type": "hero", "hero": "rowl"}, "ember/hero_taken")
    assert {"type": "hero", "hero": "rowl"} not in ENGINE.legal_actions(state, 0)
    act(state, 0, {"type": "hero", "hero": "yvera"})
    assert [p.hero for p in state.players] == ["yvera", "rowl"]
    assert state.phase == "mode" and state.turn == 1
    # Each deck is that hero's: 30 cards, four arcane, five in hand.
    assert all(len(p.deck) + len(p.hand) + len(p.arcane) == 30 for p in state.players)


def test_play_proceeds_to_the_player_on_the_left() -> None:
    """Playing the game: "After a player's turn ends, play proceeds to the player on the left"."""
    state = game(seats=3, first_seat=1)
    seen = []
    for _ in range(4):
        seat = state.turn
        seen.append(seat)
        to_play_phase(state, seat)
        play(state, seat, "ember_shard")
    assert seen == [1, 2, 0, 1]
    assert state.round == 2


def test_collection_phase_collects_a_full_emberscape_and_plays_an_arcane_card() -> None:
    """Collection phase: "If your emberscape is full, collect all of the cards... If you
    successfully collect your entire emberscape... flip over and play an arcane card"."""
    state = game(deck(arcane=["glimmer"]))
    to_play_phase(state, 0)
    arrange(state, 0, scape=["ember_cluster"] * 4)
    play(state, 0, "ember_shard")
    assert len(state.players[0].scape) == 5 and state.turn == 1
    to_play_phase(state, 1)
    events = play(state, 1, "ember_shard")
    assert "collected" in types(events) and "arcane_revealed" in types(events)
    assert kinds(state, 0, "collection") == ["ember_cluster"] * 4 + ["ember_shard"]
    # The arcane Glimmer was played into the fresh emberscape and its effect drew a card.
    assert kinds(state, 0, "scape") == ["glimmer"]
    assert len(state.players[0].arcane) == 3
    assert state.phase == "mode" and state.turn == 0


def test_collection_phase_is_skipped_when_the_emberscape_is_not_full() -> None:
    """Collection phase: "If your emberscape is not full, skip this phase"."""
    state = game()
    to_play_phase(state, 0)
    arrange(state, 0, scape=["ember_cluster"] * 3)
    play(state, 0, "ember_shard")
    to_play_phase(state, 1)
    events = play(state, 1, "ember_shard")
    assert "collected" not in types(events)
    assert len(state.players[0].scape) == 4 and len(state.players[0].arcane) == 4


def test_hasty_mode_collects_at_three_cards() -> None:
    """Hasty mode: "collected during the collection phase when there are at least 3 cards"."""
    state = game()
    to_play_phase(state, 0, mode="ember_shard")  # Ember Shard carries the hasty symbol
    arrange(state, 0, scape=["ember_cluster"] * 2)
    play(state, 0, "ember_shard")
    to_play_phase(state, 1)
    play(state, 1, "ember_shard")
    assert len(state.players[0].collection) == 3
    assert kinds(state, 0, "scape") == ["golden_hoard"]  # the arcane card just played


def test_mode_phase_an_empty_mode_pile_must_get_a_mode_card() -> None:
    """Mode phase: "You may choose to skip the mode phase, unless your mode pile is empty"."""
    state = game(deck(hand=["lethal_assassin"]))
    refused(state, 0, {"type": "pass"}, "ember/must_choose_mode")
    assert all(a["type"] != "pass" for a in ENGINE.legal_actions(state, 0))
    card = uid(state, 0, "lethal_assassin")
    events = act(state, 0, {"type": "mode", "card": card})
    # "When a card is placed onto the mode pile, do not activate that card's effects."
    assert types(events)[:2] == ["mode_set", "drew"]
    assert state.players[0].mode_pile == [card]
    assert ENGINE.view(state, 0)["players"][0]["mode"] == "attack"


def test_mode_phase_may_be_skipped_and_the_new_mode_applies_at_once() -> None:
    """Mode phase: "Your mode immediately changes to the mode on the new mode card"."""
    state = game(deck(), deck(hand=["glimmer"]))
    to_play_phase(state, 0)
    play(state, 0, "ember_shard")
    arrange(state, 1, mode=["martyr"])
    assert ENGINE.legal_actions(state, 1)[0] == {"type": "pass"}
    act(state, 1, {"type": "mode", "card": uid(state, 1, "glimmer")})
    # Greedy took effect in this very turn's draw phase: two cards drawn.
    assert len(state.players[1].hand) == 4 + 2


def test_mode_phase_empty_hand_and_mode_pile_take_the_top_card_of_the_deck() -> None:
    """Mode phase: "If your mode pile is empty, and you have no cards in your hand, place the
    top card of your deck into your mode pile during this phase"."""
    state = game(deck(), deck(rest=["war_cry", "glimmer"]))
    to_play_phase(state, 0)
    state.players[1].hand.clear()
    events = play(state, 0, "ember_shard")
    forced = next(e for e in events if e["type"] == "mode_set")
    assert forced["forced"] and forced["card"] == "war_cry"
    assert kinds(state, 1, "mode_pile") == ["war_cry"]
    # War Cry's effects were not activated; attack mode draws one card: the Glimmer.
    assert state.phase == "play" and kinds(state, 1, "hand") == ["glimmer"]


def test_draw_phase_draws_one_and_greedy_draws_two() -> None:
    """Draw phase: "Draw 1 card"; Greedy mode: "Draw two cards instead of one"."""
    state = game()
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "ember_shard")
    to_play_phase(state, 1, mode="martyr")
    assert len(state.players[1].hand) == 6
    play(state, 1, "ember_shard")
    to_play_phase(state, 0, mode="glimmer")
    assert len(state.players[0].hand) == 4 + 2


def test_the_first_player_skips_the_first_draw() -> None:
    """House rule (the rulebook is silent on who starts): the first player of the game does
    not draw in its first draw phase, which evens out the first player's edge in bot games."""
    state = game(first_seat=1)
    to_play_phase(state, 1, mode="martyr")
    assert len(state.players[1].hand) == 5
    play(state, 1, "ember_shard")
    to_play_phase(state, 0, mode="martyr")
    assert len(state.players[0].hand) == 6


def test_play_phase_a_card_must_be_played() -> None:
    """Play phase: "If it is possible to play a card during your play phase, you must"."""
    state = game()
    to_play_phase(state, 0)
    refused(state, 0, {"type": "pass"}, "ember/wrong_phase")
    assert all(a["type"] in ("play", "resign") for a in ENGINE.legal_actions(state, 0))


def test_play_phase_no_playable_card_shows_the_hand_and_ends_the_phase() -> None:
    """Play phase: "If there are no cards in your hand that can be played... show your hand
    to your opponent, and end your play phase"; Full emberscape: "you may not play another
    card that would be played into the emberscape"."""
    state = game()
    arrange(state, 0, scape=["ember_cluster"] * 5, mode=["martyr"])
    refused(state, 0, {"type": "play", "card": uid(state, 0, "ember_shard")}, "ember/wrong_phase")
    events = act(state, 0, {"type": "pass"})
    shown = next(e for e in events if e["type"] == "hand_shown")
    assert shown["visible_to"] == "all" and len(shown["cards"]) == 5
    assert state.turn == 1 and len(state.players[0].scape) == 5


def test_full_emberscape_refuses_a_card_that_would_land_there() -> None:
    """Full emberscape: "If there are 5 cards in your emberscape, you may not play another
    card that would be played into the emberscape"."""
    state = game(deck(hand=["kindling"]))
    to_play_phase(state, 0, mode="martyr")
    arrange(state, 0, scape=["ember_cluster"] * 5)
    refused(state, 0, {"type": "play", "card": uid(state, 0, "ember_shard")}, "ember/no_room")
    assert [a["card"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "play"] == [
        uid(state, 0, "kindling")
    ]


def test_play_phase_is_skipped_with_an_empty_hand() -> None:
    """Play phase: "If you have no cards in your hand, skip your play phase"."""
    state = game()
    arrange(state, 0, mode=["martyr"])
    state.players[0].hand.clear()
    state.players[0].deck.clear()
    act(state, 0, {"type": "pass"})
    assert state.turn == 1 and state.players[0].scape == []


def test_end_phase_an_empty_hand_draws_two() -> None:
    """End phase: "If you have no cards in your hand, draw 2 cards"."""
    state = game()
    to_play_phase(state, 0)
    play(state, 0, "ember_shard")
    arrange(state, 1, mode=["martyr"])
    state.players[1].hand.clear()
    act(state, 1, {"type": "pass"})
    assert len(state.players[1].hand) == 1
    events = play(state, 1, "ember_cluster")
    assert next(e["count"] for e in events if e["type"] == "drew") == 2
    assert len(state.players[1].hand) == 2 and state.turn == 0


def test_end_phase_discards_down_to_the_hand_limit_of_nine() -> None:
    """End phase: "The hand limit in Ember is 9 cards... discard down to the limit"."""
    state = game()
    arrange(state, 0, hand=["ember_cluster"] * 7)
    to_play_phase(state, 0, mode="martyr")
    assert len(state.players[0].hand) == 12
    play(state, 0, "ember_shard")
    assert state.phase == "discard" and ENGINE.to_act(state) == {0}
    act(state, 0, {"type": "discard", "card": uid(state, 0, "ember_cluster")})
    assert state.phase == "discard"
    act(state, 0, {"type": "discard", "card": uid(state, 0, "ember_cluster")})
    assert len(state.players[0].hand) == 9 and state.turn == 1
    assert kinds(state, 0, "discard") == ["ember_cluster"] * 2


def test_attack_mode_collects_as_soon_as_the_emberscape_is_full_after_effects() -> None:
    """Attack mode: "Collect the cards in your emberscape as soon as it is full (during your
    turn)... Activate any played cards' effects before collecting"."""
    state = game(deck(hand=["glimmer"], arcane=["ember_shard"]))
    to_play_phase(state, 0, mode="lethal_assassin")
    arrange(state, 0, scape=["ember_cluster"] * 4)
    events = play(state, 0, "glimmer")
    order = types(events)
    assert order.index("drew") < order.index("collected")
    assert len(state.players[0].collection) == 5
    # House reading: this collection earns an arcane card, as in the collection phase.
    assert kinds(state, 0, "scape") == ["ember_shard"] and len(state.players[0].arcane) == 3
    assert state.turn == 1
