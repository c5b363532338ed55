"""Rule tests: one per clause of the Ambush! rulebook (v2.1) and the house reading of it."""

from __future__ import annotations

import pytest

from engines.ambush.cards import DECK_SIZE
from engines.base import InvalidAction
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


def test_rule_objective_two_to_four_players() -> None:
    for seats in (2, 3, 4):
        assert ENGINE.setup(seats, 1).seats == seats
    for seats in (1, 5):
        with pytest.raises(InvalidAction) as error:
            ENGINE.setup(seats, 1)
        assert error.value.code == "ambush/bad_seats"


def test_rule_setup_2_shuffle_and_deal_five_cards_each() -> None:
    state = ENGINE.setup(4, 7)
    assert [len(h) for h in state.hands] == [5, 5, 5, 5]
    assert len(state.deck) == DECK_SIZE - 20
    assert conserved(state)
    assert ENGINE.setup(4, 8).deck != state.deck  # the seed shuffles


def test_rule_setup_4_every_castle_dial_at_30() -> None:
    state = ENGINE.setup(3, 1)
    assert state.hp == [30, 30, 30]
    assert ENGINE.setup(2, 1, {"castle_hp": 12}).hp == [12, 12]


def test_rule_setup_5_best_name_goes_first_else_seeded_draw() -> None:
    assert ENGINE.setup(3, 1, {"first_seat": 2}).turn == 2
    drawn = {ENGINE.setup(4, seed).turn for seed in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert ENGINE.setup(4, 5).turn == ENGINE.setup(4, 5).turn
    names = ["Orozan", "Grozan"]
    view = ENGINE.view(ENGINE.setup(2, 1, {"names": names}), None)
    assert [c["name"] for c in view["castles"]] == names


def test_rule_turn_1_expose_shows_the_top_card_to_everyone_then_face_down() -> None:
    state = new_game(top=["dragon"])
    events = act(state, 0, expose([1, 0]))
    shown = find(events, "exposed")
    assert shown["card"] == "dragon" and shown["visible_to"] == "all"
    assert state.grid == {(1, 0): "dragon"}
    assert ENGINE.view(state, 1)["battlefield"] == [{"cell": [1, 0]}]


def test_rule_turn_1_first_card_goes_next_to_the_deck() -> None:
    state = new_game()
    assert refused(state, 0, expose([2, 0])) == "ambush/cell_not_adjacent"
    assert refused(state, 0, expose([0, 0])) == "ambush/cell_not_free"
    act(state, 0, expose([0, -1]))


def test_rule_turn_1_later_cards_go_next_to_another_card() -> None:
    state = new_game()
    act(state, 0, expose([1, 0]))
    assert refused(state, 0, play("footman", [-1, 0], 1)) == "ambush/cell_not_adjacent"
    assert refused(state, 0, play("footman", [1, 0], 1)) == "ambush/cell_not_free"
    act(state, 0, play("footman", [1, 1], 1))
    assert set(state.grid) == {(1, 0), (1, 1)}


def test_rule_turn_1a_exposing_is_not_drawing_and_carries_out_no_text() -> None:
    state = new_game(top=["elven_archer", "booby_trap"])
    act(state, 0, expose([1, 0]))
    assert state.phase == "turn" and state.step == "play"
    assert len(state.hands[0]) == 5 and state.placing == []
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    assert state.hp == [30, 30]


def test_rule_turn_1b_empty_deck_skips_the_expose_step() -> None:
    state = new_game(hand_size=26, hand_limit=26)  # every card dealt: the deck is empty
    assert state.deck == [] and (state.turn, state.step) == (0, "play")
    assert refused(state, 0, expose([1, 0])) == "ambush/wrong_step"
    assert ENGINE.legal_actions(state, 0)[0] == PASS
    act(state, 0, play("footman", [1, 0], 1))
    assert (state.turn, state.step) == (1, "play")


def test_rule_turn_2_expose_comes_before_play() -> None:
    state = new_game()
    assert refused(state, 0, play("footman", [1, 0], 1)) == "ambush/wrong_step"
    assert refused(state, 0, PASS) == "ambush/wrong_step"
    assert refused(state, 1, expose([1, 0])) == "ambush/not_your_turn"


def test_rule_turn_2a_damage_to_a_chosen_opponent() -> None:
    state = new_game([["knight"], []], seats=2)
    act(state, 0, expose([1, 0]))
    assert refused(state, 0, play("knight", [2, 0], 0)) == "ambush/bad_target"
    assert refused(state, 0, play("knight", [2, 0])) == "ambush/bad_target"
    assert refused(state, 0, play("dragon", [2, 0], 1)) == "ambush/card_not_in_hand"
    events = act(state, 0, play("knight", [2, 0], 1))
    assert state.hp == [30, 27]
    assert find(events, "played")["hits"] == [{"seat": 1, "absorbed": 0, "hp_lost": 3, "hp": 27}]


def test_rule_turn_2b_card_text_is_carried_out() -> None:
    state = new_game([["fire_mage"], [], []], seats=3)
    act(state, 0, expose([1, 0]))
    act(state, 0, play("fire_mage", [2, 0], 1))
    assert state.hp == [30, 29, 29]


def test_rule_turn_2c_played_card_goes_face_down_next_to_a_card() -> None:
    state = new_game([["dragon"], []])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("dragon", [1, -1], 1))
    assert state.grid[(1, -1)] == "dragon" and "dragon" not in state.hands[0]
    assert ENGINE.view(state, 1)["battlefield"][1] == {"cell": [1, -1]}


