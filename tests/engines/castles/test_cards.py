"""Scenario tests on stacked decks: one or more per card text of the Castles deck."""

from __future__ import annotations

from engines.castles.cards import CARDS
from engines.castles.state import DISCARD, PLAY
from tests.engines.castles.helpers import (
    ENGINE,
    colour,
    do,
    end_turn,
    in_hand,
    kill,
    listed,
    new_game,
    put,
    refused,
)

RED, BLUE = 0, 1
# Zones: 0 Red Castle, 1 Red Middle, 2 Red Front | 3 Blue Front, 4 Blue Middle, 5 Blue Castle


def test_every_card_with_a_text_has_a_scenario_here() -> None:
    names = set(globals())
    for kind in CARDS:
        assert any(name.startswith(f"test_{kind}_") for name in names), kind


# Colour cards


def test_castle_destroyed_loses_the_game() -> None:
    """Castle: "When this card is destroyed you lose the game.\""""
    state = new_game()
    colour(state, RED, "castle").hp = 3
    spear = put(state, "spearman", BLUE, 1)
    end_turn(state)
    spear.acts = 1
    do(state, BLUE, type="act", card=spear.id, target=colour(state, RED, "castle").id)
    assert ENGINE.outcome(state).placings == [[BLUE], [RED]]  # type: ignore[union-attr]


def test_general_lets_soldiers_in_its_zone_move_two_zones() -> None:
    """General: "All Soldiers in this card's zone may move two zones.\""""
    state = new_game()
    with_general = put(state, "spearman", RED, 1)
    alone = put(state, "spearman", RED, 0)
    do(state, RED, type="move", card=with_general.id, to=3)
    refused(state, RED, "castles/out_of_range", type="move", card=alone.id, to=2)
    builder = put(state, "builder", RED, 1)
    refused(state, RED, "castles/out_of_range", type="move", card=builder.id, to=3)


def test_general_moves_one_zone_and_is_a_target() -> None:
    """House rule: the General and Wizard move one zone a turn; Soldiers may hit Specials."""
    state = new_game()
    general = colour(state, RED, "general")
    refused(state, RED, "castles/out_of_range", type="move", card=general.id, to=3)
    do(state, RED, type="move", card=general.id, to=2)
    spear = put(state, "spearman", BLUE, 2)
    end_turn(state)
    spear.acts = 1
    do(state, BLUE, type="act", card=spear.id, target=general.id)
    assert general.hp == 2


def test_wizard_deals_2_to_any_card_except_specials() -> None:
    """Wizard: "Action: Deal 2 damage to any card in play (except Special cards).\""""
    state = new_game()
    wizard = colour(state, RED, "wizard")
    castle = colour(state, BLUE, "castle")
    do(state, RED, type="act", card=wizard.id, target=castle.id)
    assert castle.hp == 48
    wizard.acts = 1
    refused(
        state,
        RED,
        "castles/bad_target",
        type="act",
        card=wizard.id,
        target=colour(state, BLUE, "general").id,
    )
    far = put(state, "archer", BLUE, 5)
    do(state, RED, type="act", card=wizard.id, target=far.id)
    assert far.place == DISCARD


def test_spy_moves_two_zones_and_enters_the_enemy_castle_zone() -> None:
    """Spy: "This card can move 2 zones per turn and can enter your opponent's Castle Zone.\""""
    state = new_game()
    spy = colour(state, RED, "spy")
    move_to(state, spy, 3)
    do(state, RED, type="move", card=spy.id, to=5)
    assert spy.zone == 5


def move_to(state: object, card: object, zone: int) -> None:
    card.zone = zone  # type: ignore[attr-defined]


def test_spy_cannot_be_attacked_by_soldiers_in_the_enemy_castle_zone() -> None:
    """Spy: "It cannot be attacked by Soldiers if in your opponent's Castle Zone.\""""
    state = new_game()
    spy = colour(state, BLUE, "spy")
    move_to(state, spy, 0)
    spear = put(state, "spearman", RED, 0)
    refused(state, RED, "castles/bad_target", type="act", card=spear.id, target=spy.id)
    move_to(state, spy, 1)
    move_to(state, spear, 1)
    do(state, RED, type="act", card=spear.id, target=spy.id)
    assert spy.place == DISCARD


