"""Rule tests: one per clause of the Castles deck rulebook and per house rule of the list."""

from __future__ import annotations

import json

from engines.castles.board import castle_zone, middle_zone
from engines.castles.state import DISCARD, HAND, PLAY, touch
from tests.engines.castles.helpers import (
    ENGINE,
    colour,
    do,
    end_turn,
    find,
    in_hand,
    kill,
    listed,
    new_game,
    put,
    refused,
)

RED, BLUE = 0, 1


def test_each_side_starts_with_a_castle_of_50_hp_in_its_middle_zone() -> None:
    """ "Each player or team has one Castle card ... It has 50HP." (+ card list: the outer walls
    stand in the Middle Zone)"""
    state = new_game()
    for side in (RED, BLUE):
        castle = colour(state, side, "castle")
        assert (castle.place, castle.zone, castle.hp) == (PLAY, middle_zone(side), 50)


def test_general_starts_in_the_middle_and_wizard_spy_assassin_in_the_castle_zone() -> None:
    """ "They also start with their General, Wizard, Spy and Assassin, all of which start off in
    the Castle Zone except for the General, who starts off in the Middle Zone.\""""
    state = new_game()
    for side in (RED, BLUE):
        assert colour(state, side, "general").zone == middle_zone(side)
        for kind in ("wizard", "spy", "assassin"):
            assert colour(state, side, kind).zone == castle_zone(side)


def test_five_cards_are_dealt_red_first_and_red_moves_first() -> None:
    """House rule (card list): both draw five, Red first; Red moves first."""
    state = new_game([["spearman"] * 5, ["archer"] * 5])
    assert [state.cards[i].kind for i in state.hands[RED]] == ["spearman"] * 5
    assert [state.cards[i].kind for i in state.hands[BLUE]] == ["archer"] * 5
    assert ENGINE.to_act(state) == frozenset({RED})


def test_a_turn_starts_with_one_draw_except_reds_very_first() -> None:
    """House rule: draw 1 at the start of a turn (Red skips it on the very first turn); an empty
    draw pile means no draw."""
    state = new_game([], ["builder", "mason"], spare=[])
    assert len(state.hands[RED]) == 5
    end_turn(state)
    assert [state.cards[i].kind for i in state.hands[BLUE]][-1] == "builder"
    end_turn(state)
    assert [state.cards[i].kind for i in state.hands[RED]][-1] == "mason"
    end_turn(state)
    assert len(state.hands[BLUE]) == 6  # the pile is empty: no draw


def test_first_seat_option_lets_blue_move_first_without_a_first_draw() -> None:
    state = new_game([], ["builder"], spare=[], first_seat=1)
    assert ENGINE.to_act(state) == frozenset({BLUE})
    assert len(state.hands[BLUE]) == 5


def test_destroying_a_castle_loses_the_game() -> None:
    """ "When either team's Castle is destroyed they lose the game.\""""
    state = new_game([["spearman"]])
    spear = put(state, "spearman", RED, middle_zone(BLUE))
    colour(state, BLUE, "castle").hp = 2
    do(state, RED, type="act", card=spear.id, target=colour(state, BLUE, "castle").id)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[RED], [BLUE]]
    assert outcome.reason == "castle_destroyed"
    assert outcome.seats[BLUE].destroyed and outcome.seats[BLUE].damage == 1.0
    assert ENGINE.to_act(state) == frozenset()


def test_tournament_damage_is_castle_hp_lost_over_50_on_resignation() -> None:
    """Scoring: a surrender scores the damage done to the castle (DESIGN 7: HP lost / 50)."""
    state = new_game()
    colour(state, RED, "castle").hp = 40
    colour(state, BLUE, "castle").hp = 35
    do(state, BLUE, type="resign")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[RED], [BLUE]]
    assert outcome.seats[BLUE].resigned and not outcome.seats[BLUE].destroyed
    assert outcome.seats[RED].damage == 0.2 and outcome.seats[BLUE].damage == 0.3


def test_you_may_not_enter_your_opponents_castle_zone() -> None:
    """ "You may not enter the Castle Zone of your opponent.\""""
    state = new_game()
    spear = put(state, "spearman", RED, middle_zone(BLUE))
    refused(state, RED, "castles/enemy_castle", type="move", card=spear.id, to=5)