def test_rule_turn_2d_a_player_may_skip_the_play() -> None:
    state = new_game()
    act(state, 0, expose([1, 0]))
    events = act(state, 0, PASS)
    assert kinds(events) == ["passed", "turn_started"]
    assert state.turn == 1 and len(state.hands[0]) == 5


def test_rule_ambush_1a_call_valid_with_two_exposed_ambush_cards() -> None:
    state = new_game(top=["ambush", "ambush"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 0, CALL, 100)
    act(state, 0, grab([1, 0]), 400)
    events = act(state, 1, grab([2, 0]), 450)
    check = find(events, "check")
    assert check["valid"] and check["counts"] == [1, 1] and check["penalty"] == 0
    assert state.hands[0].count("ambush") == 1 and state.hands[1].count("ambush") == 1


def test_rule_ambush_1b_call_valid_with_played_ambush_cards() -> None:
    state = new_game([["ambush"], ["ambush"]])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("ambush", [2, 0], 1))
    act(state, 1, expose([3, 0]))
    act(state, 1, play("ambush", [4, 0], 0))
    act(state, 1, CALL, 10)
    events = ENGINE.tick(state, 10 + 2000)
    assert find(events, "check")["valid"] and find(events, "check")["left"] == 2


def test_rule_ambush_1c_call_valid_with_ambush_cards_put_down_by_an_effect() -> None:
    state = new_game([["elven_archer"], []], top=["footman", "ambush", "ambush"])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("elven_archer", [2, 0], 1))
    act(state, 0, {"type": "place", "cell": [1, 1]})
    act(state, 0, {"type": "place", "cell": [1, -1]})
    act(state, 1, CALL, 5)
    events = ENGINE.tick(state, 5 + 2000)
    assert find(events, "check")["valid"]


def test_rule_ambush_2_any_player_may_call_out_of_turn() -> None:
    state = new_game(seats=3, hands=[[], [], []])
    act(state, 0, expose([1, 0]))
    assert {"type": "call_ambush"} in ENGINE.legal_actions(state, 2)
    events = act(state, 2, CALL, 50)
    assert find(events, "ambush_called")["seat"] == 2 and state.phase == "ambush"


def test_rule_ambush_2a_no_grab_before_the_call() -> None:
    state = new_game()
    act(state, 0, expose([1, 0]))
    assert refused(state, 1, grab([1, 0]), 10) == "ambush/no_race"
    act(state, 0, CALL, 100)
    assert refused(state, 1, grab([1, 0]), 99) == "ambush/before_call"


