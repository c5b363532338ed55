"""An attack played with nobody it may hit says why: a Cleave against an opponent in
protection mode tells everyone the attack found no target because that opponent is protected,
instead of only "X plays Cleave"."""

from __future__ import annotations

from tests.engines.ember.helpers import (
    ENGINE,
    arrange,
    deck,
    game,
    kinds,
    play,
    to_play_phase,
    types,
)


def test_cleave_against_a_protected_opponent_tells_why_it_hits_nothing() -> None:
    state = game(deck(hand=["cleave"]))
    arrange(state, 1, scape=["ember_cluster"], mode=["mist_veil"])
    to_play_phase(state, 0)
    plays = [a for a in ENGINE.legal_actions(state, 0) if a.get("type") == "play"]
    cleave = [a for a in plays if state.kinds[a["card"]] == "cleave"]
    assert cleave and all(a.get("target_seat") is None for a in cleave)
    events = play(state, 0, "cleave")
    unaimed = [e for e in events if e["type"] == "no_target"]
    assert unaimed == [
        {
            "type": "no_target",
            "seat": 0,
            "effect": "destroy_scape",
            "protected": [[1, "mode"]],
            "visible_to": "all",
        }
    ], types(events)
    assert kinds(state, 1, "scape") == ["ember_cluster"]


def test_an_attack_with_nothing_face_up_to_hit_names_no_protected_seat() -> None:
    state = game(deck(hand=["cleave"]))
    to_play_phase(state, 0)
    events = play(state, 0, "cleave")
    unaimed = [e for e in events if e["type"] == "no_target"]
    assert len(unaimed) == 1 and unaimed[0]["protected"] == []
