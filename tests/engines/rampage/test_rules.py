"""Rule tests, one per clause of the Castle Rampage rulebook (quoted in each docstring)."""

from __future__ import annotations

import pytest

from engines.base import ActionError, IllegalAction, InvalidAction
from engines.rampage.cards import CARDS, card_of, kind_of
from engines.rampage.state import OVER, PLAY, SETUP

from .helpers import ENGINE, Side, act, card, conserved, give, kinds, only, snapshot, start, types


def test_preparation_deals_five_cards_and_never_a_purple_one() -> None:
    """Preparation: "Deal 5 cards ... If any player receives a purple card, discard it and
    replace it with a new card. Afterwards, shuffle the discarded purple cards back"."""
    deck = ["bomber", "ogre", "knight", "knight", "footman", "footman", "squire", "spy"]
    state = ENGINE.setup(2, 3, {"deck": deck, "first_seat": 0})
    dealt = state.players[0].dealt
    assert kinds(dealt) == ["knight", "knight", "footman", "footman", "squire"]
    assert not any(card_of(c).purple for c in state.players[1].dealt)
    assert {"bomber#1", "ogre#1", "spy#1"} <= set(state.draw)
    assert conserved(state)


def test_preparation_both_players_choose_at_once_twice() -> None:
    """Preparation: "Each player places 2 of the 5 cards face down at their Gate. Then ... 2
    ... at their Castle. Set aside the remaining card. Repeat this process once"."""
    state = ENGINE.setup(2, 11)
    assert ENGINE.to_act(state) == {0, 1}
    first = ENGINE.legal_actions(state, 1)[0]
    act(state, 1, first)
    assert ENGINE.to_act(state) == {0}
    with pytest.raises(IllegalAction) as refused:
        act(state, 1, first)
    assert refused.value.code == "rampage/already_chosen"
    act(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state.setup_round == 2 and ENGINE.to_act(state) == {0, 1}
    for seat in (0, 1):
        act(state, seat, ENGINE.legal_actions(state, seat)[0])
    for player in state.players:
        assert len(player.gate) == len(player.castle) == 4
        assert player.placed == 8
    assert state.phase == PLAY


def test_preparation_set_aside_cards_form_a_starting_hand_of_two() -> None:
    """Preparation: "Both players add the cards set aside to their hand, so each player has a
    starting hand of 2 cards" (the starting player then draws its first card)."""
    state = start(Side(hand=["thief", "dragon"]), Side(hand=["thief", "dragon"]), ["knight"])
    assert kinds(state.players[1].hand) == ["thief", "dragon"]
    assert kinds(state.players[0].hand) == ["thief", "dragon", "knight"]


def test_note_added_cards_always_go_under_the_others() -> None:
    """Note: "Whenever you add cards to your Castle or Gate, always place them under the other
    cards at that structure" (set-up round two and every defence placement)."""
    state = start(Side(gate=["knight", "footman", "axe_man", "giant"]), draws=["dragon"])
    assert kinds(state.players[0].gate) == ["knight", "footman", "axe_man", "giant"]
    act(state, 0, {"type": "defend", "card": card(state, 0, "dragon"), "to": "gate"})
    assert kinds(state.players[0].gate)[-1] == "dragon"


def test_note_nobody_sees_face_down_stack_cards_but_both_count_them() -> None:
    """Note: "Neither player may look at the face down cards in any Castle or Gate. However,
    both player may count the number of cards"."""
    state = start()
    for seat in (0, 1, None):
        view = ENGINE.view(state, seat)
        text = str(view)
        for player in state.players:
            for card_id in player.gate + player.castle:
                assert card_id not in text
        assert [p["gate_size"] for p in view["players"]] == [4, 4]
        assert [p["castle_size"] for p in view["players"]] == [4, 4]


def test_game_turn_draws_two_but_the_starting_player_only_one_at_first() -> None:
    """Game turn: "At the start of your turn, draw 2 cards ... The starting player draws only 1
    card on their first turn"."""
    state = start(first_seat=1)
    assert state.active == 1 and len(state.players[1].hand) == 3
    act(state, 1, {"type": "end_turn"})
    assert len(state.players[0].hand) == 4
    act(state, 0, {"type": "end_turn"})
    assert len(state.players[1].hand) == 5


def test_strengthen_defenses_once_a_turn_without_effect_or_cost() -> None:
    """Strengthen your defenses: "1x during your turn ... place 1 card from your hand under your
    Gate or Castle ... Do not execute its effect and do not pay any costs"."""
    state = start(draws=["dragon"])
    events = act(state, 0, {"type": "defend", "card": card(state, 0, "dragon"), "to": "castle"})
    assert types(events) == ["defended"] and kinds(state.players[0].castle)[-1] == "dragon"
    assert state.discard == [] and state.players[0].placed == 9
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "defend", "card": state.players[0].hand[0], "to": "gate"})
    assert refused.value.code == "rampage/already_defended"
    assert snapshot(state) == before