def test_rule_ambush_2b_no_call_while_archer_places() -> None:
    state = new_game([["elven_archer"], []])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("elven_archer", [2, 0], 1))
    assert state.phase == "placing"
    assert refused(state, 1, CALL) == "ambush/call_refused"
    assert refused(state, 0, CALL) == "ambush/call_refused"
    assert {"type": "call_ambush"} not in ENGINE.legal_actions(state, 1)
    act(state, 0, {"type": "place", "cell": [1, 1]})
    assert refused(state, 1, CALL) == "ambush/call_refused"
    act(state, 0, {"type": "place", "cell": [1, -1]})
    act(state, 1, CALL)


def test_rule_ambush_3_every_player_captures() -> None:
    state = new_game(seats=3, hands=[[], [], []], top=["ambush", "ambush"])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("footman", [2, 0], 1))
    act(state, 1, expose([3, 0]))
    act(state, 2, CALL, 0)
    for seat, cell in ((0, [1, 0]), (1, [2, 0]), (2, [3, 0])):
        act(state, seat, grab(cell), 300)
    assert state.phase == "turn" and [len(h) for h in state.hands] == [5, 6, 6]


def test_rule_ambush_3a_captured_cards_stay_face_down_in_a_separate_pile() -> None:
    state = new_game(top=["dragon", "knight"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, CALL, 0)
    events = act(state, 1, grab([1, 0]), 300)
    grabbed = find(events, "grabbed")
    assert "card" not in grabbed and grabbed["visible_to"] == "all"
    mine = ENGINE.view(state, 1)
    assert mine["castles"][1]["captured_count"] == 1 and "dragon" not in mine["hand"]
    assert len(state.hands[1]) == 5


def test_rule_ambush_3b_one_card_at_a_time() -> None:
    state = new_game(top=["dragon", "knight"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    assert refused(state, 0, grab([2, 0]), 549) == "ambush/hand_busy"
    act(state, 0, grab([2, 0]), 550)


def test_rule_ambush_3c_one_hand_means_the_cooldown_applies_per_player() -> None:
    state = new_game(top=["dragon", "knight"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    act(state, 1, grab([2, 0]), 301)  # the other player's hand is free


def test_rule_ambush_3d_no_taking_back_and_no_taking_from_others() -> None:
    state = new_game(top=["dragon", "knight", "footman"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    assert refused(state, 1, grab([1, 0]), 320) == "ambush/empty_cell"
    assert refused(state, 1, {"type": "place", "cell": [1, 0]}, 600) == "ambush/wrong_step"


def test_rule_ambush_4_false_call_costs_the_caller_its_captured_cards() -> None:
    state = new_game(top=["ambush", "dragon", "knight"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, PASS)
    act(state, 0, expose([3, 0]))
    act(state, 1, CALL, 0)
    act(state, 1, grab([2, 0]), 300)
    act(state, 0, grab([1, 0]), 310)
    events = act(state, 1, grab([3, 0]), 600)
    check = find(events, "check")
    assert not check["valid"] and check["penalty"] == 2 and check["counts"] == [1, 0]
    assert len(state.hands[1]) == 5 and "ambush" in state.hands[0]
    assert conserved(state)


def test_rule_ambush_5_captured_cards_join_the_hand_and_leftovers_go_back() -> None:
    state = new_game(top=["ambush", "ambush", "knight"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, PASS)
    act(state, 0, expose([3, 0]))
    deck_before = len(state.deck)
    act(state, 0, CALL, 0)
    act(state, 0, grab([3, 0]), 300)
    events = ENGINE.tick(state, 2300)
    assert kinds(events)[:2] == ["race_ended", "check"]
    assert find(events, "shuffled_back")["count"] == 2
    assert state.grid == {} and len(state.deck) == deck_before + 2
    assert sorted(state.hands[0]).count("knight") >= 1 and len(state.hands[0]) == 6


def test_rule_ambush_5_hand_limit_returns_cards_to_the_deck() -> None:
    state = new_game(top=["dragon", "knight"], hand_limit=5)
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    act(state, 1, expose([2, 0]))
    act(state, 1, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    events = act(state, 0, grab([2, 0]), 600)
    assert state.phase == "returning" and find(events, "hand_limit")["owed"] == [[0, 2]]
    assert refused(state, 1, {"type": "return", "cards": []}) == "ambush/not_over_limit"
    bad = {"type": "return", "cards": ["dragon"]}
    assert refused(state, 0, bad) == "ambush/bad_return"
    assert (
        refused(state, 0, {"type": "return", "cards": ["dragon", "dragon"]}) == "ambush/bad_return"
    )
    events = act(state, 0, {"type": "return", "cards": ["dragon", "knight"]}, 900)
    assert find(events, "returned")["cards"] == ["dragon", "knight"]
    assert len(state.hands[0]) == 5 and state.phase == "turn"


def test_rule_ambush_6_interrupted_turn_goes_on() -> None:
    state = new_game(top=["dragon"])
    act(state, 0, expose([1, 0]))
    act(state, 0, PASS)
    assert state.turn == 1 and state.step == "expose"
    act(state, 0, CALL, 0)
    events = ENGINE.tick(state, 2000)
    assert find(events, "turn_resumed") == {
        "type": "turn_resumed",
        "seat": 1,
        "step": "expose",
        "visible_to": "all",
    }
    state = new_game(top=["dragon"])
    act(state, 0, expose([1, 0]))
    act(state, 1, CALL, 0)
    ENGINE.tick(state, 2000)
    assert (state.turn, state.step, state.phase) == (0, "play", "turn")
    act(state, 0, PASS)


def test_rule_winning_castle_at_zero_is_destroyed_and_its_hand_goes_back() -> None:
    state = new_game([["dragon"], [], []], seats=3, castle_hp=6)
    act(state, 0, expose([1, 0]))
    deck_before = len(state.deck)
    events = act(state, 0, play("dragon", [2, 0], 1))
    assert kinds(events)[:2] == ["played", "destroyed"]
    assert not state.alive[1] and state.hands[1] == []
    assert len(state.deck) == deck_before + 5 and conserved(state)
    assert state.turn == 2  # the destroyed seat is skipped
    assert refused(state, 1, CALL) == "ambush/seat_out"
    assert ENGINE.legal_actions(state, 1) == []


def test_rule_winning_last_castle_standing_wins() -> None:
    state = new_game([["dragon"], []], castle_hp=6)
    act(state, 0, expose([1, 0]))
    events = act(state, 0, play("dragon", [2, 0], 1))
    assert kinds(events)[-1] == "game_over"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[0], [1]]
    assert outcome.seats[1].destroyed and outcome.seats[1].damage == 1.0
    assert outcome.seats[0].damage == 0.0 and outcome.reason == "last_castle"
    assert refused(state, 0, PASS) == "ambush/game_over"
    assert ENGINE.to_act(state) == frozenset()


def test_setup_refuses_bad_options() -> None:
    bad: list[dict[str, object]] = [
        {"castle_hp": 0},
        {"hand_size": 27},
        {"hand_limit": 3},
        {"first_seat": 2},
        {"deck": ["dragon", "dragon", "dragon"]},
        {"deck": ["unicorn"]},
        {"names": ["only one"]},
        {"colour": "red"},
    ]
    for options in bad:
        with pytest.raises(InvalidAction) as error:
            ENGINE.setup(2, 1, options)
        assert error.value.code == "ambush/bad_option", options


def test_malformed_actions_are_invalid_not_illegal() -> None:
    state = new_game()
    for action in (
        {"type": "fly"},
        {"type": "expose"},
        {"type": "expose", "cell": [1]},
        {"type": "expose", "cell": [True, 0]},
        {"type": "expose", "cell": [1, 0], "extra": 1},
        {"type": "play", "card": "unicorn", "cell": [1, 0]},
        {"type": "return", "cards": "dragon"},
    ):
        with pytest.raises(InvalidAction):
            ENGINE.apply(state, 0, action, 0)
    assert refused(state, 0, {"type": "fly"}) == "ambush/unknown_action"
