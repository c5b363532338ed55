"""Scenario tests for the hero cards (blue, yellow, green, red) on stacked decks."""

from __future__ import annotations

import pytest

from engines.ember.cards import CARDS, HEROES
from engines.ember.state import EmberState
from tests.engines.ember import test_ember_cards as common_cards
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


def attack_events(state: EmberState, card: str) -> list[dict[str, object]]:
    """Seat 0 plays the hand attack ``card`` on seat 1, which passes; the events."""
    play(state, 0, card, target_seat=1)
    return act(state, 1, {"type": "pass"})


def test_every_card_has_a_scenario_here() -> None:
    """Every card of cards.json has a scenario in this file or in test_ember_cards.py."""
    names = [*globals(), *vars(common_cards)]
    tested = set(common_cards.VANILLA) | {
        name.removeprefix("test_").split("__")[0]
        for name in names
        if name.startswith("test_") and "__" in name
    }
    tested |= {"wellspring", "eagle_eye", "mana_well"}
    assert set(CARDS) <= tested, sorted(set(CARDS) - tested)


def test_tidal_recall__draws_then_returns_another_card() -> None:
    state = game(deck(hand=["tidal_recall"]))
    to_play_phase(state, 0, mode="martyr")
    arrange(state, 0, scape=["glimmer"])
    glimmer = uid(state, 0, "glimmer", "scape")
    hand = len(state.players[0].hand)
    play(state, 0, "tidal_recall", choice=glimmer)
    assert glimmer in state.players[0].hand and len(state.players[0].hand) == hand - 1 + 2
    assert kinds(state, 0, "scape") == ["tidal_recall"]


