"""The bots: memory, calls, grab choices and reaction times, targets, hand-limit returns."""

from __future__ import annotations

from typing import Any

from engines.ambush.bots import HeuristicBot, RandomBot
from engines.ambush.state import AmbushState
from engines.base import Bot, Decision, events_for
from engines.botkit import LEVELS
from engines.playout import play as playout
from tests.engines.ambush.ambush_support import (
    CALL,
    ENGINE,
    PASS,
    act,
    expose,
    grab,
    new_game,
    play,
)


def _step(
    state: AmbushState, bots: list[Bot], seat: int, action: dict[str, Any], at: int = 0
) -> None:
    events = act(state, seat, action, at)
    for bot in bots:
        bot.observe(events_for(events, bot.seat), ENGINE.view(state, bot.seat))


def _ask(state: AmbushState, bot: Bot, now: int) -> Decision | None:
    legal = ENGINE.legal_actions(state, bot.seat)
    return bot.decide(ENGINE.view(state, bot.seat), legal, now)


def test_heuristic_bot_calls_once_it_has_seen_two_ambush_cards_and_keeps_its_plan() -> None:
    state = new_game([[], [], []], top=["ambush", "dragon", "ambush"], seats=3)
    bot = HeuristicBot(2, 5)
    bots: list[Bot] = [bot]
    _step(state, bots, 0, expose([1, 0]))
    _step(state, bots, 0, PASS)
    assert _ask(state, bot, 1000) is None
    _step(state, bots, 1, expose([2, 0]))
    _step(state, bots, 1, PASS)
    _step(state, bots, 2, expose([3, 0]), 2000)
    first = _ask(state, bot, 2000)
    assert first is not None
    plans = [_ask(state, bot, now) for now in (2000, 2100, 2200)]
    assert all(p is not None and p.at_ms <= first.at_ms for p in plans)
    calls = [p for p in plans if p is not None and p.action == CALL]
    reaction = LEVELS["normal"].call
    assert calls and all(
        2000 + reaction.floor_ms <= p.at_ms <= 2000 + reaction.cap_ms for p in calls
    )
    assert len({p.at_ms for p in calls}) == 1  # the same plan on every re-ask


def test_heuristic_bot_follows_a_trickster_swap() -> None:
    state = new_game([["trickster"], []], top=["dragon", "footman"])
    bot = HeuristicBot(1, 3)
    _step(state, [bot], 0, expose([1, 0]))
    _step(state, [bot], 0, PASS)
    _step(state, [bot], 1, expose([2, 0]))
    _step(state, [bot], 1, PASS)
    _step(state, [bot], 0, expose([3, 0]))
    _step(state, [bot], 0, play("trickster", [4, 0], 1, swap=[[1, 0], [3, 0]]))
    assert bot.known[(3, 0)] == "dragon" and bot.known[(1, 0)] == state.grid[(1, 0)]


def test_heuristic_bot_grabs_the_best_known_cell_first_with_a_human_reaction() -> None:
    state = new_game([[], []], top=["booby_trap", "footman", "dragon", "footman"])
    bot = HeuristicBot(0, 11)
    for x in range(1, 5):
        seat = state.turn
        _step(state, [bot], seat, expose([x, 0]))
        _step(state, [bot], seat, PASS)
        state.quiet_turns = 0  # not a stalling test
    bot.known.pop((2, 0))  # forget a footman: it becomes an unknown cell
    _step(state, [bot], 1, CALL, 10_000)
    first = _ask(state, bot, 10_000)
    assert first is not None and first.action == grab([3, 0])
    reaction = LEVELS["normal"].first_grab
    assert 10_000 + reaction.floor_ms <= first.at_ms <= 10_000 + reaction.cap_ms
    again = _ask(state, bot, 10_050)
    assert again == first
    _step(state, [bot], 0, first.action, first.at_ms)
    second = _ask(state, bot, first.at_ms)
    assert second is not None
    assert second.at_ms >= first.at_ms + max(250, LEVELS["normal"].next_grab.floor_ms)
    assert second.action == grab([4, 0])  # known footman (4.0) over the unknown cell (3.0)
    _step(state, [bot], 0, second.action, second.at_ms)
    third = _ask(state, bot, second.at_ms)
    assert third is not None and third.action == grab([2, 0])
    _step(state, [bot], 0, third.action, third.at_ms)
    assert _ask(state, bot, third.at_ms + 300) is None  # only the Booby Trap is left


def test_heuristic_bot_hits_back_at_whoever_hit_it() -> None:
    state = new_game([[], ["dragon"], ["knight", "knight"]], seats=3)
    _step(state, [], 0, expose([1, 0]))
    _step(state, [], 0, PASS)
    bot = HeuristicBot(2, 1)
    _step(state, [bot], 1, expose([2, 0]))
    _step(state, [bot], 1, play("dragon", [3, 0], 2))  # seat 1 hits the bot for 6
    _step(state, [bot], 2, expose([4, 0]))
    decision = _ask(state, bot, 0)
    assert decision is not None and decision.action["card"] == "knight"
    assert decision.action["target"] == 1  # not seat 0, who hurt nobody
    assert 1000 <= decision.at_ms <= 3000


