"""Correspondence time controls: days per move on the wall clock, no grace, and a server
restart that does not forgive the days it was down."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from app.__main__ import migrate
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.repositories import AccountRepository, MatchRepository, SeatSpec
from app.sessions.hub import Hub
from app.sessions.timecontrol import DAY_MS, TimeControl, TurnClocks, is_correspondence
from bench.tally.engine import TallyEngine
from engines import registry


def test_days_per_move_is_a_day_clock_that_forfeits_and_has_no_grace() -> None:
    control = TimeControl.from_json({"days_per_move": 3}, default_grace_ms=60_000)
    assert control.correspondence and control.days_per_move == 3
    assert control.turn_ms == 3 * DAY_MS and control.match_ms is None
    assert control.on_timeout == "forfeit" and control.grace_ms == 0
    realtime = TimeControl.from_json({"turn_ms": 5000}, default_grace_ms=60_000)
    assert not realtime.correspondence and realtime.grace_ms == 60_000
    assert is_correspondence({"days_per_move": 1}) and not is_correspondence({"turn_ms": 1})
    assert not is_correspondence(None)


def test_a_restart_forgives_downtime_only_in_real_time() -> None:
    realtime = TurnClocks(TimeControl(turn_ms=1000))
    realtime.update({0}, 0, None)
    realtime.restart(5000)
    assert realtime.deadlines == {0: 6000}
    days = TurnClocks(TimeControl.by_correspondence(1))
    days.update({0}, 0, None)
    days.restart(5000)
    assert days.deadlines == {0: DAY_MS}


def test_the_clock_message_of_a_correspondence_table_names_its_days() -> None:
    days = TurnClocks(TimeControl.by_correspondence(5))
    days.update({1}, 0, None)
    message = days.message(10, 2)
    assert message["days_per_move"] == 5 and message["deadlines"] == {"1": 5 * DAY_MS}
    realtime = TurnClocks(TimeControl(turn_ms=1000))
    realtime.update({1}, 0, None)
    assert "days_per_move" not in realtime.message(10, 2)


async def test_a_correspondence_seat_out_of_days_while_the_server_was_down_is_due(
    tmp_path: Path,
) -> None:
    """A match rebuilt after the server was down for longer than the seat's days: its turn is
    already over (a real-time table would give the seat its whole turn again)."""
    url = f"sqlite+aiosqlite:///{tmp_path}/days.db"
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    if "tally" not in registry.ids():
        registry.register(TallyEngine())
    hub = Hub(Settings(database_url=url), create_sessionmaker(engine), ActionLogWriter(engine))
    try:
        three_days_ago = int(time.time() * 1000) - 3 * DAY_MS
        ids = {}
        async with create_sessionmaker(engine)() as db:
            players = [await AccountRepository(db).create(f"p{i}", None) for i in range(2)]
            for control in ({"days_per_move": 2}, {"turn_ms": 2 * DAY_MS}):
                match = await MatchRepository(db).create(
                    game="tally",
                    options={"target": 3},
                    seed=9,
                    seats=[SeatSpec(p.id, None, p.name) for p in players],
                    rated=False,
                    time_control=control,
                    lobby_id=None,
                    started_wall_ms=three_days_ago,
                )
                ids[bool(control.get("days_per_move"))] = match.id
        days = await hub.rebuild(ids[True])
        now = days.clock.now()
        assert days.turn_clocks.due(now) == [0]
        assert days.turn_clocks.deadlines == {0: 2 * DAY_MS}
        realtime = await hub.rebuild(ids[False])
        assert realtime.turn_clocks.due(realtime.clock.now()) == []
    finally:
        registry.unregister("tally")
        await hub.stop()
        await engine.dispose()


def test_kept_clocks_give_the_same_deadlines_again() -> None:
    clocks = TurnClocks(TimeControl(turn_ms=5000, match_ms=3000))
    clocks.update({0}, 0, None)
    clocks.update({1}, 1000, acted=0)
    kept = TurnClocks.resumed(clocks.control, clocks.running_since, clocks.banks)
    assert kept.deadlines == clocks.deadlines == {1: 4000}
    assert kept.remaining(0, 9999) == 2000
