"""Rule tests for two readings of the rulebook: one Veteran a turn, the first Castle to fall.

Each test quotes the rulebook clause it reads; the property test plays seeded heuristic games
and checks both rules on every change, the check that would have caught the old behaviour.
"""

from __future__ import annotations

import pytest

from engines.base import Event, IllegalAction
from engines.playout import play
from engines.rampage.bots import HeuristicBot
from engines.rampage.cards import card_of
from engines.rampage.engine import RampageEngine
from engines.rampage.state import OVER, RampageState

from .helpers import ENGINE, act, bury, card, conserved, give, only, snapshot, start, types

END_TURN = {"type": "end_turn"}
PROPERTY_GAMES = 400  # seeded; the old Bomber reading decided about 1 game in 100 wrongly


def veteran_plays(state: RampageState, seat: int) -> list[dict[str, object]]:
    return [
        a
        for a in ENGINE.legal_actions(state, seat)
        if a["type"] == "play" and card_of(str(a["card"])).effect == "veteran"
    ]


def test_a_veteran_back_in_hand_attacks_again_only_next_turn() -> None:
    """Attacks: "Destroy the attacking card. Place it into the discard pile (Exception:
    Veteran)". The exception spares the card; it is no new attack this turn (house rule 8:
    one Veteran a turn), though "you may play any number of cards" otherwise."""
    state = start(draws=["veteran"])
    veteran = card(state, 0, "veteran")
    bury(state, 1, "gate", "ogre")  # Gate defence 4 holds against 3
    events = act(state, 0, {"type": "play", "card": veteran})
    assert events[-1]["result"] == "returned" and veteran in state.players[0].hand
    assert veteran_plays(state, 0) == []
    assert ENGINE.view(state, 0)["veteran_played"] is True
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "play", "card": veteran})
    assert refused.value.code == "rampage/once_per_turn"
    assert snapshot(state) == before  # a refusal changes nothing
    # Using it to defend is no play: still allowed, once, as for any card.
    assert {"type": "defend", "card": veteran, "to": "gate"} in ENGINE.legal_actions(state, 0)
    act(state, 0, END_TURN)
    assert veteran_plays(state, 1) == []  # not the opponent's turn to play it anyway
    act(state, 1, END_TURN)
    assert ENGINE.view(state, 0)["veteran_played"] is False
    assert veteran_plays(state, 0) == [{"type": "play", "card": veteran}]
    events = act(state, 0, {"type": "play", "card": veteran})
    assert events[-1]["result"] == "returned" and conserved(state)


def test_one_veteran_a_turn_holds_for_another_copy_too() -> None:
    """House rule 8, by name: after one Veteran, a second copy waits for the next turn too
    (copies of a kind stay interchangeable, as ``legal_actions`` and the client assume)."""
    state = start(draws=["veteran"])
    first = card(state, 0, "veteran")
    second = give(state, 0, "veteran")[0]
    only(state, 1, "gate", 0)
    bury(state, 1, "gate", "knight")  # 3 against 3: both destroyed
    events = act(state, 0, {"type": "play", "card": first})
    assert events[-1]["result"] == "destroyed" and first in state.discard
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "play", "card": second})
    assert refused.value.code == "rampage/once_per_turn"
    assert veteran_plays(state, 0) == []


def test_old_saved_states_without_the_veteran_flag_still_load() -> None:
    """Matches saved before the rule have no ``veteran_played``: they load with a fresh turn."""
    state = start(draws=["veteran"])
    data = ENGINE.to_json(state)
    del data["veteran_played"]
    loaded = ENGINE.from_json(data)
    assert loaded.veteran_played is False and veteran_plays(loaded, 0)