def test_soldiers_and_civilians_move_to_an_adjacent_zone_once_per_turn() -> None:
    """ "Soldiers and Civilians may move to any adjacent zone on your turn." (house: once)"""
    state = new_game()
    spear = put(state, "spearman", RED, 2)
    builder = put(state, "builder", RED, 0)
    refused(state, RED, "castles/out_of_range", type="move", card=spear.id, to=4)
    do(state, RED, type="move", card=spear.id, to=3)
    do(state, RED, type="move", card=builder.id, to=1)
    refused(state, RED, "castles/already_moved", type="move", card=spear.id, to=2)


def test_any_number_of_cards_go_into_your_castle_or_middle_zone() -> None:
    """ "You may play any number of cards each turn. When you play a card, it goes to either
    your Castle Zone or your Middle Zone.\""""
    state = new_game([["spearman", "archer", "builder", "spearman"]])
    hand = [in_hand(state, RED, "spearman"), in_hand(state, RED, "archer")]
    refused(state, RED, "castles/bad_zone", type="play", card=hand[0], zone=2)
    do(state, RED, type="play", card=hand[0], zone=1)
    do(state, RED, type="play", card=hand[1], zone=0)
    do(state, RED, type="play", card=in_hand(state, RED, "builder"), zone=0)
    do(state, RED, type="play", card=in_hand(state, RED, "spearman"), zone=1)
    assert len(state.hands[RED]) == 1


def test_a_card_at_0_hp_is_discarded() -> None:
    """ "Each card has a number, which is their HP value. When a card's HP falls to 0 it is
    discarded.\""""
    state = new_game()
    spear = put(state, "spearman", RED, 3)
    archer = put(state, "archer", BLUE, 3)
    do(state, RED, type="act", card=spear.id, target=archer.id)
    assert archer.place == DISCARD and archer.id in state.discard


def test_a_card_neither_moves_nor_acts_on_the_turn_it_is_played() -> None:
    """House rule: each unit moves once and uses its Action once per turn, not on the turn it
    was played."""
    state = new_game([["spearman"]])
    card = in_hand(state, RED, "spearman")
    do(state, RED, type="play", card=card, zone=1)
    refused(state, RED, "castles/already_moved", type="move", card=card, to=2)
    refused(state, RED, "castles/already_acted", type="act", card=card, target=1)
    end_turn(state)
    end_turn(state)
    do(state, RED, type="move", card=card, to=2)


def test_buildings_need_a_builder_and_go_into_its_zone() -> None:
    """ "Buildings can only be played if a Builder is in play, and can only be played into the
    zone the Builder is in.\""""
    state = new_game([["catapult"]])
    catapult = in_hand(state, RED, "catapult")
    refused(state, RED, "castles/needs_builder", type="play", card=catapult, zone=1)
    builder = put(state, "builder", RED, 2)
    do(state, RED, type="act", card=builder.id, build=catapult)
    assert (state.cards[catapult].place, state.cards[catapult].zone) == (PLAY, 2)


def test_specials_cannot_be_resurrected() -> None:
    """ "If the Spy, Assassin, Wizards or General are destroyed then they cannot be resurrected,
    not even by the Resurrection spell.\""""
    state = new_game([["resurrection"]])
    kill(state, colour(state, RED, "general"))
    kill(state, colour(state, BLUE, "assassin"))
    spear = put(state, "spearman", BLUE, 3)
    kill(state, spear)
    res = in_hand(state, RED, "resurrection")
    refused(
        state,
        RED,
        "castles/bad_target",
        type="play",
        card=res,
        targets=[colour(state, RED, "general").id],
    )
    choices = [a for a in ENGINE.legal_actions(state, RED) if a.get("card") == res]
    assert choices == [{"type": "play", "card": res, "targets": [spear.id]}]


def test_spells_need_the_wizard_in_play() -> None:
    """ "Spells may only be played if the Wizard on your side is in play.\""""
    state = new_game([["plague"]])
    kill(state, colour(state, RED, "wizard"))
    refused(state, RED, "castles/needs_wizard", type="play", card=in_hand(state, RED, "plague"))


def test_special_attacks_need_the_general_and_a_forward_soldier() -> None:
    """ "Special Attacks may only be played if the General is in play and you have a Soldier
    that is in your Middle Zone or Front Zone." (read: any Soldier out of your Castle Zone)"""
    state = new_game([["ambush"]])
    ambush = in_hand(state, RED, "ambush")
    put(state, "spearman", RED, 0)
    refused(state, RED, "castles/needs_forward_soldier", type="play", card=ambush)
    put(state, "spearman", RED, 2)
    assert listed(state, RED, type="play", card=ambush)
    kill(state, colour(state, RED, "general"))
    refused(state, RED, "castles/needs_general", type="play", card=ambush)