def test_spy_is_a_civilian_in_its_own_castle_zone() -> None:
    """Spy: "While it is in your own Castle Zone this card is treated as a Civilian." (so the
    Wizard, which spares Specials, may hit it there, and Plague burns it)"""
    state = new_game()
    wizard = colour(state, RED, "wizard")
    spy = colour(state, BLUE, "spy")
    assert listed(state, RED, type="act", card=wizard.id, target=spy.id)
    move_to(state, spy, 4)
    assert not listed(state, RED, type="act", card=wizard.id, target=spy.id)


def test_spy_reveals_two_cards_of_the_enemy_hand_from_the_enemy_castle_zone() -> None:
    """Spy: "Action: Reveal up to two cards in your opponent's hand if this card is in your
    opponent's Castle Zone.\""""
    state = new_game([[], ["trap", "catapult", "archer", "wall", "rout"]])
    spy = colour(state, RED, "spy")
    refused(state, RED, "castles/spy_not_inside", type="act", card=spy.id, seat=BLUE)
    move_to(state, spy, 5)
    events = do(state, RED, type="act", card=spy.id, seat=BLUE)
    shown = events[0]["cards"]
    assert len(shown) == 2 and events[0]["visible_to"] == [RED, BLUE]
    assert events[0]["redacted"] == {"type": "revealed", "spy": spy.id, "seat": BLUE, "count": 2}
    known = ENGINE.view(state, RED)["known"][str(BLUE)]
    assert known == sorted(shown, key=lambda c: state.hands[BLUE].index(c["id"]))
    assert ENGINE.view(state, None)["known"] == {}


def test_assassin_moves_two_zones_into_the_enemy_castle_and_kills_a_special() -> None:
    """Assassin: "can move 2 zones per turn and can enter your opponent's Castle Zone. Action:
    Destroy an opponent's Special card that is in this card's zone.\""""
    state = new_game()
    assassin = colour(state, RED, "assassin")
    move_to(state, assassin, 3)
    do(state, RED, type="move", card=assassin.id, to=5)
    wizard = colour(state, BLUE, "wizard")
    do(state, RED, type="act", card=assassin.id, target=wizard.id)
    assert wizard.place == DISCARD
    refused(
        state,
        RED,
        "castles/already_acted",
        type="act",
        card=assassin.id,
        target=colour(state, BLUE, "assassin").id,
    )


def test_assassin_kills_only_enemy_specials() -> None:
    state = new_game()
    assassin = colour(state, RED, "assassin")
    spear = put(state, "spearman", BLUE, 0)
    refused(state, RED, "castles/bad_target", type="act", card=assassin.id, target=spear.id)


# Soldiers and Civilians


def test_spearman_deals_3_in_its_zone() -> None:
    """Spearman: "Action: Deal 3 damage to any card in this card's zone.\""""
    state = new_game()
    spear = put(state, "spearman", RED, 3)
    foe = put(state, "spearman", BLUE, 3)
    do(state, RED, type="act", card=spear.id, target=foe.id)
    assert foe.hp == 1


def test_archer_deals_2_here_or_next_door_but_not_into_the_enemy_castle_zone() -> None:
    """Archer: "Deal 2 damage to any card in this card's zone or in an adjacent zone, excluding
    your opponent's Castle Zone.\""""
    state = new_game()
    archer = put(state, "archer", RED, 4)
    near = put(state, "spearman", BLUE, 3)
    inside = put(state, "spearman", BLUE, 5)
    far = put(state, "spearman", BLUE, 2)
    refused(state, RED, "castles/out_of_range", type="act", card=archer.id, target=inside.id)
    move_to(state, archer, 4)
    assert not listed(state, RED, type="act", card=archer.id, target=far.id)
    do(state, RED, type="act", card=archer.id, target=near.id)
    assert near.hp == 2


def test_builder_plays_a_building_into_its_zone() -> None:
    """Builder: "Action: Play a Building from your hand into the zone that this card is
    currently in.\""""
    state = new_game([["siege_tower"]])
    builder = put(state, "builder", RED, 4)
    do(state, RED, type="act", card=builder.id, build=in_hand(state, RED, "siege_tower"))
    tower = next(c for c in state.cards if c.kind == "siege_tower" and c.place == PLAY)
    assert (tower.side, tower.zone) == (RED, 4)