def test_heuristic_bot_finishes_a_castle_it_can_destroy() -> None:
    state = new_game([[], [], ["knight"]], seats=3)
    state.hp[1] = 3  # the knight's 3 damage destroys it
    for seat in (0, 1):
        _step(state, [], seat, expose([seat + 1, 0]))
        _step(state, [], seat, PASS)
    bot = HeuristicBot(2, 4)
    _step(state, [bot], 2, expose([3, 0]))
    decision = _ask(state, bot, 0)
    assert decision is not None and decision.action == {
        **decision.action,
        "card": "knight",
        "target": 1,
    }


def test_heuristic_bots_of_equal_castles_spread_their_first_blows_over_every_seat() -> None:
    """With every castle alike no seat is singled out: the bot's own draws pick the target."""
    targets: dict[int, int] = {}
    for seed in range(60):
        state = new_game([[], [], [], ["knight"]], seats=4)
        for seat in range(3):
            _step(state, [], seat, expose([seat + 1, 0]))
            _step(state, [], seat, PASS)
        bot = HeuristicBot(3, seed)
        _step(state, [bot], 3, expose([4, 0]))
        decision = _ask(state, bot, 0)
        assert decision is not None and decision.action["card"] == "knight"
        targets[decision.action["target"]] = targets.get(decision.action["target"], 0) + 1
    assert sorted(targets) == [0, 1, 2] and min(targets.values()) >= 10, targets


def test_heuristic_bot_returns_its_weakest_cards_at_the_hand_limit() -> None:
    state = new_game(
        [["dragon", "booby_trap", "knight", "footman", "healer"], []],
        top=["ambush", "ambush"],
        hand_limit=6,
    )
    bot = HeuristicBot(0, 2)
    _step(state, [bot], 0, expose([1, 0]))
    _step(state, [bot], 0, PASS)
    _step(state, [bot], 1, expose([2, 0]))
    _step(state, [bot], 1, CALL, 0)
    _step(state, [bot], 0, grab([1, 0]), 300)
    _step(state, [bot], 0, grab([2, 0]), 600)
    assert state.phase == "returning"
    decision = _ask(state, bot, 700)
    assert decision is not None
    assert decision.action == {"type": "return", "cards": ["booby_trap"]}


def test_random_bot_grabs_at_its_levels_reaction_times() -> None:
    state = new_game([[], []], top=["footman", "knight", "dragon"])
    for x in range(1, 4):
        seat = state.turn
        act(state, seat, expose([x, 0]))
        act(state, seat, PASS)
    state.quiet_turns = 0
    act(state, 0, CALL, 5000)
    bot = RandomBot(1, 9)
    decision = _ask(state, bot, 5000)
    assert decision is not None and decision.action["type"] == "grab"
    level = LEVELS["normal"]
    assert 5000 + level.first_grab.floor_ms <= decision.at_ms <= 5000 + level.first_grab.cap_ms
    act(state, 1, decision.action, decision.at_ms)
    again = _ask(state, bot, decision.at_ms)
    assert again is not None
    assert again.at_ms >= decision.at_ms + max(250, level.next_grab.floor_ms)


def test_bots_finish_games_of_every_size() -> None:
    for seats in (2, 3, 4):
        bots: list[Bot] = [HeuristicBot(s, 40 + s) for s in range(seats)]
        record = playout(ENGINE, bots, seed=seats)
        assert record.outcome is not None and record.rejected == []


class _CheckedBot(HeuristicBot):
    """A HeuristicBot that checks each carried choice against the whole listing ranked as it
    was at the race's first re-aim (the same draws): the best of it still listed."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.aims = 0
        self.first_ranking: list[Any] = []

    def choose_grab(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        listed = {(a["cell"][0], a["cell"][1]) for a in legal if a["type"] == "grab"}
        fresh = self.ranking is None
        chosen = super().choose_grab(view, legal)
        if fresh:
            self.first_ranking = list(self.ranking or [])
            # Every listed cell worth more than 0 is ranked; a known Booby Trap never is.
            assert set(self.first_ranking) == {c for c in listed if self.value(c) > 0}
        best = next((c for c in reversed(self.first_ranking) if c in listed), None)
        assert chosen == best
        self.aims += 1
        return chosen

    def still_down(self, plan: Decision, legal: list[dict[str, Any]]) -> bool:
        kept = super().still_down(plan, legal)
        assert kept == (plan.action in legal)
        return kept


def test_heuristic_bot_carried_grab_ranking_equals_scoring_the_whole_listing() -> None:
    for seats in (2, 3, 4):
        for game in range(3):
            bots = [_CheckedBot(s, game * 10 + s) for s in range(seats)]
            record = playout(ENGINE, list(bots), seed=100 + game)
            assert record.outcome is not None
            assert sum(bot.aims for bot in bots) > 0
