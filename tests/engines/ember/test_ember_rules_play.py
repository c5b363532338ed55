"""Rule tests, part two: modes, play symbols, face-down cards, attacks, the end of the game."""

from __future__ import annotations

from engines.ember import turns
from engines.ember.engine import EmberEngine
from tests.engines.ember.helpers import (
    ENGINE,
    act,
    arrange,
    deck,
    game,
    keep_mode,
    kinds,
    play,
    pull,
    refused,
    to_play_phase,
    types,
    uid,
)


def test_protection_mode_hand_and_emberscape_cannot_be_attacked() -> None:
    """Protection mode: "Cards in your hand or emberscape may not be stolen, destroyed,
    captured, or collected by opponents"."""
    state = game(deck(hand=["lethal_assassin", "pickpocket", "ensnare", "piercing_shot"]))
    arrange(state, 1, scape=["ember_cluster"], mode=["martyr"])
    to_play_phase(state, 0)
    for card in ("lethal_assassin", "pickpocket", "ensnare", "piercing_shot"):
        options = [
            a for a in ENGINE.legal_actions(state, 0) if a.get("card") == uid(state, 0, card)
        ]
        assert options == [{"type": "play", "card": uid(state, 0, card)}]


def test_protection_mode_does_not_stop_returns_nor_mode_pile_changes() -> None:
    """Protection mode: "does not prevent cards from your emberscape from being returned to
    your hand"; "The cards in your mode pile and deck, are not protected"."""
    state = game(deck(hand=["riptide", "hex"]))
    arrange(state, 1, scape=["ember_cluster"], mode=["martyr"])
    to_play_phase(state, 0)
    target = uid(state, 1, "ember_cluster", "scape")
    play(state, 0, "riptide", target_seat=1, target_card=target)
    act(state, 1, {"type": "pass"})
    assert target in state.players[1].hand
    to_play_phase(state, 1)
    play(state, 1, "ember_shard")
    to_play_phase(state, 0)
    play(state, 0, "hex", target_seat=1, choice=uid(state, 0, "ember_shard"))
    act(state, 1, {"type": "pass"})
    assert kinds(state, 1, "mode_pile") == ["martyr", "ember_shard"]


def test_play_symbols_send_cards_to_discard_collection_and_mode_piles() -> None:
    """Play symbols: "place it into the designated area after activating the effects"."""
    state = game(deck(hand=["transmute", "ember_cache", "kindling"]))
    to_play_phase(state, 0)
    events = play(state, 0, "kindling")
    assert types(events).index("drew") < types(events).index("placed")
    assert kinds(state, 0, "mode_pile")[-1] == "kindling"
    to_play_phase(state, 1)
    play(state, 1, "ember_shard")
    keep_mode(state, 0)
    play(state, 0, "ember_cache")
    assert kinds(state, 0, "collection") == ["ember_cache"]
    to_play_phase(state, 1)
    play(state, 1, "ember_shard")
    keep_mode(state, 0)
    play(state, 0, "transmute")
    assert kinds(state, 0, "discard") == ["transmute"]


def test_lasting_cards_work_only_while_in_the_emberscape() -> None:
    """Play symbols: "Cards with this symbol have effects that last as long as the card
    remains in the emberscape"."""
    state = game(deck(hand=["wellspring"]))
    to_play_phase(state, 0, mode="martyr")
    play(state, 0, "wellspring")
    to_play_phase(state, 1)
    play(state, 1, "ember_shard")
    hand = len(state.players[0].hand)
    keep_mode(state, 0)
    assert len(state.players[0].hand) == hand + 2
    play(state, 0, "ember_shard")
    to_play_phase(state, 1)
    play(state, 1, "ember_shard")
    state.players[0].scape.clear()
    hand = len(state.players[0].hand)
    keep_mode(state, 0)
    assert len(state.players[0].hand) == hand + 1


def test_full_emberscape_an_adding_effect_does_not_happen_but_the_card_plays() -> None:
    """Full emberscape: "you may play the card, but all effects that would put an additional
    card into your emberscape don't happen. All other possible effects still happen"."""
    state = game(deck(hand=["seductress"]))
    to_play_phase(state, 0)
    arrange(state, 0, scape=["ember_cluster"] * 4)
    options = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "play"]
    seductress = uid(state, 0, "seductress")
    assert [a for a in options if a["card"] == seductress] == [{"type": "play", "card": seductress}]
    play(state, 0, "seductress")
    assert len(state.players[0].scape) == 5


def test_face_down_cards_cannot_be_targeted_and_stay_hidden() -> None:
    """Face-down cards: "may not be stolen, captured, collected or destroyed by opponents"."""
    state = game(deck(hand=["veiled_cache"]), deck(hand=["lethal_assassin"]))
    to_play_phase(state, 0)
    events = play(state, 0, "veiled_cache")
    played = next(e for e in events if e["type"] == "played")
    assert played["visible_to"] == [0] and "card" not in played["redacted"]
    hidden = uid(state, 0, "veiled_cache", "scape")
    assert ENGINE.view(state, 1)["players"][0]["scape"] == [{"uid": hidden, "face_down": True}]
    assert ENGINE.view(state, 0)["players"][0]["scape"][0]["card"] == "veiled_cache"
    to_play_phase(state, 1)
    assassin = uid(state, 1, "lethal_assassin")
    assert [a for a in ENGINE.legal_actions(state, 1) if a.get("card") == assassin] == [
        {"type": "play", "card": assassin}
    ]
    refused(
        state,
        1,
        {"type": "play", "card": assassin, "target_seat": 0, "target_card": hidden},
        "ember/bad_target",
    )