def test_mason_gives_1_hp_to_a_building_in_its_zone() -> None:
    """Mason: "Action: Give 1HP to any Building in this card's zone.\""""
    state = new_game()
    mason = put(state, "mason", RED, 1)
    castle = colour(state, RED, "castle")
    refused(state, RED, "castles/full_hp", type="act", card=mason.id, target=castle.id)
    castle.hp = 40
    do(state, RED, type="act", card=mason.id, target=castle.id)
    assert castle.hp == 41


def test_medic_gives_1_hp_to_a_civilian_or_soldier_in_its_zone() -> None:
    """Medic: "Action: Give 1HP to any Civilian or Soldier in this card's zone.\""""
    state = new_game()
    medic = put(state, "medic", RED, 1)
    spear = put(state, "spearman", RED, 1)
    spear.hp = 1
    refused(
        state,
        RED,
        "castles/bad_target",
        type="act",
        card=medic.id,
        target=colour(state, RED, "castle").id,
    )
    do(state, RED, type="act", card=medic.id, target=spear.id)
    assert spear.hp == 2


# Buildings


def test_catapult_moves_with_two_carriers_and_hits_buildings_one_or_two_zones_away() -> None:
    """Catapult: moved with at least two Civilians or Soldiers that also move; "Deal 3 damage
    to any Building within two zones of this card but not in the same zone as this card.\""""
    state = new_game()
    catapult = put(state, "catapult", RED, 1)
    one = put(state, "spearman", RED, 1)
    refused(
        state, RED, "castles/cannot_move", type="move", card=catapult.id, to=2, **{"with": [one.id]}
    )
    two = put(state, "builder", RED, 1)
    do(state, RED, type="move", card=catapult.id, to=2, **{"with": [one.id, two.id]})
    assert (catapult.zone, one.zone, two.zone) == (2, 2, 2) and one.moves == 0
    castle = colour(state, BLUE, "castle")
    do(state, RED, type="act", card=catapult.id, target=castle.id)
    assert castle.hp == 47
    near = put(state, "catapult", BLUE, 2)
    catapult.acts = 1
    refused(state, RED, "castles/out_of_range", type="act", card=catapult.id, target=near.id)


def test_cannon_moves_with_one_carrier_and_hits_only_walls_and_castles() -> None:
    """Cannon: moved with one unit; "Deal 1 damage to Wall or Castle if it is within two zones
    of this card but not in the same zone as this card.\""""
    state = new_game()
    cannon = put(state, "cannon", RED, 1)
    spear = put(state, "spearman", RED, 1)
    do(state, RED, type="move", card=cannon.id, to=2, **{"with": [spear.id]})
    tower = put(state, "siege_tower", BLUE, 3)
    refused(state, RED, "castles/bad_target", type="act", card=cannon.id, target=tower.id)
    do(state, RED, type="act", card=cannon.id, target=colour(state, BLUE, "castle").id)
    assert colour(state, BLUE, "castle").hp == 49


def test_siege_tower_lets_soldiers_into_the_enemy_castle_zone() -> None:
    """Siege Tower: "If this card is in your opponent's Middle Zone, you may move your Soldiers
    in your opponent's Middle Zone into his or her Castle Zone.\""""
    state = new_game()
    spear = put(state, "spearman", RED, 4)
    builder = put(state, "builder", RED, 4)
    refused(state, RED, "castles/enemy_castle", type="move", card=spear.id, to=5)
    put(state, "siege_tower", RED, 4)
    refused(state, RED, "castles/enemy_castle", type="move", card=builder.id, to=5)
    do(state, RED, type="move", card=spear.id, to=5)
    do(state, RED, type="act", card=spear.id, target=colour(state, BLUE, "wizard").id)


def test_wall_goes_into_your_middle_zone_and_blocks_enemy_entry_from_the_front() -> None:
    """Wall: "Play this card into your Middle Zone. Your opponent's Civilians and Soldiers
    cannot enter your Middle Zone from your side of the Front ... Your Civilians and Soldiers
    may move through this wall freely.\""""
    state = new_game([[], ["wall", "wall"]])
    builder = put(state, "builder", BLUE, 5)
    end_turn(state)
    refused(
        state,
        BLUE,
        "castles/bad_zone",
        type="act",
        card=builder.id,
        build=in_hand(state, BLUE, "wall"),
    )
    move_to(state, builder, 4)
    do(state, BLUE, type="act", card=builder.id, build=in_hand(state, BLUE, "wall"))
    own = put(state, "spearman", BLUE, 4)
    do(state, BLUE, type="move", card=own.id, to=3)
    end_turn(state)
    spear = put(state, "spearman", RED, 3)
    spy = colour(state, RED, "spy")
    move_to(state, spy, 3)
    refused(state, RED, "castles/blocked", type="move", card=spear.id, to=4)
    do(state, RED, type="move", card=spy.id, to=5)  # Specials are not stopped by the Wall


