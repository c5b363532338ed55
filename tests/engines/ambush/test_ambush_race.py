"""The race and what follows it: timing, the check, hand limits, destruction, resignation."""

from __future__ import annotations

from engines.ambush.state import AmbushState
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


def _field(cards: list[str], seats: int = 2, **options: int) -> AmbushState:
    """Seats take turns exposing ``cards`` in a row from (1, 0) east and passing."""
    state = new_game(top=cards, seats=seats, hands=[[] for _ in range(seats)], **options)
    for x in range(1, len(cards) + 1):
        seat = state.turn
        act(state, seat, expose([x, 0]))
        act(state, seat, PASS)
        state.quiet_turns = 0  # the stalling house rule is tested on its own below
    return state


def test_race_cooldown_is_measured_on_arbitrated_times() -> None:
    state = _field(["ambush", "ambush", "knight"], grab_cooldown_ms=400)
    act(state, 0, CALL, 1000)
    act(state, 1, grab([1, 0]), 1200)
    view = ENGINE.view(state, 0)["race"]
    assert view["next_free"][1] == 1600 and view["busy"] == [1]
    assert refused(state, 1, grab([2, 0]), 1599) == "ambush/hand_busy"
    act(state, 0, grab([2, 0]), 1250)
    act(state, 1, grab([3, 0]), 1600)


def test_race_idle_end_after_no_grab_for_idle_ms() -> None:
    state = _field(["ambush", "ambush", "knight"])
    act(state, 0, CALL, 1000)
    assert ENGINE.deadline(state) == 3000
    act(state, 1, grab([1, 0]), 2500)
    assert ENGINE.deadline(state) == 4500
    assert ENGINE.tick(state, 4499) == []
    events = ENGINE.tick(state, 4500)
    assert find(events, "race_ended") == {
        "type": "race_ended",
        "reason": "idle",
        "at_ms": 4500,
        "grabs": 1,
        "visible_to": "all",
    }
    assert state.phase == "turn" and ENGINE.deadline(state) is None


def test_race_max_end_caps_a_race_that_keeps_grabbing() -> None:
    cards = ["ambush", "ambush"] + ["footman"] * 8 + ["knight"] * 2
    state = _field(cards, ambush_max_ms=5000)
    act(state, 0, CALL, 0)
    for i in range(1, 5):
        act(state, i % 2, grab([i, 0]), i * 1200)
    assert ENGINE.deadline(state) == 5000
    assert refused(state, 1, grab([5, 0]), 5000) == "ambush/race_over"
    events = ENGINE.tick(state, 5000)
    assert find(events, "race_ended")["reason"] == "max"
    assert find(events, "shuffled_back")["count"] == len(cards) - 4


def test_race_grab_at_or_after_the_end_is_refused() -> None:
    state = _field(["ambush", "ambush"])
    act(state, 0, CALL, 100)
    assert refused(state, 0, grab([1, 0]), 2100) == "ambush/race_over"
    assert refused(state, 0, grab([1, 0]), 9000) == "ambush/race_over"
    act(state, 0, grab([1, 0]), 2099)


