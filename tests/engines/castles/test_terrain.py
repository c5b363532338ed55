"""The optional terrain rules (table options, Plains by default), one test per terrain."""

from __future__ import annotations

from typing import Any

from engines.castles.state import DISCARD
from tests.engines.castles.helpers import ENGINE, colour, do, in_hand, new_game, put, refused

RED, BLUE = 0, 1


def land(*middle: str, **options: Any) -> dict[str, Any]:
    """Terrain for zones 1..4 (the Castle Zones are always Plains)."""
    return {"terrain": ["plains", *middle, "plains"], **options}


def test_terrain_defaults_to_plains_everywhere() -> None:
    """ "By default all zones are Plains. The Castle Zones must be Plains.\""""
    state = new_game()
    assert [z["terrain"] for z in ENGINE.view(state, None)["zones"]] == ["plains"] * 6


def test_archers_on_hills_reach_two_zones_and_into_the_castle_zone() -> None:
    """Hills: "Archers that are on Hills have a range of 2 zones and may attack into the Castle
    Zone.\""""
    state = new_game(**land("plains", "plains", "plains", "hills"))
    archer = put(state, "archer", RED, 4)
    spy = colour(state, BLUE, "spy")  # in Blue's Castle Zone, two zones away
    do(state, RED, type="act", card=archer.id, target=spy.id)
    assert spy.place == DISCARD
    far = put(state, "spearman", BLUE, 2)
    archer.acts = 1
    do(state, RED, type="act", card=archer.id, target=far.id)
    assert far.hp == 2


def test_archers_on_high_hills_also_deal_one_more() -> None:
    """High Hills: range 2, into the Castle Zone, "and deal +1 damage"."""
    state = new_game(**land("plains", "high_hills", "plains", "plains"))
    archer = put(state, "archer", RED, 2)
    foe = put(state, "spearman", BLUE, 4)
    do(state, RED, type="act", card=archer.id, target=foe.id)
    assert foe.hp == 1


def test_soldiers_entering_high_hills_may_be_struck_by_any_enemy_soldier() -> None:
    """High Hills: "Soldiers which have just entered High Hills may be attacked by any opponent
    Soldiers" (the sentence is cut off in the rulebook; read like the River's free strikes)."""
    state = new_game(**land("plains", "high_hills", "plains", "plains"))
    climber = put(state, "spearman", RED, 1)
    guard = put(state, "archer", BLUE, 5)
    do(state, RED, type="move", card=climber.id, to=2)
    assert state.phase == "response" and ENGINE.to_act(state) == frozenset({BLUE})
    assert {"type": "strike", "card": guard.id, "target": climber.id} in ENGINE.legal_actions(
        state, BLUE
    )
    do(state, BLUE, type="strike", card=guard.id, target=climber.id)
    refused(state, BLUE, "castles/already_acted", type="strike", card=guard.id, target=climber.id)
    assert climber.hp == 2
    do(state, BLUE, type="pass")
    assert state.phase == "turn"


def test_crossing_a_river_opens_strikes_for_enemy_soldiers() -> None:
    """River: "Crossing the River means any opponent Soldiers may attack your card that crosses
    it during your turn while you cross it." (rivers run between zones)"""
    state = new_game(rivers=[2])
    wader = put(state, "builder", RED, 2)
    spear = put(state, "spearman", BLUE, 4)
    do(state, RED, type="move", card=wader.id, to=3)
    do(state, BLUE, type="strike", card=spear.id, target=wader.id)
    assert wader.place == DISCARD and state.phase == "turn"


def test_no_strike_window_without_enemy_soldiers() -> None:
    state = new_game(rivers=[2])
    wader = put(state, "builder", RED, 2)
    do(state, RED, type="move", card=wader.id, to=3)
    assert state.phase == "turn"


def test_boats_on_a_lake_deal_one_less_and_take_one_more_from_the_bank() -> None:
    """Lake: "Boats are vulnerable and deal -1 damage and take +1 damage when attacked by
    Soldiers on the bank. If both combatants are in boats then they both deal -1 damage but do
    not take any extra damage.\""""
    state = new_game(**land("plains", "lake", "plains", "plains"))
    boat = put(state, "spearman", RED, 2)
    other_boat = put(state, "spearman", BLUE, 2)
    bank = put(state, "archer", BLUE, 3)
    do(state, RED, type="act", card=boat.id, target=other_boat.id)
    assert other_boat.hp == 2  # 3 - 1, no extra
    state.active = BLUE
    for card in (bank, other_boat):
        card.acts = 1
    do(state, BLUE, type="act", card=bank.id, target=boat.id)
    assert boat.hp == 1  # 2 + 1 from the bank


def test_archers_deal_one_less_to_units_in_a_forest() -> None:
    """Forest: "Archers deal -1 damage to Civilians and Soldiers in Forests.\""""
    state = new_game(**land("plains", "plains", "forest", "plains"))
    archer = put(state, "archer", RED, 2)
    hidden = put(state, "spearman", BLUE, 3)
    do(state, RED, type="act", card=archer.id, target=hidden.id)
    assert hidden.hp == 3
    spear = put(state, "spearman", RED, 3)
    do(state, RED, type="act", card=spear.id, target=hidden.id)
    assert hidden.place == DISCARD  # Spearmen are not slowed by trees


def test_soldiers_on_a_marsh_perform_no_special_attacks() -> None:
    """Marsh: "No Special Attacks may be performed by Soldiers on a Marsh.\""""
    state = new_game([["charge", "ambush"]], **land("plains", "marsh", "plains", "plains"))
    bogged = put(state, "spearman", RED, 2)
    charge = in_hand(state, RED, "charge")
    refused(state, RED, "castles/needs_forward_soldier", type="play", card=charge, target=bogged.id)
    dry = put(state, "spearman", RED, 3)
    refused(state, RED, "castles/bad_target", type="play", card=charge, target=bogged.id)
    do(state, RED, type="play", card=charge, target=dry.id)
    foe = put(state, "spearman", BLUE, 2)
    do(state, RED, type="play", card=in_hand(state, RED, "ambush"))
    do(state, RED, type="act", card=bogged.id, target=foe.id)
    assert foe.hp == 1  # no Ambush doubling from the Marsh