def test_riptide__returns_an_opponents_card_to_its_hand() -> None:
    state = game(deck(hand=["riptide"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = attack(state, "riptide", "golden_hoard")
    assert target in state.players[1].hand and kinds(state, 0, "discard") == ["riptide"]


def test_still_waters__wards_the_emberscape_but_not_against_returns() -> None:
    state = game(deck(hand=["lethal_assassin", "riptide"]))
    arrange(state, 1, scape=["still_waters", "golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    assassin = uid(state, 0, "lethal_assassin")
    assert [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == assassin] == [
        {"type": "play", "card": assassin}
    ]
    riptide = uid(state, 0, "riptide")
    assert any(
        a.get("card") == riptide and "target_card" in a for a in ENGINE.legal_actions(state, 0)
    )


@pytest.mark.parametrize("card", ["wellspring", "eagle_eye", "mana_well"])
def test_extra_draw_lasting_cards_draw_one_more(card: str) -> None:
    state = game(deck(hand=[card]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, card)
    next_turn(state, 1)
    hand = len(state.players[0].hand)
    keep_mode(state, 0)
    assert len(state.players[0].hand) == hand + 2


def test_mist_veil__answers_from_the_hand_with_protection() -> None:
    state = game(deck(hand=["pickpocket"]), deck(hand=["mist_veil"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "pickpocket", target_seat=1)
    act(state, 1, {"type": "respond", "card": uid(state, 1, "mist_veil")})
    events = act(state, 0, {"type": "pass"})
    assert next(e for e in events if e["type"] == "attack_stopped")["why"] == "protected"
    assert kinds(state, 1, "mode_pile") == ["mist_veil"] and len(state.players[1].hand) == 4


def test_golden_arrow__destroys_a_card() -> None:
    state = game(deck(hand=["golden_arrow"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = attack(state, "golden_arrow", "golden_hoard")
    assert state.players[1].discard == [target]


def test_pickpocket__steals_a_random_hand_card_seen_only_by_the_two_players() -> None:
    state = game(deck(hand=["pickpocket"]), seats=3)
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "pickpocket", target_seat=1)
    events = act(state, 1, {"type": "pass"})
    stolen = next(e for e in events if e["type"] == "steal_hand")
    assert stolen["visible_to"] == [0, 1] and "card" not in stolen["redacted"]
    assert stolen["uid"] in state.players[0].hand and len(state.players[1].hand) == 4


def test_piercing_shot__collects_an_opponents_card() -> None:
    state = game(deck(hand=["piercing_shot"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = attack(state, "piercing_shot", "golden_hoard")
    assert state.players[0].collection == [target]


def test_archers_mark__steals_into_the_hand() -> None:
    state = game(deck(hand=["archers_mark"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = attack(state, "archers_mark", "golden_hoard")
    assert target in state.players[0].hand and kinds(state, 0, "scape") == ["archers_mark"]


def test_war_cry__draws_two_then_sets_attack_mode() -> None:
    state = game(deck(hand=["war_cry"]))
    to_play_phase(state, 0, mode="martyr")
    hand = len(state.players[0].hand)
    play(state, 0, "war_cry")
    assert len(state.players[0].hand) == hand - 1 + 2
    assert ENGINE.view(state, 0)["players"][0]["mode"] == "attack"


def test_cleave__destroys_a_card() -> None:
    state = game(deck(hand=["cleave"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    target = attack(state, "cleave", "golden_hoard")
    assert state.players[1].discard == [target]


def test_whirlwind__destroys_a_random_hand_card() -> None:
    state = game(deck(hand=["whirlwind"]))
    to_play_phase(state, 0, mode="martyr")
    events = attack_events(state, "whirlwind")
    destroyed = next(e for e in events if e["type"] == "destroy_hand")
    assert destroyed["visible_to"] == "all" and state.players[1].discard == [destroyed["uid"]]


def test_vengeance__destroys_the_attacking_card_in_the_emberscape() -> None:
    state = game(deck(hand=["cleave"]), deck(hand=["vengeance"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "cleave", target_seat=1, target_card=uid(state, 1, "golden_hoard", "scape"))
    act(state, 1, {"type": "respond", "card": uid(state, 1, "vengeance")})
    act(state, 0, {"type": "pass"})
    assert kinds(state, 0, "discard") == ["cleave"]
    assert kinds(state, 1, "discard") == ["vengeance", "golden_hoard"]


def test_hidden_blade__answers_face_down_from_the_emberscape() -> None:
    state = game(deck(hand=["lethal_assassin"]))
    arrange(state, 1, scape=["golden_hoard"], face_down=["hidden_blade"])
    to_play_phase(state, 0, mode="martyr")
    blade = uid(state, 1, "hidden_blade", "scape")
    play(
        state,
        0,
        "lethal_assassin",
        target_seat=1,
        target_card=uid(state, 1, "golden_hoard", "scape"),
    )
    act(state, 1, {"type": "respond", "card": blade})
    act(state, 0, {"type": "pass"})
    assert kinds(state, 0, "discard") == ["lethal_assassin"]
    assert blade in state.players[1].discard and not state.players[1].scape


def test_blade_dancer__draws_one() -> None:
    state = game(deck(hand=["blade_dancer"]))
    to_play_phase(state, 0, mode="martyr")
    hand = len(state.players[0].hand)
    play(state, 0, "blade_dancer")
    assert len(state.players[0].hand) == hand and kinds(state, 0, "scape") == ["blade_dancer"]


def test_warlords_banner__wards_the_hand() -> None:
    state = game(deck(hand=["pickpocket", "whirlwind"]))
    arrange(state, 1, scape=["warlords_banner"])
    to_play_phase(state, 0, mode="martyr")
    assert all("target_seat" not in a for a in ENGINE.legal_actions(state, 0))


def test_rune_swap__draws_then_swaps_a_hand_card_with_the_next_arcane_card() -> None:
    state = game(deck(hand=["rune_swap", "dispel"], arcane=["glimmer"]))
    to_play_phase(state, 0, mode="martyr")
    dispel = uid(state, 0, "dispel")
    events = play(state, 0, "rune_swap", choice=dispel)
    swap = next(e for e in events if e["type"] == "rune_swap")
    assert swap["visible_to"] == [0] and swap["redacted"] == {"type": "rune_swap", "seat": 0}
    assert state.players[0].arcane[0] == dispel and "glimmer" in kinds(state, 0, "hand")


def test_ensnare__captures_without_effects_but_a_lasting_effect_applies() -> None:
    state = game(deck(hand=["ensnare"]))
    arrange(state, 1, scape=["wellspring"])
    to_play_phase(state, 0, mode="martyr")
    events_before = len(state.players[0].hand)
    target = attack(state, "ensnare", "wellspring")
    assert (
        kinds(state, 0, "scape") == ["ensnare", "wellspring"] and target in state.players[0].scape
    )
    assert len(state.players[0].hand) == events_before - 1
    next_turn(state, 1)
    hand = len(state.players[0].hand)
    keep_mode(state, 0)
    assert len(state.players[0].hand) == hand + 2  # the captured Wellspring draws for seat 0


def test_ensnare__no_room_no_capture() -> None:
    state = game(deck(hand=["ensnare"]))
    arrange(state, 1, scape=["golden_hoard"])
    to_play_phase(state, 0, mode="martyr")
    arrange(state, 0, scape=["ember_cluster"] * 4)
    target = uid(state, 1, "golden_hoard", "scape")
    play(state, 0, "ensnare", target_seat=1, target_card=target)
    events = act(state, 1, {"type": "pass"})
    assert "no_room" in types(events) and target in state.players[1].scape


def test_hex__puts_a_hand_card_on_an_opponents_mode_pile() -> None:
    state = game(deck(hand=["hex", "war_cry"]))
    arrange(state, 1, mode=["martyr"])
    to_play_phase(state, 0, mode="martyr")
    attack(state, "hex", choice=uid(state, 0, "war_cry"))
    assert kinds(state, 1, "mode_pile") == ["martyr", "war_cry"]
    assert ENGINE.view(state, 0)["players"][1]["mode"] == "attack"


def test_transmute__collects_one_of_your_emberscape_cards() -> None:
    state = game(deck(hand=["transmute"]))
    to_play_phase(state, 0, mode="martyr")
    arrange(state, 0, scape=["golden_hoard"])
    hoard = uid(state, 0, "golden_hoard", "scape")
    play(state, 0, "transmute", choice=hoard)
    assert state.players[0].collection == [hoard] and kinds(state, 0, "discard") == ["transmute"]


def test_every_hero_deck_is_thirty_cards_with_the_commons() -> None:
    for hero in HEROES.values():
        assert len(hero.card_list()) == 30
        assert "seductress" in hero.card_list() and "martyr" in hero.card_list()