def test_ogre_placement_costs_two_discards() -> None:
    """Exception: "You must discard 2 cards in order to place the Ogre to strengthen your
    defenses"."""
    state = start(draws=["ogre"])
    ogre = card(state, 0, "ogre")
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "defend", "card": ogre, "to": "castle"})
    assert refused.value.code == "rampage/ogre_cost"
    pay = [c for c in state.players[0].hand if c != ogre]
    act(state, 0, {"type": "defend", "card": ogre, "to": "castle", "pay": pay})
    assert kinds(state.players[0].castle)[-1] == "ogre" and state.discard == pay


def test_play_cards_pay_costs_first_then_any_number_of_cards() -> None:
    """Play cards: "you may play any number of cards ... first, pay the associated costs"."""
    state = start(draws=["quartermaster"])
    for _ in range(2):
        qm = card(state, 0, "quartermaster")
        pay = next(c for c in state.players[0].hand if c != qm)
        events = act(state, 0, {"type": "play", "card": qm, "pay": [pay]})
        assert types(events)[:3] == ["discarded", "played", "drew"]
    dragon = give(state, 0, "dragon")[0]
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "play", "card": dragon, "pay": [pay]})  # a paid card, one short
    assert refused.value.code == "rampage/cost" and snapshot(state) == before


def test_permanent_cards_remain_in_play() -> None:
    """Play cards: "Cards showing a [permanent symbol] ... remain in play until destroyed"."""
    state = start(draws=["banner"])
    banner = card(state, 0, "banner")
    act(state, 0, {"type": "play", "card": banner})
    assert state.players[0].permanents == [banner] and banner not in state.discard
    act(state, 0, {"type": "end_turn"})
    act(state, 1, {"type": "end_turn"})
    assert state.players[0].permanents == [banner]


def test_attack_targets_the_gate_while_it_has_cards() -> None:
    """Attacks: "If there are cards in the opposing Gate, the attack targets the Gate"."""
    state = start(draws=["knight"])
    events = act(state, 0, {"type": "play", "card": card(state, 0, "knight")})
    assert events[1]["type"] == "attack" and events[1]["structure"] == "gate"


def test_attack_targets_the_castle_when_the_gate_is_empty() -> None:
    """Attacks: "If there are no cards in the Gate, the attack targets the Castle, directly"."""
    state = start(draws=["knight"])
    state.discard.extend(state.players[1].gate)
    state.players[1].gate.clear()
    events = act(state, 0, {"type": "play", "card": card(state, 0, "knight")})
    assert events[1]["structure"] == "castle"
    assert events[2] == {**events[2], "structure": "castle"}


def test_higher_defence_destroys_the_attacker_and_returns_the_defender() -> None:
    """Defense higher: "Destroy the attacking card ... Return the defending card to the top of
    the structure, face down ... Damage is not remembered"."""
    state = start(p1=Side(gate=["giant", "footman", "footman", "footman"]), draws=["footman"])
    attacker = card(state, 0, "footman")
    events = act(state, 0, {"type": "play", "card": attacker})
    assert types(events) == ["played", "attack", "revealed", "attack_ended"]
    assert kinds(state.players[1].gate)[0] == "giant" and state.discard == [attacker]