def test_wall_stops_enemy_ranged_attacks_but_not_hits_on_itself() -> None:
    """Wall: "their ranged attacks cannot penetrate this wall.\""""
    state = new_game()
    wall = put(state, "wall", BLUE, 4)
    archer = put(state, "archer", RED, 3)
    refused(
        state,
        RED,
        "castles/blocked",
        type="act",
        card=archer.id,
        target=colour(state, BLUE, "castle").id,
    )
    do(state, RED, type="act", card=archer.id, target=wall.id)
    assert wall.hp == 13


def test_armoury_goes_into_your_castle_zone_and_adds_1_to_your_soldiers() -> None:
    """Armoury: "Play this card into your Castle Zone. All Soldiers deal +1 damage while this
    card is in play." (house reading: the owner's Soldiers)"""
    state = new_game([["armoury"]])
    builder = put(state, "builder", RED, 1)
    refused(
        state,
        RED,
        "castles/bad_zone",
        type="act",
        card=builder.id,
        build=in_hand(state, RED, "armoury"),
    )
    put(state, "armoury", RED, 0)
    spear = put(state, "spearman", RED, 3)
    foe = put(state, "spearman", BLUE, 3)
    do(state, RED, type="act", card=spear.id, target=foe.id)
    assert foe.place == DISCARD  # 3 + 1 = 4 damage


def test_watchtower_forbids_the_enemy_rout() -> None:
    """Watchtower: "While this card is in play your opponent may not play Rout.\""""
    state = new_game([["rout"]])
    kill(state, colour(state, BLUE, "general"))
    foe = put(state, "spearman", BLUE, 2)
    put(state, "watchtower", BLUE, 5)
    refused(
        state,
        RED,
        "castles/rout_forbidden",
        type="play",
        card=in_hand(state, RED, "rout"),
        target=foe.id,
    )


# Action cards


def test_repair_gives_a_building_5_hp() -> None:
    """Repair: "Choose a Building. It receives +5 HP." (never above its printed HP)"""
    state = new_game([["repair", "repair"]])
    castle = colour(state, RED, "castle")
    castle.hp = 42
    do(state, RED, type="play", card=in_hand(state, RED, "repair"), target=castle.id)
    assert castle.hp == 47
    do(state, RED, type="play", card=in_hand(state, RED, "repair"), target=castle.id)
    assert castle.hp == 50


def test_medicine_gives_a_civilian_or_soldier_1_hp() -> None:
    """Medicine: "Choose a Civilian or Soldier. It receives +1 HP.\""""
    state = new_game([["medicine"]])
    spear = put(state, "spearman", RED, 2)
    spear.hp = 2
    refused(
        state,
        RED,
        "castles/bad_target",
        type="play",
        card=in_hand(state, RED, "medicine"),
        target=colour(state, RED, "castle").id,
    )
    do(state, RED, type="play", card=in_hand(state, RED, "medicine"), target=spear.id)
    assert spear.hp == 3


def test_charge_moves_a_soldier_two_zones_forwards_with_1_more_damage() -> None:
    """Charge: "Choose a Soldier. This turn, it can move 2 zones forwards and deals +1
    damage.\""""
    state = new_game([["charge"]])
    spear = put(state, "spearman", RED, 2)
    refused(state, RED, "castles/out_of_range", type="move", card=spear.id, to=0)
    do(state, RED, type="play", card=in_hand(state, RED, "charge"), target=spear.id)
    refused(state, RED, "castles/out_of_range", type="move", card=spear.id, to=0)
    do(state, RED, type="move", card=spear.id, to=4)
    do(state, BLUE, type="pass")
    do(state, RED, type="act", card=spear.id, target=colour(state, BLUE, "castle").id)
    assert colour(state, BLUE, "castle").hp == 46
    end_turn(state)
    assert not spear.charged


