"""The response stack and its windows (Rulebook, Response effects; Attacking an opponent)."""

from __future__ import annotations

import json

from engines.base import events_for
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


def assassin_attack(defender_hand: list[str], **options: object) -> tuple[object, int]:
    """Seat 0 plays Lethal Assassin on seat 1's Ember Cluster; returns (state, target uid)."""
    state = game(
        deck(hand=["lethal_assassin", "dispel", "dispel"]), deck(hand=defender_hand), **options
    )
    arrange(state, 1, scape=["ember_cluster"])
    to_play_phase(state, 0, mode="martyr")
    target = uid(state, 1, "ember_cluster", "scape")
    play(state, 0, "lethal_assassin", target_seat=1, target_card=target)
    return state, target


def test_an_attack_opens_a_window_for_the_attacked_seat_only() -> None:
    """Response effects: "if another player is able to, he/she may play another card as a
    response"; the window is the attacked seat's, shown to everyone."""
    state, _ = assassin_attack(["martyr"])
    assert state.phase == "respond" and ENGINE.to_act(state) == {1}
    assert ENGINE.awaiting(state) == {1}
    view = ENGINE.view(state, 0)
    assert view["window"] == {"seat": 1, "deadline": 10_000}
    assert view["stack"][0]["card"] == "lethal_assassin"
    legal = ENGINE.legal_actions(state, 1)
    assert legal[0] == {"type": "pass"}
    assert {"type": "respond", "card": uid(state, 1, "martyr")} in legal
    assert ENGINE.legal_actions(state, 0) == [{"type": "resign"}]


def test_a_response_resolves_before_the_card_it_answers() -> None:
    """Response effects: "the effects of that response card happen first, then the effects
    of the card initially played"."""
    state, target = assassin_attack(["martyr"])
    act(state, 1, {"type": "respond", "card": uid(state, 1, "martyr")})
    assert ENGINE.to_act(state) == {0}  # the attacker may answer the response
    events = act(state, 0, {"type": "pass"})
    order = types(events)
    assert order.index("placed") < order.index("attack_stopped")
    assert target in state.players[1].scape
    assert kinds(state, 1, "discard") == ["martyr"]
    assert kinds(state, 0, "scape") == ["lethal_assassin"]


def test_a_response_to_a_response_resolves_first_of_all() -> None:
    """Response effects: "A player can play another card in response to the first response
    effect as well"."""
    state, target = assassin_attack(["martyr", "dispel"])
    act(state, 1, {"type": "respond", "card": uid(state, 1, "martyr")})
    act(state, 0, {"type": "respond", "card": uid(state, 0, "dispel")})
    assert ENGINE.to_act(state) == {1}
    # Seat 1 may dispel the dispel: three responses deep.
    act(state, 1, {"type": "respond", "card": uid(state, 1, "dispel")})
    assert [item["card"] for item in ENGINE.view(state, 0)["stack"]] == [
        "lethal_assassin",
        "martyr",
        "dispel",
        "dispel",
    ]
    act(state, 0, {"type": "pass"})
    # Seat 1's dispel cancelled seat 0's dispel, so the Martyr stopped the attack.
    assert target in state.players[1].scape
    assert sorted(kinds(state, 0, "discard")) == ["dispel"]


def test_a_dispelled_martyr_lets_the_attack_through() -> None:
    """Response effects: responses to responses resolve first (here: a dispel)."""
    state, target = assassin_attack(["martyr"])
    act(state, 1, {"type": "respond", "card": uid(state, 1, "martyr")})
    act(state, 0, {"type": "respond", "card": uid(state, 0, "dispel")})
    act(state, 1, {"type": "pass"})
    assert target in state.players[1].discard
    assert kinds(state, 1, "discard") == ["martyr", "ember_cluster"]