def test_equal_defence_destroys_both_and_reveals_nothing_more() -> None:
    """Defense equal: "Destroy both ... Do not reveal another card from the attacked structure"."""
    state = start(p1=Side(gate=["knight", "footman", "footman", "footman"]), draws=["knight"])
    attacker = card(state, 0, "knight")
    events = act(state, 0, {"type": "play", "card": attacker})
    assert types(events).count("revealed") == 1
    assert kinds(state.players[1].gate) == ["footman"] * 3
    assert kinds(state.discard) == ["knight", "knight"] and state.discard[-1] == attacker


def test_lower_defence_carries_the_rest_from_gate_into_castle() -> None:
    """Defense lower: "Subtract its Defense Value ... If the last card of the Gate is destroyed
    in this way, continue with the attack by revealing cards from the Castle" (Anton's 9 vs
    Beatrix's 4, then an Ogre with 6 holds and returns on top of her Castle)."""
    state = start(p1=Side(gate=["knight", "footman", "footman", "footman"]), draws=["siege_scheme"])
    p1 = state.players[1]
    state.discard.extend(p1.gate[1:])
    del p1.gate[1:]  # her Gate holds one card: a Knight, defence 3, +1 from her Palisade
    palisade = give(state, 1, "palisade")[0]
    p1.hand.remove(palisade)
    p1.permanents.append(palisade)
    ogre = give(state, 1, "ogre")[0]
    p1.hand.remove(ogre)
    p1.castle.insert(0, ogre)
    scheme = card(state, 0, "siege_scheme")
    pay = give(state, 0, "knight", "archer")
    events = act(state, 0, {"type": "play", "card": scheme, "pay": pay})
    revealed = [e for e in events if e["type"] == "revealed"]
    assert [(e["structure"], e["defence"], e["strength"]) for e in revealed] == [
        ("gate", 4, 9),
        ("castle", 6, 5),
    ]
    assert p1.gate == [] and p1.castle[0] == ogre and scheme in state.discard
    assert events[-1]["type"] == "attack_ended" and events[-1]["result"] == "destroyed"


def test_purple_effects_trigger_only_when_destroyed_in_an_attack() -> None:
    """Note: purple cards' effect "is not triggered if the card is revealed in any other way or
    when it is discarded" (a Sapper destroys without attacking)."""
    state = start(p1=Side(gate=["footman"] * 4), draws=["sapper"])
    bomber = give(state, 1, "bomber")[0]
    state.players[1].hand.remove(bomber)
    state.players[1].gate.insert(0, bomber)
    sapper = card(state, 0, "sapper")
    pay = [c for c in state.players[0].hand if c != sapper][:2]
    events = act(state, 0, {"type": "play", "card": sapper, "pay": pay})
    assert "triggered" not in types(events)
    assert len(state.players[0].gate) == 4 and bomber in state.discard


def test_end_when_the_last_castle_card_falls_even_with_gate_cards_left() -> None:
    """End of the game: "as soon as the last card of any Castle is destroyed. The owner of that
    Castle loses the game (even if they still have cards at their Gate)"."""
    state = start(draws=["tunnel_digger"])
    p1 = state.players[1]
    state.discard.extend(p1.castle[1:])
    del p1.castle[1:]  # one Knight left (defence 4) behind a full Gate
    give(state, 0, "banner")
    act(state, 0, {"type": "play", "card": card(state, 0, "banner")})
    act(state, 0, {"type": "play", "card": card(state, 0, "tunnel_digger")})
    outcome = ENGINE.outcome(state)
    assert state.phase == OVER and outcome is not None
    assert outcome.placings == [[0], [1]] and outcome.seats[1].destroyed
    assert len(p1.gate) == 4 and ENGINE.to_act(state) == frozenset()
    assert conserved(state)


