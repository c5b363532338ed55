"""Stacked-deck scenarios: every card text of the house list does what it says."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import IllegalAction, InvalidAction, event_for
from engines.rampage.cards import CARDS

from .helpers import (
    Side,
    act,
    bury,
    card,
    conserved,
    give,
    kinds,
    only,
    others,
    snapshot,
    start,
    types,
)

# Knights at the Gate (defence 3), Bricklayers and a Watchtower at the Castle (3 and 2).
STRONG = Side(
    gate=["knight", "knight", "knight", "footman"],
    castle=["bricklayer", "bricklayer", "bricklayer", "watchtower"],
)


def attack_of(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "attack")


@pytest.mark.parametrize(
    ("kind", "cost", "strength", "structure"),
    [
        ("knight", 0, 3, "gate"),
        ("footman", 0, 2, "gate"),
        ("mercenary", 0, 2, "gate"),
        ("veteran", 0, 3, "gate"),
        ("berserker", 1, 4, "gate"),
        ("giant", 1, 5, "gate"),
        ("dragon", 2, 7, "gate"),
        ("trebuchet", 2, 8, "gate"),
        ("battering_ram", 1, 6, "gate"),
        ("crossbowman", 0, 2, "gate"),
        ("tunnel_digger", 0, 3, "castle"),
    ],
)
def test_attack_cards_attack_with_their_printed_value(
    kind: str, cost: int, strength: int, structure: str
) -> None:
    """Attack value in the shield; costs ("Discard N cards") paid first; Ram +2 at a Gate;
    Tunnel Digger goes past the Gate to the Castle."""
    state = start(p1=STRONG, draws=[kind])
    give(state, 0, "squire", "squire")
    attacker = card(state, 0, kind)
    pay = others(state, 0, attacker, cost)
    events = act(state, 0, {"type": "play", "card": attacker, "pay": pay})
    assert (attack_of(events)["strength"], attack_of(events)["structure"]) == (strength, structure)
    assert all(c in state.discard for c in pay) and conserved(state)
    if cost:
        with pytest.raises(IllegalAction):  # a second copy without its cost is refused
            extra = give(state, 0, kind)[0]
            act(state, 0, {"type": "play", "card": extra})


def test_crossbowman_gets_two_more_when_the_attack_starts_at_the_castle() -> None:
    state = start(p1=STRONG, draws=["crossbowman"])
    only(state, 1, "gate", 0)
    events = act(state, 0, {"type": "play", "card": card(state, 0, "crossbowman")})
    assert attack_of(events)["strength"] == 4 and attack_of(events)["structure"] == "castle"


def test_axe_man_attacks_two_and_draws_one() -> None:
    state = start(draws=["axe_man", "dragon"])
    events = act(state, 0, {"type": "play", "card": card(state, 0, "axe_man")})
    assert attack_of(events)["strength"] == 2
    assert events[-1]["type"] == "drew" and kinds(events[-1]["cards"]) == ["dragon"]


def test_veteran_returns_to_hand_when_held_but_not_on_a_tie() -> None:
    """Rulebook: the attacker is destroyed when the defence is higher ("Exception: Veteran")."""
    state = start(p1=Side(gate=["giant", "knight", "footman", "footman"]), draws=["veteran"])
    veteran = card(state, 0, "veteran")
    bury(state, 1, "gate", "ogre")  # Ogre on top: Gate defence 4 > 3
    events = act(state, 0, {"type": "play", "card": veteran})
    assert events[-1]["result"] == "returned" and veteran in state.players[0].hand
    act(state, 0, {"type": "end_turn"})  # one Veteran a turn (house rule 8)
    act(state, 1, {"type": "end_turn"})
    only(state, 1, "gate", 0)
    bury(state, 1, "gate", "knight")  # 3 against 3: both destroyed
    events = act(state, 0, {"type": "play", "card": veteran})
    assert veteran in state.discard and events[-1]["result"] == "destroyed"


def test_jester_destroys_its_own_castle_top_and_attacks_with_twice_its_value() -> None:
    state = start(draws=["jester"])
    events = act(state, 0, {"type": "play", "card": card(state, 0, "jester")})
    assert events[1]["type"] == "destroyed" and events[1]["seat"] == 0
    assert attack_of(events)["strength"] == 8  # a Knight: Castle defence 4
    assert len(state.players[0].castle) == 3 and state.players[0].lost == 1


def test_summoner_destroys_the_top_card_of_both_castles() -> None:
    state = start(draws=["summoner"])
    summoner = card(state, 0, "summoner")
    events = act(state, 0, {"type": "play", "card": summoner, "pay": others(state, 0, summoner, 1)})
    assert [e["seat"] for e in events if e["type"] == "destroyed"] == [1, 0]
    assert [len(p.castle) for p in state.players] == [3, 3] and state.phase == "play"


def test_priest_discards_every_unit_showing_the_named_symbol() -> None:
    """Published description: the Priest makes a whole group of units disappear."""
    state = start(draws=["priest"])
    victims = give(state, 1, "knight", "mercenary", "giant", "archer")
    events = act(state, 0, {"type": "play", "card": card(state, 0, "priest"), "name": "knight"})
    assert events[1]["named"] == "knight" and events[1]["cards"] == victims[:3]
    assert victims[3] in state.players[1].hand
    with pytest.raises(InvalidAction):
        act(state, 0, {"type": "play", "card": give(state, 0, "priest")[0], "name": "wizard"})


def test_archer_discards_the_pointed_hand_card_then_attacks_one() -> None:
    """Published description: the Archer aims at a single card in the opponent's hand."""
    state = start(draws=["archer"])
    target = state.players[1].hand[1]
    events = act(state, 0, {"type": "play", "card": card(state, 0, "archer"), "target": 1})
    assert events[1]["type"] == "discarded" and events[1]["cards"] == [target]
    assert attack_of(events)["strength"] == 1 and target in state.discard
    state.players[1].hand.clear()
    act(state, 0, {"type": "play", "card": give(state, 0, "archer")[0]})