def test_soldiers_act_on_targets_in_their_own_zone() -> None:
    """ "Most Soldiers and Civilians may only perform their actions on targets that are on the
    same zone as them.\""""
    state = new_game()
    spear = put(state, "spearman", RED, 2)
    foe = put(state, "spearman", BLUE, 3)
    refused(state, RED, "castles/out_of_range", type="act", card=spear.id, target=foe.id)


def test_soldiers_in_the_enemy_middle_zone_attack_the_castle_walls() -> None:
    """ "The outer walls of the Castle are in the Middle Zone (ironically) so you may move
    Soldiers into the Middle Zone and attack the Castle.\""""
    state = new_game()
    spear = put(state, "spearman", RED, 3)
    do(state, RED, type="move", card=spear.id, to=4)
    do(state, BLUE, type="pass")  # Blue's Trap window (it opens even without a Trap)
    do(state, RED, type="act", card=spear.id, target=colour(state, BLUE, "castle").id)
    assert colour(state, BLUE, "castle").hp == 47


def test_soldiers_do_not_hit_their_own_side() -> None:
    """ "Soldiers can attack and deal damage to opponent Soldiers or Buildings.\""""
    state = new_game()
    spear = put(state, "spearman", RED, 1)
    refused(
        state,
        RED,
        "castles/bad_target",
        type="act",
        card=spear.id,
        target=colour(state, RED, "castle").id,
    )


def test_refused_out_of_turn_and_after_the_end() -> None:
    state = new_game()
    refused(state, BLUE, "castles/not_your_turn", type="end_turn")
    do(state, RED, type="resign")
    refused(state, BLUE, "castles/game_over", type="end_turn")


def test_turn_limit_house_rule_gives_the_castle_with_more_hp_the_win() -> None:
    """House rule: after max_turns turns the match ends; more Castle HP wins, equal is a draw."""
    state = new_game(max_turns=2)
    colour(state, RED, "castle").hp = 49
    end_turn(state)
    end_turn(state)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "turn_limit"
    assert outcome.placings == [[BLUE], [RED]]
    draw = new_game(max_turns=2)
    end_turn(draw)
    end_turn(draw)
    assert ENGINE.outcome(draw).placings == [[RED, BLUE]]  # type: ignore[union-attr]


def test_team_game_seats_alternate_sides_and_partners_share_one_side() -> None:
    """House rule: teams of two share one side; partners alternate turns on that side."""
    state = new_game(seats=4, teams=True)
    order = []
    for _ in range(6):
        order.append(state.active)
        end_turn(state)
    assert order == [0, 1, 2, 3, 0, 1]
    spear = put(state, "spearman", RED, 1)
    assert state.active == 2 and spear.side == RED
    do(state, 2, type="move", card=spear.id, to=2)  # the partner commands the side's cards
    assert ENGINE.view(state, 0)["hand"] != ENGINE.view(state, 2)["hand"]
    assert "hand" in ENGINE.view(state, 0) and ENGINE.view(state, 0)["hand_sizes"][2] == 7


def test_three_seats_play_a_team_against_one() -> None:
    state = new_game(seats=3)
    order = []
    for _ in range(6):
        order.append(state.active)
        end_turn(state)
    assert order == [0, 1, 2, 1, 0, 1]


def test_resigning_concedes_for_the_whole_team() -> None:
    state = new_game(seats=4)
    do(state, 3, type="resign")
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[0, 2], [1, 3]]
    assert outcome.seats[1].resigned and outcome.seats[3].resigned


def test_bad_options_are_refused() -> None:
    import pytest

    from engines.base import InvalidAction

    for seats, options in [
        (2, {"teams": True}),
        (4, {"teams": False}),
        (2, {"terrain": ["hills"] + ["plains"] * 5}),
        (2, {"deck": ["castle"]}),
        (2, {"first_seat": 2}),
        (5, {}),
    ]:
        with pytest.raises(InvalidAction):
            ENGINE.setup(seats, 1, options)