def test_summoner_destroying_both_castles_loses_for_its_player() -> None:
    """End of the game: "The Summoner might destroy both Castles simultaneously. In this case,
    the player who played the Summoner loses"."""
    state = start(draws=["summoner"])
    for player in state.players:
        state.discard.extend(player.castle[1:])
        del player.castle[1:]
    summoner = card(state, 0, "summoner")
    pay = [next(c for c in state.players[0].hand if c != summoner)]
    events = act(state, 0, {"type": "play", "card": summoner, "pay": pay})
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "both_castles_destroyed"
    assert state.loser == 0


def test_jester_can_make_its_own_player_lose() -> None:
    """End of the game: "The Jester might also cause you to lose the game during your turn"."""
    state = start(draws=["jester"])
    p0 = state.players[0]
    state.discard.extend(p0.castle[1:])
    del p0.castle[1:]
    act(state, 0, {"type": "play", "card": card(state, 0, "jester")})
    assert state.loser == 0 and state.reason == "castle_destroyed" and conserved(state)


def test_units_with_several_symbols_count_as_only_one() -> None:
    """The cards: "Cards with multiple symbols (i.e. Giant, Mercenary) can only be used as 1 of
    the indicated unit types" (a Giant alone cannot pay a Cavalry Scheme's two Knights)."""
    state = start(draws=["cavalry_scheme"])
    giant = give(state, 0, "giant")[0]
    scheme = card(state, 0, "cavalry_scheme")
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "play", "card": scheme, "pay": [giant, giant]})
    assert refused.value.code == "rampage/cost"
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "play", "card": scheme, "pay": [giant]})
    knight = give(state, 0, "knight")[0]
    act(state, 0, {"type": "play", "card": scheme, "pay": [giant, knight], "as": {giant: "knight"}})


def test_attack_scheme_discards_units_and_a_bonus_unit_adds_strength() -> None:
    """Attack Scheme: "If you discard 1 Knight and 1 Archer, you may execute the Attack Scheme
    with an attack strength of 9. If you discard an additional Archer, add +5"."""
    sides = Side(gate=["giant", "giant", "giant", "footman"])
    for extra, strength in (([], 9), (["archer"], 14)):
        state = start(p1=sides, draws=["siege_scheme"])
        pay = give(state, 0, "knight", "archer", *extra)
        scheme = card(state, 0, "siege_scheme")
        events = act(state, 0, {"type": "play", "card": scheme, "pay": pay})
        assert next(e for e in events if e["type"] == "attack")["strength"] == strength
        assert all(c in state.discard for c in pay)


def test_house_rule_empty_draw_pile_reshuffles_the_discard_pile() -> None:
    """House rule (the rulebook is silent): an empty draw pile is rebuilt from the shuffled
    discard pile; with both empty, no card is drawn."""
    state = start()
    state.discard.extend(state.draw[2:])
    del state.draw[2:]
    events = act(state, 0, {"type": "end_turn"})
    assert "reshuffled" not in types(events) and state.draw == []
    events = act(state, 1, {"type": "end_turn"})
    assert "reshuffled" in types(events) and state.discard == []
    state.players[1].hand.extend(state.draw[1:])  # one card left to draw, none to reshuffle
    del state.draw[1:]
    hand_size = len(state.players[1].hand)
    events = act(state, 0, {"type": "end_turn"})
    assert events[-1]["type"] == "drew" and events[-1]["count"] == 1
    assert len(state.players[1].hand) == hand_size + 1 and conserved(state)


def test_house_rule_an_exhausted_siege_ends_on_castle_size() -> None:
    """House rule: a turn that would begin with both piles empty ends the match instead; the
    larger Castle wins (then the larger Gate; equal stacks draw)."""
    state = start()
    state.players[1].hand.extend(state.draw)
    state.draw.clear()
    only(state, 1, "castle", 3)
    state.players[0].hand.extend(state.discard)
    state.discard.clear()
    events = act(state, 0, {"type": "end_turn"})
    assert events[-1] == {**events[-1], "type": "game_over", "reason": "exhausted", "loser": 1}
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[0], [1]]
    assert not outcome.seats[1].destroyed and conserved(state)