def test_squire_reinforcements_and_quartermaster_draw() -> None:
    state = start(
        Side(castle=["knight"] * 4), draws=["squire", "dragon", "knight", "knight", "footman"]
    )
    assert kinds(
        act(state, 0, {"type": "play", "card": card(state, 0, "squire")})[-1]["cards"]
    ) == ["dragon"]
    events = act(state, 0, {"type": "play", "card": card(state, 0, "reinforcements")})
    assert kinds(events[-1]["cards"]) == ["knight", "knight"]
    qm = card(state, 0, "quartermaster")
    events = act(state, 0, {"type": "play", "card": qm, "pay": [card(state, 0, "dragon")]})
    assert types(events) == ["discarded", "played", "drew"] and events[-1]["count"] == 3


@pytest.mark.parametrize(
    ("scheme", "units", "strength"),
    [
        ("siege_scheme", ["knight", "archer"], 9),
        ("siege_scheme", ["knight", "archer", "archer"], 14),
        ("warband_scheme", ["footman", "axe_man"], 7),
        ("warband_scheme", ["footman", "axe_man", "knight"], 11),
        ("volley_scheme", ["archer", "crossbowman"], 6),
        ("volley_scheme", ["archer", "archer", "mercenary"], 10),
        ("cavalry_scheme", ["knight", "veteran"], 7),
        ("cavalry_scheme", ["knight", "giant", "footman"], 11),
        ("grand_assault", ["knight", "archer", "footman"], 10),
        ("grand_assault", ["knight", "archer", "mercenary", "knight"], 15),
    ],
)
def test_attack_schemes_take_their_units_and_bonus(
    scheme: str, units: list[str], strength: int
) -> None:
    """Attack Scheme: discard the pictured units; one more of the bonus unit adds strength;
    a Giant or Mercenary counts as one of its symbols."""
    state = start(p1=STRONG, draws=[scheme])
    pay = give(state, 0, *units)
    action: dict[str, Any] = {"type": "play", "card": card(state, 0, scheme), "pay": pay}
    events = act(state, 0, action)
    assert attack_of(events)["strength"] == strength and all(c in state.discard for c in pay)