def test_arrow_rain_gives_your_castle_archers_another_2_damage_shot() -> None:
    """Arrow Rain: "Play only if you have an Archer in your Castle Zone. All Archers in your
    Castle Zone deal 2 damage this turn." (read: one more 2-damage shot each)"""
    state = new_game([["arrow_rain"]])
    rain = in_hand(state, RED, "arrow_rain")
    put(state, "spearman", RED, 1)
    refused(state, RED, "castles/needs_archer", type="play", card=rain)
    archer = put(state, "archer", RED, 0)
    foe = put(state, "spearman", BLUE, 1)
    do(state, RED, type="act", card=archer.id, target=foe.id)
    do(state, RED, type="play", card=rain)
    do(state, RED, type="act", card=archer.id, target=foe.id)
    assert foe.place == DISCARD


def test_rout_sends_a_soldier_that_crossed_the_front_home_without_a_general() -> None:
    """Rout: "Choose an opponent's Soldier that has crossed the Front. Put it back to your
    opponent's Middle Zone. Play only if the opponent's General is not in play.\""""
    state = new_game([["rout"]])
    rout = in_hand(state, RED, "rout")
    foe = put(state, "spearman", BLUE, 1)
    home = put(state, "spearman", BLUE, 3)
    refused(state, RED, "castles/rout_forbidden", type="play", card=rout, target=foe.id)
    kill(state, colour(state, BLUE, "general"))
    refused(state, RED, "castles/bad_target", type="play", card=rout, target=home.id)
    do(state, RED, type="play", card=rout, target=foe.id)
    assert foe.zone == 4


def test_trap_destroys_an_enemy_unit_entering_your_middle_zone() -> None:
    """Trap: "Play when an opponent's Soldier or Civilian enters your Middle Zone. Destroy that
    card." It is an Instant, played in the opponent's turn."""
    state = new_game([["trap"], ["trap"]])
    refused(state, RED, "castles/instant_only", type="play", card=in_hand(state, RED, "trap"))
    spear = put(state, "spearman", RED, 3)
    do(state, RED, type="move", card=spear.id, to=4)
    assert ENGINE.to_act(state) == frozenset({BLUE}) and state.phase == "response"
    assert ENGINE.legal_actions(state, BLUE)[0] == {"type": "pass"}
    do(state, BLUE, type="trap", card=in_hand(state, BLUE, "trap"), target=spear.id)
    assert spear.place == DISCARD and state.phase == "turn"


def test_trap_window_opens_the_same_whether_or_not_a_trap_is_held() -> None:
    """Card list: the window must not reveal whether the owner holds a Trap."""
    views = []
    for blue_hand in (["trap"], ["archer"]):
        state = new_game([[], blue_hand])
        spear = put(state, "spearman", RED, 3)
        events = ENGINE.apply(state, RED, {"type": "move", "card": spear.id, "to": 4}, 5000)
        views.append((events[-1], ENGINE.view(state, RED), ENGINE.deadline(state)))
    assert views[0] == views[1]
    state = new_game([[], ["trap"]])
    spear = put(state, "spearman", RED, 3)
    do(state, RED, type="move", card=spear.id, to=4)
    assert ENGINE.tick(state, ENGINE.deadline(state) - 1) == []  # type: ignore[operator]
    assert ENGINE.tick(state, ENGINE.deadline(state))[0]["type"] == "window_closed"  # type: ignore[arg-type]
    assert spear.place == PLAY and ENGINE.to_act(state) == frozenset({RED})


def test_trap_prompts_switched_off_open_no_more_windows() -> None:
    """Card list: unless the owner has switched such prompts off for the match."""
    state = new_game([[], ["trap"]])
    first = put(state, "spearman", RED, 3)
    second = put(state, "spearman", RED, 3)
    do(state, RED, type="move", card=first.id, to=4)
    do(state, BLUE, type="trap_prompts_off")
    do(state, RED, type="move", card=second.id, to=4)
    assert state.phase == "turn" and ENGINE.view(state, BLUE)["trap_prompts"] is False