def test_race_ends_when_the_battlefield_is_empty() -> None:
    state = _field(["ambush", "ambush"])
    act(state, 0, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    events = act(state, 1, grab([2, 0]), 301)
    assert find(events, "race_ended")["reason"] == "empty" and state.phase == "turn"
    assert refused(state, 0, grab([1, 0]), 400) == "ambush/no_race"


def test_race_call_on_an_empty_battlefield_is_allowed_and_false() -> None:
    state = new_game()
    events = act(state, 1, CALL, 0)
    assert kinds(events)[:3] == ["ambush_called", "race_ended", "check"]
    assert not find(events, "check")["valid"] and state.phase == "turn" and state.step == "expose"


def test_race_calls_are_refused_while_a_race_or_the_hand_limit_step_runs() -> None:
    state = _field(["ambush", "ambush", "knight"], hand_limit=5)
    act(state, 0, CALL, 0)
    assert refused(state, 1, CALL, 10) == "ambush/call_refused"
    assert refused(state, state.turn, PASS, 10) == "ambush/wrong_step"
    act(state, 1, grab([1, 0]), 300)
    act(state, 1, grab([2, 0]), 600)
    act(state, 0, grab([3, 0]), 650)
    assert state.phase == "returning"
    assert refused(state, 0, CALL, 700) == "ambush/call_refused"
    assert ENGINE.awaiting(state) == frozenset({0, 1})


def test_check_reveals_counts_and_the_penalty_to_everyone() -> None:
    state = _field(["ambush", "knight", "dragon"])
    act(state, 1, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    act(state, 1, grab([3, 0]), 310)
    events = ENGINE.tick(state, 2310)
    check = find(events, "check")
    assert check == {
        "type": "check",
        "caller": 1,
        "counts": [1, 0],
        "left": 0,
        "valid": False,
        "penalty": 1,
        "visible_to": "all",
    }
    captured = [e for e in events if e["type"] == "captured"]
    assert captured[0]["visible_to"] == [1] and captured[0]["cards"] == []
    assert captured[1]["visible_to"] == [0] and captured[1]["cards"] == ["ambush"]
    assert captured[1]["redacted"] == {"type": "captured", "seat": 0, "count": 1}
    assert ENGINE.view(state, 1)["last_check"]["penalty"] == 1
    assert conserved(state)


def test_hand_limit_for_several_seats_at_once() -> None:
    cards = ["ambush", "ambush", "knight", "dragon", "footman", "footman"]
    state = _field(cards, seats=3, hand_limit=6)
    act(state, 2, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    act(state, 1, grab([2, 0]), 300)
    act(state, 0, grab([3, 0]), 600)
    act(state, 1, grab([4, 0]), 600)
    act(state, 2, grab([5, 0]), 600)
    events = act(state, 2, grab([6, 0]), 900)
    assert find(events, "hand_limit")["owed"] == [[0, 1], [1, 1], [2, 1]]
    assert ENGINE.awaiting(state) == frozenset({0, 1, 2}) and state.phase == "returning"
    assert ENGINE.deadline(state) == 900 + 20000
    assert ENGINE.legal_actions(state, 1)[0] == {"type": "return", "cards": ["dragon"]}
    act(state, 1, {"type": "return", "cards": ["footman"]}, 1000)
    assert ENGINE.awaiting(state) == frozenset({0, 2})
    assert refused(state, 1, {"type": "return", "cards": ["dragon"]}) == "ambush/not_over_limit"
    events = ENGINE.tick(state, 20900)  # time-out: the most recently captured cards go back
    returned = {e["seat"]: e["cards"] for e in events if e["type"] == "returned"}
    assert returned == {0: ["knight"], 2: ["footman"]}
    assert state.phase == "turn" and [len(h) for h in state.hands] == [6, 6, 6]
    assert conserved(state)


def test_booby_trap_destroys_a_castle_at_the_check_and_the_next_seat_starts() -> None:
    state = _field(["booby_trap", "ambush", "ambush"], seats=3, castle_hp=3)
    assert state.turn == 0 and state.step == "expose"
    act(state, 1, CALL, 0)
    events = act(state, 0, grab([1, 0]), 300) + ENGINE.tick(state, 3000)
    assert kinds(events)[-4:] == ["trigger", "destroyed", "shuffled_back", "turn_started"]
    assert not state.alive[0] and state.turn == 1 and state.out_order == [[0]]
    assert conserved(state)


def test_booby_traps_destroying_two_castles_at_once_tie() -> None:
    state = _field(["booby_trap", "booby_trap", "ambush", "ambush"], seats=3, castle_hp=3)
    act(state, 2, CALL, 0)
    act(state, 0, grab([1, 0]), 300)
    act(state, 1, grab([2, 0]), 300)
    ENGINE.tick(state, 5000)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[2], [0, 1]]


def test_fire_mage_destroying_two_castles_at_once_tie() -> None:
    state = new_game([["fire_mage"], [], [], []], castle_hp=1)
    act(state, 0, expose([1, 0]))
    state.ward[3] = 5
    act(state, 0, play("fire_mage", [2, 0], 1))
    assert state.out_order == [[1, 2]] and state.turn == 3
    assert ENGINE.outcome(state) is None


def test_resign_mid_race_sends_the_pile_back_and_the_race_goes_on() -> None:
    state = _field(["ambush", "ambush", "knight"], seats=3)
    act(state, 2, CALL, 0)
    act(state, 1, grab([1, 0]), 300)
    events = act(state, 1, {"type": "resign"}, 400)
    assert kinds(events) == ["resigned"] and state.phase == "ambush" and conserved(state)
    act(state, 0, grab([2, 0]), 500)
    act(state, 2, grab([3, 0]), 500)
    assert state.phase == "turn" and state.turn == 0
    assert ENGINE.legal_actions(state, 1) == []


def test_resign_mid_placement_puts_the_cards_down_and_the_next_seat_plays() -> None:
    state = new_game([["elven_archer"], [], []])
    act(state, 0, expose([1, 0]))
    act(state, 0, play("elven_archer", [2, 0], 1))
    events = act(state, 0, {"type": "resign"})
    assert kinds(events) == ["placed", "placed", "resigned", "turn_started"]
    assert len(state.grid) == 4 and state.turn == 1 and conserved(state)


def test_resign_by_the_last_opponent_ends_the_game() -> None:
    state = new_game()
    events = act(state, 1, {"type": "resign"})
    assert kinds(events) == ["resigned", "game_over"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[0], [1]]
    assert outcome.seats[1].resigned and not outcome.seats[1].destroyed
    assert outcome.reason == "last_castle" and outcome.seats[1].damage == 0.0


def test_exhaustion_shuffles_the_battlefield_back_after_a_quiet_round() -> None:
    state = new_game(hand_size=26, hand_limit=26)
    act(state, 0, play("footman", [1, 0], 1))
    plain = next(c for c in state.hands[1] if c in ("footman", "knight", "dragon", "ambush"))
    act(state, 1, play(plain, [2, 0], 0))
    act(state, 0, PASS)
    events = act(state, 1, PASS)
    assert find(events, "shuffled_back")["reason"] == "exhaustion"
    assert state.grid == {} and len(state.deck) == 2 and state.step == "expose"


def test_stalling_two_quiet_rounds_end_the_game_highest_hp_first() -> None:
    state = new_game([["dragon"], []], hand_size=5)
    act(state, 0, expose([1, 0]))
    act(state, 0, play("dragon", [2, 0], 1))
    for _ in range(2):
        for seat in (1, 0):
            act(state, seat, expose(ENGINE.legal_actions(state, seat)[0]["cell"]))
            events = act(state, seat, PASS)
    assert kinds(events)[-1] == "game_over"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "stalled"
    assert outcome.placings == [[0], [1]] and outcome.seats[1].damage == 6 / 30


def test_resign_of_the_only_late_seat_ends_the_hand_limit_step() -> None:
    state = _field(["ambush", "ambush", "knight"], seats=3, hand_limit=6)
    act(state, 0, CALL, 0)
    act(state, 1, grab([1, 0]), 300)
    act(state, 1, grab([2, 0]), 600)
    act(state, 0, grab([3, 0]), 600)
    assert state.phase == "returning" and set(state.returning.owed) == {1}
    events = act(state, 1, {"type": "resign"}, 700)
    assert kinds(events) == ["resigned", "turn_resumed"] and state.phase == "turn"
    assert conserved(state)


def test_turn_seat_resigning_mid_race_hands_a_fresh_turn_to_the_next_seat() -> None:
    state = _field(["ambush", "ambush"], seats=3)
    assert state.turn == 2
    act(state, 0, CALL, 0)
    act(state, 2, {"type": "resign"}, 100)
    events = ENGINE.tick(state, 5000)
    assert find(events, "turn_started")["seat"] == 0 and state.step == "expose"


def test_returning_deadline_can_pass_in_the_same_tick_as_the_race_end() -> None:
    state = _field(["ambush", "ambush", "knight"], hand_limit=5, return_ms=10)
    act(state, 0, CALL, 0)
    act(state, 1, grab([1, 0]), 300)
    act(state, 1, grab([2, 0]), 600)
    events = ENGINE.tick(state, 60_000)
    assert kinds(events).count("returned") == 1 and state.phase == "turn"
    assert len(state.hands[1]) == 5 and conserved(state)