def test_permanents_banner_palisade_watchtower_change_attacks() -> None:
    state = start(p1=STRONG, draws=["banner"])
    act(state, 0, {"type": "play", "card": card(state, 0, "banner")})
    events = act(state, 0, {"type": "play", "card": give(state, 0, "knight")[0]})
    assert attack_of(events)["strength"] == 4
    for kind in ("palisade", "watchtower"):
        give(state, 1, kind)
        state.players[1].permanents.append(card(state, 1, kind))
        state.players[1].hand.remove(state.players[1].permanents[-1])
    events = act(state, 0, {"type": "play", "card": give(state, 0, "knight")[0]})
    assert next(e for e in events if e["type"] == "revealed")["defence"] == 4  # Knight 3 + 1
    only(state, 1, "gate", 0)
    events = act(state, 0, {"type": "play", "card": give(state, 0, "knight")[0]})
    assert next(e for e in events if e["type"] == "revealed")["defence"] == 4  # Bricklayer 3 + 1


def test_one_permanent_of_each_name_per_player() -> None:
    """House rule: a second copy of a permanent you already have in play is refused."""
    state = start(draws=["banner"])
    act(state, 0, {"type": "play", "card": card(state, 0, "banner")})
    second = give(state, 0, "banner")[0]
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "play", "card": second})
    assert refused.value.code == "rampage/permanent_in_play" and snapshot(state) == before


def test_barracks_costs_two_discards_and_draws_one_more_each_turn() -> None:
    state = start(draws=["barracks"])
    barracks = card(state, 0, "barracks")
    act(state, 0, {"type": "play", "card": barracks, "pay": others(state, 0, barracks, 2)})
    act(state, 0, {"type": "end_turn"})
    hand = len(state.players[0].hand)
    act(state, 1, {"type": "end_turn"})
    assert len(state.players[0].hand) == hand + 3


def test_fire_arrows_and_earthquake_destroy_permanents() -> None:
    state = start(draws=["banner"])
    banner = card(state, 0, "banner")
    act(state, 0, {"type": "play", "card": banner})
    act(state, 0, {"type": "end_turn"})
    arrows = give(state, 1, "fire_arrows")[0]
    events = act(state, 1, {"type": "play", "card": arrows, "target": banner})
    assert events[-1]["type"] == "permanent_destroyed" and banner in state.discard
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, {"type": "play", "card": give(state, 1, "fire_arrows")[0], "target": banner})
    assert refused.value.code == "rampage/no_target"
    mine = give(state, 1, "watchtower")[0]
    act(state, 1, {"type": "play", "card": mine})
    state.players[0].permanents.append(give(state, 0, "palisade")[0])
    state.players[0].hand.remove(state.players[0].permanents[-1])
    quake = give(state, 1, "earthquake")[0]
    pay = others(state, 1, quake, 1)
    act(state, 1, {"type": "play", "card": quake, "pay": pay})
    assert state.players[0].permanents == [] == state.players[1].permanents and conserved(state)


def test_bricklayer_puts_the_unseen_top_card_under_the_castle() -> None:
    state = start(draws=["bricklayer", "dragon"])
    events = act(state, 0, {"type": "play", "card": card(state, 0, "bricklayer")})
    assert kinds(state.players[0].castle)[-1] == "dragon" and state.players[0].placed == 9
    assert "dragon" not in str(events)


def test_sapper_destroys_the_gate_top_then_the_castle_top() -> None:
    state = start(draws=["sapper"])
    sapper = card(state, 0, "sapper")
    give(state, 0, "thief", "thief", "dragon", "dragon")
    act(state, 0, {"type": "play", "card": sapper, "pay": others(state, 0, sapper, 2)})
    assert len(state.players[1].gate) == 3
    only(state, 1, "gate", 0)
    second = give(state, 0, "sapper")[0]
    events = act(state, 0, {"type": "play", "card": second, "pay": others(state, 0, second, 2)})
    assert events[-1]["structure"] == "castle" and len(state.players[1].castle) == 3


def test_thief_takes_a_random_card_seen_only_by_the_two_players() -> None:
    state = start(draws=["thief"])
    before = set(state.players[1].hand)
    events = act(state, 0, {"type": "play", "card": card(state, 0, "thief")})
    stolen = events[1]["cards"][0]
    assert stolen in before and stolen in state.players[0].hand
    assert event_for(events[1], None) == {"type": "stolen", "seat": 0, "victim": 1, "count": 1}