def test_attacking_an_opponent_requires_declaring_the_opponent_and_card() -> None:
    """Attacking an opponent: "you must declare which opponent you are attacking... you must
    also declare which card you are targeting"."""
    state = game(deck(hand=["lethal_assassin"]), seats=3)
    arrange(state, 1, scape=["ember_cluster"])
    arrange(state, 2, scape=["ember_cluster"])
    to_play_phase(state, 0)
    card = uid(state, 0, "lethal_assassin")
    refused(state, 0, {"type": "play", "card": card}, "ember/bad_target")
    refused(state, 0, {"type": "play", "card": card, "target_seat": 1}, "ember/bad_target")
    targets = {
        (a["target_seat"], a["target_card"])
        for a in ENGINE.legal_actions(state, 0)
        if a.get("card") == card
    }
    assert targets == {
        (1, uid(state, 1, "ember_cluster", "scape")),
        (2, uid(state, 2, "ember_cluster", "scape")),
    }


def test_an_attack_stopped_by_protection_is_not_redirected_other_effects_happen() -> None:
    """Attacking an opponent: "If that opponent is able to put himself/herself into protection
    mode... the attack stops, and may not be redirected... All other possible effects of the
    card played still occur"."""
    state = game(deck(hand=["archers_mark"]), deck(hand=["mist_veil"]), seats=3)
    arrange(state, 1, scape=["ember_cluster"])
    arrange(state, 2, scape=["ember_cluster"])
    to_play_phase(state, 0)
    target = uid(state, 1, "ember_cluster", "scape")
    play(state, 0, "archers_mark", target_seat=1, target_card=target)
    events = act(state, 1, {"type": "respond", "card": uid(state, 1, "mist_veil")})
    assert state.window == {"seat": 0, "opened_ms": 0}
    events = act(state, 0, {"type": "pass"})
    stopped = next(e for e in events if e["type"] == "attack_stopped")
    assert stopped["why"] == "protected" and stopped["target_seat"] == 1
    assert target in state.players[1].scape and len(state.players[2].scape) == 1
    # Archer's Mark itself still went into the attacker's emberscape.
    assert kinds(state, 0, "scape") == ["archers_mark"]
    assert kinds(state, 1, "mode_pile") == ["mist_veil"]


def test_ending_the_game_after_the_last_arcane_card_and_its_responses() -> None:
    """Ending the game: "When a player plays his/her last arcane card... Response cards may
    still be played... After all effects have taken place, the game is over"."""
    state = game(deck(arcane=["lethal_assassin"]), deck(hand=["martyr"]))
    state.players[0].arcane = state.players[0].arcane[:1]
    arrange(state, 1, scape=["ember_cluster"])
    to_play_phase(state, 0)
    arrange(state, 0, scape=["golden_hoard"] * 4)
    play(state, 0, "ember_shard")
    to_play_phase(state, 1)
    play(state, 1, "ember_shard")
    assert state.phase == "arcane" and state.turn == 0
    target = uid(state, 1, "ember_cluster", "scape")
    act(state, 0, {"type": "arcane", "target_seat": 1, "target_card": target})
    assert state.phase == "respond" and ENGINE.outcome(state) is None
    act(state, 1, {"type": "respond", "card": uid(state, 1, "martyr")})
    act(state, 0, {"type": "pass"})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "last_arcane"
    assert target in state.players[1].scape  # Martyr stopped the last attack


def test_scoring_counts_only_stones_in_the_collection_pile() -> None:
    """Ending the game: "Cards not in the collection pile do not get added to the total"."""
    state = game()
    arrange(state, 0, scape=["golden_hoard"] * 3)
    state.players[0].collection.append(pull(state, 0, "ember_cluster"))
    state.players[1].collection.append(pull(state, 1, "ember_shard"))
    act(state, 1, {"type": "resign"})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[0], [1]]
    result = ENGINE.view(state, 0)["outcome"]
    assert result["seats"]["0"]["damage"] == 0.0


def test_damage_is_the_stone_gap_to_the_winner_over_the_winners_stones() -> None:
    """Ember damage = the stone gap to the winner / the winner's stones."""
    state = game(seats=3)
    for seat, cards in ((0, ["ember_cluster"] * 2), (1, ["ember_shard"] * 2), (2, [])):
        for card in cards:
            state.players[seat].collection.append(pull(state, seat, card))
    turns.end_game(state, "last_arcane", [])
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.placings == [[0], [1], [2]]
    assert [outcome.seats[s].damage for s in range(3)] == [0.0, (6 - 4) / 6, 1.0]


def test_options_are_validated() -> None:
    """The engine contract: setup refuses bad options with stable codes; Ember has one deck per
    seat, so a shared ``deck`` is refused."""
    engine = EmberEngine()
    for options, code in (
        ({"deck": ["ember_shard"]}, "ember/bad_option"),
        ({"heroes": ["yvera", "yvera"]}, "ember/bad_option"),
        ({"heroes": ["nobody", "yvera"]}, "ember/bad_option"),
        ({"decks": [["no_such_card"], []]}, "ember/unknown_card"),
        ({"decks": [[]]}, "ember/bad_option"),
        ({"first_seat": 2}, "ember/bad_option"),
        ({"names": ["only one"]}, "ember/bad_option"),
    ):
        try:
            engine.setup(2, 1, options)
        except Exception as error:
            assert getattr(error, "code", None) == code, (options, error)
        else:
            raise AssertionError(f"accepted {options}")
    state = engine.setup(2, 1, {"names": ["Ann", "Bob"], "heroes": "random"})
    assert [p["name"] for p in engine.view(state, None)["players"]] == ["Ann", "Bob"]
    assert len({p.hero for p in state.players}) == 2