def test_effects_of_a_removed_card_still_occur() -> None:
    """Response effects: "If the card originally played is destroyed or removed from play,
    its effects will still occur after the effects of the response end"."""
    state, target = assassin_attack(["vengeance"])
    act(state, 1, {"type": "respond", "card": uid(state, 1, "vengeance")})
    act(state, 0, {"type": "pass"})
    assert kinds(state, 0, "discard") == ["lethal_assassin"]  # destroyed by Vengeance
    assert target in state.players[1].discard  # yet the assassin's destroy happened


def test_the_window_is_the_same_whether_or_not_a_response_card_is_held() -> None:
    """House rule: a response window reveals nothing about the hand."""
    with_martyr, _ = assassin_attack(["martyr"])
    without, _ = assassin_attack(["ember_shard"])
    for seat in (0, None):
        assert ENGINE.view(with_martyr, seat) == ENGINE.view(without, seat)
    mine_with = ENGINE.view(with_martyr, 1)
    mine_without = ENGINE.view(without, 1)
    mine_with.pop("hand")
    mine_without.pop("hand")
    assert mine_with == mine_without
    assert ENGINE.deadline(with_martyr) == ENGINE.deadline(without) == 10_000
    # Passing looks the same to the attacker either way.
    seen = [events_for(act(s, 1, {"type": "pass"}, 500), 0) for s in (with_martyr, without)]
    assert seen[0] == seen[1]


def test_an_unanswered_window_closes_when_its_time_runs_out() -> None:
    """House rule: a window lasts ``response_ms`` (default 10 s); a tick then passes for it."""
    state, target = assassin_attack(["martyr"], response_ms=2_000)
    assert ENGINE.deadline(state) == 2_000
    assert ENGINE.tick(state, 1_999) == []
    events = ENGINE.tick(state, 2_000)
    closed = next(e for e in events if e["type"] == "window_closed")
    assert closed["reason"] == "timeout"
    assert target in state.players[1].discard
    assert ENGINE.deadline(state) is None and state.turn == 1


def test_only_a_response_card_may_answer() -> None:
    """Response card glossary: "A card that is played in response to another card"."""
    state, _ = assassin_attack(["martyr", "dispel"])
    refused(
        state, 1, {"type": "respond", "card": uid(state, 1, "ember_shard")}, "ember/not_a_response"
    )
    refused(state, 0, {"type": "respond", "card": uid(state, 0, "dispel")}, "ember/not_your_turn")
    act(state, 1, {"type": "respond", "card": uid(state, 1, "martyr")})
    # Only a dispel answers a response: seat 0's two dispels, nothing else in its hand.
    dispels = [u for u in state.players[0].hand if state.kinds[u] == "dispel"]
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "pass"},
        *({"type": "respond", "card": u} for u in dispels),
        {"type": "resign"},
    ]


def test_a_third_player_gets_no_window() -> None:
    """Attacking an opponent: only the declared opponent is attacked, so only it answers."""
    state = game(deck(hand=["lethal_assassin"]), deck(), deck(hand=["martyr"]), seats=3)
    arrange(state, 1, scape=["ember_cluster"])
    to_play_phase(state, 0, mode="martyr")
    target = uid(state, 1, "ember_cluster", "scape")
    play(state, 0, "lethal_assassin", target_seat=1, target_card=target)
    assert ENGINE.to_act(state) == {1}
    refused(state, 2, {"type": "respond", "card": uid(state, 2, "martyr")}, "ember/not_your_turn")


def test_a_resigning_window_seat_passes() -> None:
    """Resign: a seat that resigns in its window passes; the stack resolves and play goes on."""
    state, target = assassin_attack([], seats=3)
    act(state, 1, {"type": "resign"})
    assert target in state.players[1].discard and state.turn == 2
    assert ENGINE.outcome(state) is None


def test_window_events_are_json_and_visible_to_all() -> None:
    state, _ = assassin_attack(["martyr"])
    events = act(state, 1, {"type": "respond", "card": uid(state, 1, "martyr")})
    json.dumps(events)
    assert all(e["visible_to"] == "all" for e in events)