def test_bomber_stops_the_attack_and_hits_the_attackers_gate() -> None:
    state = start(draws=["knight"])
    bury(state, 1, "gate", "bomber")
    events = act(state, 0, {"type": "play", "card": card(state, 0, "knight")})
    assert "triggered" in types(events) and events[-1]["type"] == "attack_ended"
    assert len(state.players[0].gate) == 3 and len(state.players[1].gate) == 4
    assert state.players[0].lost == 1 and conserved(state)


def test_saboteur_makes_the_attacker_discard_two_random_cards() -> None:
    state = start(draws=["knight"])
    bury(state, 1, "gate", "saboteur")
    hand = set(state.players[0].hand)
    events = act(state, 0, {"type": "play", "card": card(state, 0, "knight")})
    trigger = next(e for e in events if e["type"] == "triggered")
    assert len(trigger["cards"]) == 2 and set(trigger["cards"]) <= hand
    assert all(c in state.discard for c in trigger["cards"])


def test_spy_takes_a_random_card_from_the_attacker() -> None:
    state = start(draws=["knight"])
    bury(state, 1, "gate", "spy")
    events = act(state, 0, {"type": "play", "card": card(state, 0, "knight")})
    trigger = next(e for e in events if e["type"] == "triggered")
    assert trigger["cards"][0] in state.players[1].hand and trigger["visible_to"] == [0, 1]
    assert "cards" not in (event_for(trigger, None) or {})


def test_ogre_defends_six_at_the_castle() -> None:
    state = start(draws=["tunnel_digger"])
    bury(state, 1, "castle", "ogre")
    events = act(state, 0, {"type": "play", "card": card(state, 0, "tunnel_digger")})
    assert next(e for e in events if e["type"] == "revealed")["defence"] == 6


SCENARIOS = {
    "test_attack_cards_attack_with_their_printed_value": [
        "knight",
        "footman",
        "mercenary",
        "veteran",
        "berserker",
        "giant",
        "dragon",
        "trebuchet",
        "battering_ram",
        "crossbowman",
        "tunnel_digger",
    ],
    "test_crossbowman_gets_two_more_when_the_attack_starts_at_the_castle": ["crossbowman"],
    "test_axe_man_attacks_two_and_draws_one": ["axe_man"],
    "test_veteran_returns_to_hand_when_held_but_not_on_a_tie": ["veteran"],
    "test_jester_destroys_its_own_castle_top_and_attacks_with_twice_its_value": ["jester"],
    "test_summoner_destroys_the_top_card_of_both_castles": ["summoner"],
    "test_priest_discards_every_unit_showing_the_named_symbol": ["priest"],
    "test_archer_discards_the_pointed_hand_card_then_attacks_one": ["archer"],
    "test_squire_reinforcements_and_quartermaster_draw": [
        "squire",
        "reinforcements",
        "quartermaster",
    ],
    "test_attack_schemes_take_their_units_and_bonus": [
        "siege_scheme",
        "warband_scheme",
        "volley_scheme",
        "cavalry_scheme",
        "grand_assault",
        "giant",
        "mercenary",
    ],
    "test_permanents_banner_palisade_watchtower_change_attacks": [
        "banner",
        "palisade",
        "watchtower",
    ],
    "test_barracks_costs_two_discards_and_draws_one_more_each_turn": ["barracks"],
    "test_fire_arrows_and_earthquake_destroy_permanents": ["fire_arrows", "earthquake"],
    "test_bricklayer_puts_the_unseen_top_card_under_the_castle": ["bricklayer"],
    "test_sapper_destroys_the_gate_top_then_the_castle_top": ["sapper"],
    "test_thief_takes_a_random_card_seen_only_by_the_two_players": ["thief"],
    "test_bomber_stops_the_attack_and_hits_the_attackers_gate": ["bomber"],
    "test_saboteur_makes_the_attacker_discard_two_random_cards": ["saboteur"],
    "test_spy_takes_a_random_card_from_the_attacker": ["spy"],
    "test_ogre_defends_six_at_the_castle": ["ogre"],
}


def test_every_card_kind_with_a_text_has_a_scenario() -> None:
    """The index above names a scenario test in this module for each of the 37 kinds."""
    covered = {kind for kinds_ in SCENARIOS.values() for kind in kinds_}
    assert covered == {kind for kind, c in CARDS.items() if c.text}
    assert all(name in globals() for name in SCENARIOS)
