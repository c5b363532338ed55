"""What time makes due comes back from ``Deadlines.due`` as an intent, with the engine's state
untouched: only the session applies anything to the engine (a tick, a timeout's pass, a
forfeit, a bot's move, a race's winning grab)."""

from __future__ import annotations

from typing import Any

import pytest

from app.sessions.bots import BotSeat
from app.sessions.commands import History, SeatInfo
from app.sessions.connections import Connections
from app.sessions.deadlines import Deadlines
from app.sessions.intents import BotMove, Forfeit, SettleRace, Tick, TimeOut
from app.sessions.races import RaceDesk
from app.sessions.timecontrol import TimeControl, TurnClocks
from engines.base import Decision

PASS = {"type": "pass"}
RESIGN = {"type": "resign"}


class ReadOnlyEngine:
    """An engine the deadlines may read (its deadline, its legal actions) but never write:
    ``apply`` and ``tick`` fail the test."""

    id = "readonly"

    def __init__(self, deadline: int | None = None, legal: list[dict[str, Any]] | None = None):
        self._deadline = deadline
        self._legal = [RESIGN, PASS] if legal is None else legal

    def deadline(self, state: object) -> int | None:
        return self._deadline

    def legal_actions(self, state: object, seat: int) -> list[dict[str, Any]]:
        return self._legal

    def apply(self, *args: object) -> None:
        raise AssertionError("the deadlines applied an action to the engine")

    def tick(self, *args: object) -> None:
        raise AssertionError("the deadlines ticked the engine")


class Clock:
    rate = 1.0

    def __init__(self, at: float) -> None:
        self.at = at

    def now(self) -> int:
        return int(self.at)

    def precise(self) -> float:
        return self.at


class Bot:
    """A bot whose plan is set by the test."""

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        return None


def deadlines(
    engine: ReadOnlyEngine,
    *,
    control: TimeControl | None = None,
    seats: list[SeatInfo] | None = None,
    bots: dict[int, BotSeat] | None = None,
    races: RaceDesk | None = None,
    clock: Clock | None = None,
) -> Deadlines:
    control = control or TimeControl(grace_ms=0)
    seats = seats or [SeatInfo(None, "random", "A"), SeatInfo(None, "random", "B")]
    return Deadlines(
        engine,  # type: ignore[arg-type]
        object(),
        clock=clock or Clock(0.0),  # type: ignore[arg-type]
        turn_clocks=TurnClocks(control),
        time_control=control,
        connections=Connections(seats, 0),
        bots=bots or {},
        races=races,
        history=History(limit=8),
    )


def test_nothing_due_is_none() -> None:
    due = deadlines(ReadOnlyEngine(deadline=5_000))
    assert due.due(4_999) is None


def test_the_engines_deadline_is_a_tick_and_one_that_changed_nothing_waits_for_a_move() -> None:
    due = deadlines(ReadOnlyEngine(deadline=5_000))
    assert due.due(5_000) == Tick(deadline=5_000, at_ms=5_000)
    due.tick_changed_nothing(5_000)  # what the session says when the tick made no events
    assert due.due(6_000) is None
    due.moved()
    assert due.due(6_000) == Tick(deadline=5_000, at_ms=6_000)


@pytest.mark.parametrize(
    ("on_timeout", "legal", "expected"),
    [
        ("pass", [RESIGN, PASS], TimeOut(0, PASS, 1_000)),
        ("pass", [RESIGN], Forfeit(0, "time", 1_000)),  # nothing to pass with
        ("forfeit", [RESIGN, PASS], Forfeit(0, "time", 1_000)),
    ],
)
def test_a_clock_run_out_is_a_pass_or_a_forfeit(
    on_timeout: str, legal: list[dict[str, Any]], expected: object
) -> None:
    control = TimeControl(turn_ms=1_000, on_timeout=on_timeout, grace_ms=0)
    due = deadlines(ReadOnlyEngine(legal=legal), control=control)
    due.turn_clocks.update([0], 0, None)
    assert due.due(999) is None
    assert due.due(1_000) == expected
    assert due.due(1_000) is None  # the clock is stopped: due once


def test_a_seat_away_past_its_grace_is_forfeited_once() -> None:
    seats = [SeatInfo(7, None, "A", player="ann"), SeatInfo(8, None, "B", player="bob")]
    due = deadlines(ReadOnlyEngine(), control=TimeControl(grace_ms=30_000), seats=seats)
    assert due.due(29_999) is None
    assert due.due(30_000) == Forfeit(0, "abandoned", 30_000)
    assert due.due(30_000) == Forfeit(1, "abandoned", 30_000)
    assert due.due(30_000) is None


def test_a_bots_planned_move_is_a_bot_move_at_its_planned_time() -> None:
    bot = BotSeat(1, Bot(), plan=Decision({"type": "move", "cell": 3}, 2_500))  # type: ignore[arg-type]
    due = deadlines(ReadOnlyEngine(), bots={1: bot})
    assert due.due(2_499) is None
    assert due.due(2_600) == BotMove(1, {"type": "move", "cell": 3}, 2_500)


def test_a_closed_race_window_is_settled_by_the_sessions_apply_only() -> None:
    clock = Clock(1_000.0)
    desk = RaceDesk(5, cooldown_ms=250, rate=1.0)
    desk.arbiter.start_race(3, 1_000.0, [0, 1])
    grabber = BotSeat(0, Bot(), plan=Decision({"type": "grab", "cell": [2, 1]}, 1_400))  # type: ignore[arg-type]
    due = deadlines(ReadOnlyEngine(), bots={0: grabber}, races=desk, clock=clock)
    clock.at = 1_400.0
    assert due.due(1_400) is None  # the bot's grab is held by the arbiter: its window is open
    assert grabber.plan is None and desk.arbiter.pending
    clock.at = 2_000.0
    intent = due.due(2_000)
    assert intent == SettleRace(2_000.0)

    applied: list[tuple[int, dict[str, Any], int]] = []

    def apply(seat: int, action: dict[str, Any], at_ms: int) -> list[dict[str, Any]]:
        applied.append((seat, action, at_ms))
        return [{"type": "grabbed", "seat": seat, "cell": action["cell"], "at_ms": at_ms}]

    assert isinstance(intent, SettleRace)
    settled = desk.settle(intent.now, apply)
    assert settled is not None
    assert applied == [(0, {"type": "grab", "cell": [2, 1]}, 1_400)]
    answered: list[object] = []
    change = settled.change(answered.append)
    assert change is not None and change.cause == "bot" and change.seat == 0
    assert change.action == {"type": "grab", "cell": [2, 1]} and change.at_ms == 1_400
    assert answered == []  # the grabs are answered once the winner's change is logged
    assert change.before_broadcast is not None
    change.before_broadcast(4)
    assert len(answered) == 1
    assert due.due(2_000) is None