def test_a_bomber_that_was_the_last_castle_card_loses_before_its_blast() -> None:
    """End of the game: "The game ends, as soon as the last card of any Castle is destroyed.
    The owner of that Castle loses". The attacker empties the enemy Castle first; the
    Bomber's blast at the attacker's last Castle card never happens (house rule 11)."""
    state = start(draws=["knight"])
    only(state, 1, "gate", 0)
    only(state, 1, "castle", 0)
    bomber = bury(state, 1, "castle", "bomber")  # Castle defence 2 against 3
    only(state, 0, "gate", 0)
    only(state, 0, "castle", 1)  # the blast would take this last card
    events = act(state, 0, {"type": "play", "card": card(state, 0, "knight")})
    assert "triggered" not in types(events)
    destroyed = [e for e in events if e["type"] == "destroyed"]
    assert [(e["seat"], e["card"]) for e in destroyed] == [(1, bomber)]
    assert events[-1] == {
        "type": "game_over",
        "loser": 1,
        "winner": 0,
        "reason": "castle_destroyed",
        "visible_to": "all",
    }
    assert state.phase == OVER and len(state.players[0].castle) == 1
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.placings == [[0], [1]]
    assert outcome.seats[1].destroyed and not outcome.seats[0].destroyed
    assert conserved(state)
    # Note: purple cards "have a specific effect, when they are destroyed during an attack":
    # above other Castle cards the game goes on, so the blast takes the attacker's last
    # Castle card and the attacker loses (his Castle is the only one empty).
    state = start(draws=["knight"])
    only(state, 1, "gate", 0)
    bury(state, 1, "castle", "bomber")
    only(state, 0, "gate", 0)
    only(state, 0, "castle", 1)
    events = act(state, 0, {"type": "play", "card": card(state, 0, "knight")})
    assert "triggered" in types(events)
    assert events[-1]["type"] == "game_over" and events[-1]["loser"] == 0
    assert events[-1]["reason"] == "castle_destroyed" and len(state.players[1].castle) == 4


class RuleWatch:
    """Follows one game's events: Veteran plays per turn, and which Castle emptied first."""

    def __init__(self) -> None:
        self.veterans = 0
        self.sizes: list[int] | None = None
        self.seen_castle_falls = 0

    def __call__(self, state: RampageState, events: list[Event]) -> None:
        if self.sizes is None:
            if state.phase == "setup":
                return
            self.sizes = [len(p.castle) for p in state.players]
            return
        fallen: list[int] = []
        for event in events:
            kind = event["type"]
            if kind == "turn_started":
                self.veterans = 0
            elif kind == "played" and card_of(event["card"]).effect == "veteran":
                self.veterans += 1
                assert self.veterans == 1, f"a second Veteran in turn {state.turn}"
            elif kind == "triggered":
                assert not fallen, "a purple effect fired after a Castle fell"
            elif kind in ("defended", "bricklayer") and event["to"] == "castle":
                self.sizes[event["seat"]] += 1
            elif kind == "destroyed" and event["structure"] == "castle":
                self.sizes[event["seat"]] -= 1
                if self.sizes[event["seat"]] == 0:
                    fallen.append(event["seat"])
            elif kind == "game_over" and fallen:
                self.seen_castle_falls += 1
                played = [card_of(e["card"]).effect for e in events if e["type"] == "played"]
                if len(fallen) == 2:  # only one effect empties both: the Summoner's player
                    assert event["reason"] == "both_castles_destroyed"
                    assert played == ["summoner"] and event["loser"] == state.active
                else:
                    assert event["loser"] == fallen[0], "the first Castle to fall loses"
        assert self.sizes == [len(p.castle) for p in state.players]


def test_property_heuristic_games_one_veteran_a_turn_and_the_first_fallen_castle_loses() -> None:
    """Seeded heuristic games: never two Veteran plays in a turn; the owner of the first
    Castle to empty loses; no purple effect after a Castle fell."""
    falls = 0
    for game in range(PROPERTY_GAMES):
        watch = RuleWatch()
        bots = [HeuristicBot(0, 2 * game), HeuristicBot(1, 2 * game + 1)]
        record = play(RampageEngine(), bots, seed=game, on_change=watch)
        assert record.outcome is not None
        falls += watch.seen_castle_falls
    assert falls > PROPERTY_GAMES // 2  # most games end with a fallen Castle
