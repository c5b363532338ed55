"""Match time and turn clocks: never backwards after a restart, turns restart, banks drain."""

from __future__ import annotations

import time

from app.sessions.clock import MatchClock
from app.sessions.timecontrol import TimeControl, TurnClocks


def test_match_clock_never_goes_backwards_after_restart() -> None:
    # Wall clock says 1 s since the start, but an action was already logged at 5 s.
    started = int(time.time() * 1000) - 1000
    clock = MatchClock(started, last_at_ms=5000)
    assert clock.now() >= 5000
    first = clock.now()
    assert clock.now() >= first


def test_turn_clock_restarts_on_each_action_and_bank_only_drains() -> None:
    clocks = TurnClocks(TimeControl(turn_ms=1000, match_ms=1500))
    assert clocks.update({0}, 0, None)
    assert clocks.deadlines == {0: 1000}
    clocks.update({0}, 400, acted=0)  # seat 0 acted and is still on turn
    assert clocks.deadlines == {0: 1400} and clocks.banks[0] == 1100
    clocks.update({1}, 900, acted=0)  # seat 0's turn is over after 500 more ms
    assert clocks.banks[0] == 600 and clocks.deadlines == {1: 1900}
    clocks.update({0}, 1000, acted=1)
    assert clocks.deadlines == {0: 1600}  # the bank (600 ms) runs out before the turn clock
    assert clocks.remaining(0, 1300) == 300
    clocks.restart(5000)  # after a restart the downtime is not charged
    assert clocks.deadlines == {0: 5600}
