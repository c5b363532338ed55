"""Rule tests for two readings of the rulebook: nothing resolves once the game is decided,
and exhaustion waits for a whole round with the central deck empty.

Each test quotes the rulebook or the card spec; the property
tests play seeded games and check the rule on every change.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.ambush.bots import HeuristicBot
from engines.ambush.engine import AmbushEngine
from engines.ambush.state import AmbushState
from engines.base import Bot, Decision, Event, Rng
from engines.playout import play as play_out
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
)

PROPERTY_GAMES = 150  # per seat count, seeded


def _field_then_race(state: AmbushState, cards: int, grabs: list[tuple[int, list[int]]]) -> None:
    """Seats expose the next ``cards`` deck cards east of (0, 0) in turn, passing; seat 0
    calls and each ``(seat, cell)`` grabs once; the race ends idle."""
    for x in range(1, cards + 1):
        seat = state.turn
        act(state, seat, expose([x, 0]))
        act(state, seat, PASS)
        state.quiet_turns = 0  # not a stalling test (test surgery)
    act(state, 0, CALL, 1000)
    for seat, cell in grabs:
        act(state, seat, grab(cell), 1100)


def test_a_capture_trigger_after_the_last_castle_stands_does_not_resolve() -> None:
    """Winning the game: "Once a player's Castle Dial has reached 0, their castle is destroyed
    ... The last player with a Castle is the winner!" Triggers resolve in seat order from the
    caller (rule 5); the caller's Booby Trap destroys its castle and decides the game, so
    the other seat's Booby Trap no longer fires (it made both lose)."""
    state = new_game(top=["ambush", "ambush", "booby_trap", "booby_trap"], castle_hp=3)
    _field_then_race(state, 4, [(0, [3, 0]), (1, [4, 0])])
    events = ENGINE.tick(state, 60_000)
    triggers = [e for e in events if e["type"] == "trigger"]
    assert [(e["seat"], e["card"]) for e in triggers] == [(0, "booby_trap")]
    assert find(events, "destroyed")["seat"] == 0 and state.hp == [0, 3]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[1], [0]]
    assert outcome.reason == "last_castle" and outcome.seats[1].damage == 0.0
    assert kinds(events)[-1] == "game_over" and conserved(state)


def test_a_treasure_chest_does_not_heal_the_winner_after_the_end() -> None:
    """Rule 5 ("carry out any card effects that were triggered by the Ambush!") happens while
    the game runs: once the caller's Booby Trap has destroyed its castle, the winner's
    Treasure Chest heals nothing, and the result keeps the damage it took."""
    state = new_game(
        [["footman"], []], top=["ambush", "ambush", "booby_trap", "treasure"], castle_hp=3
    )
    act(state, 0, expose([1, 0]))
    act(state, 0, play("footman", [2, 0], 1))  # seat 1 down to 1 HP
    for x in (3, 4, 5):
        seat = state.turn
        act(state, seat, expose([x, 0]))
        act(state, seat, PASS)
    assert state.grid[(4, 0)] == "booby_trap" and state.grid[(5, 0)] == "treasure"
    act(state, 0, CALL, 1000)
    act(state, 0, grab([4, 0]), 1100)
    act(state, 1, grab([5, 0]), 1100)
    events = ENGINE.tick(state, 60_000)
    assert [e["card"] for e in events if e["type"] == "trigger"] == ["booby_trap"]
    assert state.hp == [0, 1]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[1], [0]]
    assert outcome.seats[1].damage == pytest.approx(2 / 3)


def test_a_resignation_that_decides_the_game_resumes_no_turn() -> None:
    """Winning the game: "The last player with a Castle is the winner!" The only late seat of
    the hand-limit step resigns in a two-seat game: the game ends; no turn goes on."""
    state = new_game(top=["ambush", "ambush", "knight", "knight"], hand_limit=6)
    _field_then_race(state, 4, [(1, [1, 0])])
    assert state.turn == 0  # the turn that would go on
    act(state, 1, grab([2, 0]), 1400)
    ENGINE.tick(state, 5000)  # the race ends idle at 3400; the returning step runs
    assert state.phase == "returning" and set(state.returning.owed) == {1}
    events = act(state, 1, {"type": "resign"}, 5100)
    assert kinds(events) == ["resigned", "game_over"] and state.phase == "over"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[0], [1]]


def test_exhaustion_waits_for_a_whole_round_after_the_deck_runs_out() -> None:
    """Card spec, house rule: "when the central deck is empty and a whole round (one turn for
    each living seat) passes in which no card is played, the battlefield is shuffled into
    the central deck". The turn that exposes the last card began with cards in the deck: it
    is no part of that round (the battlefield went back one turn early)."""
    state = new_game([["footman"], []], top=["knight", "knight"], hand_size=25, hand_limit=25)
    assert len(state.deck) == 2
    act(state, 0, expose([1, 0]))
    act(state, 0, play("footman", [2, 0], 1))
    act(state, 1, expose([3, 0]))  # the last card: the deck is empty from here
    assert "shuffled_back" not in kinds(act(state, 1, PASS))
    assert state.step == "play" and not state.deck  # seat 0's turn began dry
    events = act(state, 0, PASS)
    assert "shuffled_back" not in kinds(events) and len(state.grid) == 3
    events = act(state, 1, PASS)  # a whole round of dry turns
    assert find(events, "shuffled_back")["reason"] == "exhaustion"
    assert state.grid == {} and len(state.deck) == 3 and state.step == "expose"
    assert conserved(state)