@pytest.mark.parametrize(
    ("seat", "action", "error", "code"),
    [
        (1, {"type": "end_turn"}, IllegalAction, "rampage/not_your_turn"),
        (0, {"type": "setup", "gate": [], "castle": []}, InvalidAction, "rampage/bad_cards"),
        (
            0,
            {"type": "defend", "card": "knight#1", "to": "moat"},
            InvalidAction,
            "rampage/bad_structure",
        ),
        (0, {"type": "play", "card": "bomber#1"}, IllegalAction, "rampage/not_in_hand"),
        (0, {"type": "play", "card": 5}, InvalidAction, "rampage/bad_field"),
        (0, {"type": "play", "card": "bomber#1", "pay": [3]}, InvalidAction, "rampage/bad_field"),
        (0, {"type": "end_turn", "x": 1}, InvalidAction, "rampage/bad_field"),
        (0, {"type": "fly"}, InvalidAction, "rampage/unknown_action"),
        (2, {"type": "end_turn"}, InvalidAction, "rampage/bad_seat"),
        (0, "resign", InvalidAction, "rampage/bad_action"),
        (
            0,
            {"type": "play", "card": "reinforcements#1", "name": "knight"},
            InvalidAction,
            "rampage/bad_name",
        ),
        (
            0,
            {"type": "play", "card": "reinforcements#1", "target": 0},
            IllegalAction,
            "rampage/bad_target",
        ),
    ],
)
def test_refused_actions_carry_stable_codes_and_change_nothing(
    seat: int, action: object, error: type[ActionError], code: str
) -> None:
    """Engine contract: refusals raise with a stable code and leave the state unchanged."""
    state = start()
    before = snapshot(state)
    with pytest.raises(error) as refused:
        ENGINE.apply(state, seat, action, 0)  # type: ignore[arg-type]
    assert refused.value.code == code
    assert snapshot(state) == before


def test_purple_cards_cannot_be_played_only_placed() -> None:
    """Purple cards (Bomber, Saboteur, Spy, Ogre) have no play effect; they only defend."""
    state = start()
    for kind in ("bomber", "saboteur", "spy", "ogre"):
        purple = give(state, 0, kind)[0]
        with pytest.raises(IllegalAction) as refused:
            act(state, 0, {"type": "play", "card": purple})
        assert refused.value.code == "rampage/not_playable"


def test_resign_ends_the_match_with_damage_from_lost_structure_cards() -> None:
    """Contract: resign from any seat in play; damage = structure cards lost / ever placed."""
    state = start(draws=["knight"])
    act(state, 0, {"type": "play", "card": card(state, 0, "knight")})  # 3 vs Footman 2, Footman 2
    act(state, 1, {"type": "resign"})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "resigned"
    assert outcome.placings == [[0], [1]] and outcome.seats[1].resigned
    assert outcome.seats[1].damage == pytest.approx(state.players[1].lost / 8)
    assert outcome.seats[0].damage == 0.0
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "end_turn"})


def test_setup_phase_refuses_turn_actions() -> None:
    state = ENGINE.setup(2, 5)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "end_turn"})
    assert refused.value.code == "rampage/wrong_phase" and state.phase == SETUP


def test_every_card_kind_is_marked_rulebook_or_house() -> None:
    assert sum(c.count for c in CARDS.values()) == 118
    assert {c.source for c in CARDS.values()} == {"rulebook", "house"}
    named = {"dragon", "axe_man", "ogre", "bomber", "saboteur", "spy", "veteran"}
    assert all(CARDS[k].source == "rulebook" for k in named)
    assert CARDS["dragon"].gate == 2 and CARDS["dragon"].castle == 3
    assert CARDS["ogre"].castle == 6 and CARDS["axe_man"].attack == 2
    assert kind_of("axe_man#3") == "axe_man"