def test_per_seat_decks_are_dealt_from_each_seats_own_pile() -> None:
    state = ENGINE.setup(2, 1, {"decks": [["spearman"] * 6, ["archer"] * 6]})
    end_turn(state)
    assert {state.cards[i].kind for i in state.hands[BLUE]} == {"archer"}
    assert len(state.hands[BLUE]) == 6 and find(state, "spearman").place == HAND


def test_views_show_only_the_seats_own_hand_and_no_pile_order_or_rng() -> None:
    """The engine contract: a view never shows another seat's hand, the deck order or the RNG."""
    state = new_game([["spearman"], ["trap"]])
    red, spectator = ENGINE.view(state, RED), ENGINE.view(state, None)
    assert {c["kind"] for c in red["hand"]} == {"spearman", "medicine"}
    assert spectator["hand"] == [] and spectator["known"] == {}
    assert "'trap'" not in str(red) and "'trap'" not in str(spectator)
    assert red["pile_sizes"] == [len(state.piles[0])] and "rng" not in red
    for key in ("game", "phase", "seats", "to_act", "outcome"):
        assert key in red


def test_the_default_action_comes_first_and_resign_last() -> None:
    """Contract: on a time-out the first listed action that is not resign is applied."""
    state = new_game([["spearman"], ["trap"]])
    legal = ENGINE.legal_actions(state, RED)
    assert legal[0] == {"type": "end_turn"} and legal[-1] == {"type": "resign"}
    assert ENGINE.legal_actions(state, BLUE) == []
    spear = put(state, "spearman", RED, 3)
    do(state, RED, type="move", card=spear.id, to=4)
    legal = ENGINE.legal_actions(state, BLUE)
    assert legal[0] == {"type": "pass"} and legal[-1] == {"type": "resign"}


def test_team_trap_windows_open_for_both_defending_partners() -> None:
    state = new_game(seats=4)
    spear = put(state, "spearman", RED, 3)
    do(state, RED, type="move", card=spear.id, to=4)
    assert ENGINE.to_act(state) == frozenset({1, 3})
    do(state, 1, type="pass")
    assert ENGINE.to_act(state) == frozenset({3})
    do(state, 3, type="pass")
    assert ENGINE.to_act(state) == frozenset({RED})


def test_team_spy_reveals_to_both_partners_and_the_victim_only() -> None:
    state = new_game([[], ["trap"] * 5], seats=4)
    spy = colour(state, RED, "spy")
    spy.zone = 5
    events = do(state, RED, type="act", card=spy.id, seat=1)
    assert events[0]["visible_to"] == [0, 1, 2]
    assert ENGINE.view(state, 2)["known"]["1"] and not ENGINE.view(state, 3)["known"]


def test_a_view_stays_a_snapshot_when_the_match_goes_on() -> None:
    """The server keeps views and serialises them later: a later action must not change them,
    although the public part is built once per change and shared by that change's views."""
    state = new_game([["spearman", "archer"], ["trap"]])
    spear = put(state, "spearman", RED, 2)
    before = ENGINE.view(state, RED), ENGINE.view(state, BLUE), ENGINE.view(state, None)
    frozen = [json.dumps(v, sort_keys=True) for v in before]
    do(state, RED, type="move", card=spear.id, to=3)
    do(state, RED, type="play", card=in_hand(state, RED, "archer"), zone=1)
    end_turn(state)
    after = ENGINE.view(state, RED)
    assert [json.dumps(v, sort_keys=True) for v in before] == frozen
    moved = next(c for c in after["in_play"] if c["id"] == spear.id)
    assert moved["zone"] == 3 and moved["moves"] == 0
    assert after["hand_sizes"] != before[0]["hand_sizes"]


def test_views_and_listings_follow_a_hand_edit_once_touched() -> None:
    """Views and listings reuse what they derived until the state changes; ``touch`` (which
    the scenario helpers call; ``apply`` and ``tick`` call ``changed``) marks a change made
    by hand, even of what the rules otherwise keep up to date (the board, view entries)."""
    state = new_game()
    castle = colour(state, RED, "castle")
    assert ENGINE.view(state, BLUE)["castle_hp"][RED] == 50
    castle.hp = 40
    touch(state)
    assert ENGINE.view(state, BLUE)["castle_hp"][RED] == 40
    entry = next(c for c in ENGINE.view(state, None)["in_play"] if c["id"] == castle.id)
    assert entry["hp"] == 40