def test_old_saved_states_without_the_dry_round_still_load() -> None:
    """Matches saved before the rule have no ``dry_turns``: they load and play on."""
    state = new_game()
    data = ENGINE.to_json(state)
    del data["dry_turns"], data["began_dry"]
    loaded = ENGINE.from_json(data)
    assert loaded.dry_turns == 0 and not loaded.began_dry
    act(loaded, 0, expose([1, 0]))


# --- property: seeded games, with a lazy player that makes the edge cases common -------------


class LazyBot:
    """A seeded player that often passes and now and then calls: the deck runs out with
    quiet turns around it, and with small castles Booby Traps decide games. Grabs respect
    the hand's cooldown (``race.next_free``)."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.plan: tuple[int, dict[str, Any], int] | None = None  # revision key, action, at
        self.called_in = -1  # the turn of its last call: one call a turn at most

    def observe(self, events: list[Event], view: dict[str, Any]) -> None:
        if any(e["type"] == "ambush_called" for e in events):
            self.plan = None  # a call on an empty battlefield changes nothing else in the view

    def decide(
        self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int
    ) -> Decision | None:
        key = hash((view["turn_number"], view["phase"], view["step"], len(view["battlefield"])))
        if self.plan is not None and self.plan[0] == key and self.plan[1] in legal:
            return Decision(self.plan[1], max(now_ms, self.plan[2]))
        action = self._choose(view, legal)
        if action is None:
            return None
        at = now_ms + 50 + self.rng.randbelow(400)
        if action["type"] == "grab":
            at = max(at, view["race"]["next_free"][self.seat])
        self.plan = (key, action, at)
        return Decision(action, at)

    def _choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        types = {a["type"] for a in legal}
        if "grab" in types:
            grabs = [a for a in legal if a["type"] == "grab"]
            return self.rng.choice(grabs)
        if "return" in types or "place" in types or "expose" in types:
            return legal[0]
        if "pass" in types:
            if self.called_in != view["turn_number"] and self.rng.random() < 0.15:
                self.called_in = view["turn_number"]
                return {"type": "call_ambush"}
            plays = [a for a in legal if a["type"] == "play"]
            if plays and self.rng.random() < 0.35:
                return self.rng.choice(plays)
            return {"type": "pass"}
        return None


class RuleWatch:
    """Checks every change: nothing resolves after the game is decided; exhaustion only
    after a whole round of turns that began with the deck empty and played nothing."""

    def __init__(self, seats: int) -> None:
        self.living = seats
        self.dry_run = 0  # finished turns in a row that began dry and played nothing
        self.turn_dry = False
        self.exhaustions = 0
        self.decided_late = 0

    def __call__(self, state: AmbushState, events: list[Event]) -> None:
        decided = False
        for event in events:
            kind = event["type"]
            if decided:
                assert kind in ("shuffled_back", "game_over"), f"{kind} after the game ended"
            if kind in ("destroyed", "resigned"):
                self.living -= 1
                decided = self.living <= 1
            elif kind == "turn_started":
                self.turn_dry = event["step"] == "play"
                if not self.turn_dry:
                    self.dry_run = 0
            elif kind == "played":
                self.turn_dry = False
                self.dry_run = 0
            elif kind == "passed":
                self.dry_run = self.dry_run + 1 if self.turn_dry else 0
            elif kind == "shuffled_back" and event["reason"] == "exhaustion":
                assert self.dry_run >= self.living, "the battlefield went back too early"
                self.exhaustions += 1
                self.dry_run = 0
        assert self.living == state.alive.count(True)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_property_nothing_resolves_after_the_end_and_exhaustion_waits_a_round(seats: int) -> None:
    exhaustions = 0
    for game in range(PROPERTY_GAMES):
        rng = Rng(game)
        bots: list[Bot] = [
            HeuristicBot(s, game * 10 + s) if rng.random() < 0.3 else LazyBot(s, game * 10 + s)
            for s in range(seats)
        ]
        options = {
            "castle_hp": 3 + rng.randbelow(10),
            "hand_size": rng.randbelow(52 // seats + 1),
            "hand_limit": 52 // seats,
        }
        watch = RuleWatch(seats)
        record = play_out(AmbushEngine(), bots, seed=game, options=options, on_change=watch)
        assert record.outcome is not None, f"game {game} did not end"
        exhaustions += watch.exhaustions
    assert exhaustions > 0  # the scenario the rule is about did come up