def test_rally_forces_moves_every_soldier_to_the_middle_zone() -> None:
    """Rally Forces: "Play only if you have a Soldier in the Castle Zone, the Middle Zone, and
    your side of the Front. Move all Soldiers to the Middle Zone.\""""
    state = new_game([["rally_forces"]])
    rally = in_hand(state, RED, "rally_forces")
    soldiers = [put(state, "spearman", RED, z) for z in (0, 1)]
    refused(state, RED, "castles/rally_unmet", type="play", card=rally)
    soldiers += [put(state, "archer", RED, 2), put(state, "spearman", RED, 4)]
    do(state, RED, type="play", card=rally)
    assert {s.zone for s in soldiers} == {1}


def test_ambush_doubles_soldier_damage_to_enemy_soldiers_and_civilians() -> None:
    """Ambush: "Any damage your Soldiers deal this turn to opponent Soldiers or Civilians deal
    double the damage.\""""
    state = new_game([["ambush"]])
    archer = put(state, "archer", RED, 2)
    foe = put(state, "spearman", BLUE, 2)
    tower = put(state, "siege_tower", BLUE, 3)
    do(state, RED, type="play", card=in_hand(state, RED, "ambush"))
    do(state, RED, type="act", card=archer.id, target=foe.id)
    assert foe.place == DISCARD  # 2 x 2 = 4
    archer.acts = 1
    do(state, RED, type="act", card=archer.id, target=tower.id)
    assert tower.hp == 3  # Buildings take plain damage
    end_turn(state)
    assert not state.ambush


def test_incendiarism_deals_3_to_every_unit_in_one_zone() -> None:
    """Incendiarism: "Deal 3 damage to all units in a particular zone.\""""
    state = new_game([["incendiarism"]])
    put(state, "spearman", RED, 2)
    foes = [put(state, "spearman", BLUE, 3), put(state, "archer", BLUE, 3)]
    tower = put(state, "siege_tower", BLUE, 3)
    do(state, RED, type="play", card=in_hand(state, RED, "incendiarism"), zone=3)
    assert foes[0].hp == 1 and foes[1].place == DISCARD and tower.hp == 5


def test_resurrection_restores_two_soldiers_to_your_middle_zone() -> None:
    """Resurrection: "Restore 2 Soldiers from the discard pile to your Middle Zone.\""""
    state = new_game([["resurrection"]])
    fallen = [put(state, "spearman", BLUE, 3), put(state, "archer", RED, 2)]
    for card in fallen:
        kill(state, card)
    do(
        state,
        RED,
        type="play",
        card=in_hand(state, RED, "resurrection"),
        targets=[c.id for c in fallen],
    )
    assert all((c.place, c.side, c.zone, c.acts) == (PLAY, RED, 1, 0) for c in fallen)


def test_plague_hits_soldiers_and_civilians_in_the_enemy_castle_zone_yours_too() -> None:
    """Plague: "Deal 2 damage to all Soldiers and Civilians in your opponent's Castle Zone
    (including your own).\""""
    state = new_game([["plague"]])
    mine = put(state, "spearman", RED, 5)
    theirs = put(state, "builder", BLUE, 5)
    spy = colour(state, BLUE, "spy")  # a Civilian at home
    wizard = colour(state, BLUE, "wizard")
    do(state, RED, type="play", card=in_hand(state, RED, "plague"))
    assert mine.hp == 2 and theirs.place == DISCARD and spy.place == DISCARD and wizard.hp == 2


def test_lightning_storm_hits_every_card_on_the_enemy_side_yours_too() -> None:
    """Lightning Storm: "Deal 3 damage to all cards on your opponent's side of the field
    (including your own).\""""
    state = new_game([["lightning_storm"]])
    mine = put(state, "spearman", RED, 3)
    safe = put(state, "spearman", RED, 2)
    do(state, RED, type="play", card=in_hand(state, RED, "lightning_storm"))
    assert mine.hp == 1 and safe.hp == 4
    assert colour(state, BLUE, "castle").hp == 47 and colour(state, BLUE, "general").hp == 2
    assert colour(state, BLUE, "wizard").place == DISCARD


def test_lightning_storm_can_win_the_game() -> None:
    state = new_game([["lightning_storm"]])
    colour(state, BLUE, "castle").hp = 3
    do(state, RED, type="play", card=in_hand(state, RED, "lightning_storm"))
    assert ENGINE.outcome(state).reason == "castle_destroyed"  # type: ignore[union-attr]


__all__ = ["end_turn"]
