"""Sleeping matches in-process: an idle match leaves memory, comes back on demand or when its
deadline is due with its clocks and away seats as they were, and start-up leaves it asleep."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.__main__ import migrate
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.models import MatchAction, MatchWakeup
from app.db.repositories import AccountRepository, MatchRepository, SeatSpec
from app.sessions import commands
from app.sessions.hub import Hub
from app.sessions.sleep import Wakeups
from bench.tally.engine import TallyEngine
from engines import registry
from tests.app.support import RecordingPeer

QUIET_S = 0.2  # the hibernate_after_s of these hubs


class World:
    """A migrated SQLite database, its action log writer, hubs on it and helpers."""

    def __init__(self, folder: Path) -> None:
        self.url = f"sqlite+aiosqlite:///{folder}/sleep.db"
        self.engine: Any = None
        self.hubs: list[Hub] = []

    async def open(self) -> None:
        await asyncio.to_thread(migrate, self.url)
        self.engine = create_engine(self.url)
        self.sessionmaker = create_sessionmaker(self.engine)
        self.writer = ActionLogWriter(self.engine)
        self.writer.start()

    def hub(self, **settings: Any) -> Hub:
        values: dict[str, Any] = {"hibernate_after_s": QUIET_S, "wake_poll_s": 0.05, **settings}
        hub = Hub(Settings(database_url=self.url, **values), self.sessionmaker, self.writer)
        self.hubs.append(hub)
        return hub

    async def match(self, time_control: dict[str, Any] | None = None) -> tuple[int, list[int]]:
        async with self.sessionmaker() as db:
            names = [f"p{time.monotonic_ns()}-{i}" for i in range(2)]
            players = [await AccountRepository(db).create(name, None) for name in names]
            match = await MatchRepository(db).create(
                game="tally",
                options={"target": 50},
                seed=9,
                seats=[SeatSpec(p.id, None, p.name) for p in players],
                rated=False,
                time_control=time_control or {"grace_ms": 0},
                lobby_id=None,
                started_wall_ms=int(time.time() * 1000),
            )
            return match.id, [p.id for p in players]

    async def wakeup(self, match_id: int) -> MatchWakeup | None:
        async with self.sessionmaker() as db:
            return await db.get(MatchWakeup, match_id)

    async def causes(self, match_id: int) -> list[str]:
        async with self.sessionmaker() as db:
            query = select(MatchAction.cause).where(MatchAction.match_id == match_id)
            return list((await db.execute(query.order_by(MatchAction.version))).scalars())

    async def close(self) -> None:
        for hub in self.hubs:
            await hub.stop()
        await self.writer.stop()
        await self.engine.dispose()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    registered = "tally" not in registry.ids()
    if registered:
        registry.register(TallyEngine())
    world = World(tmp_path)
    await world.open()
    try:
        yield world
    finally:
        await world.close()
        if registered:
            registry.unregister("tally")


async def until(predicate: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.02)


async def asleep(world: World, hub: Hub, match_id: int) -> MatchWakeup:
    """Wait until the match has left the hub; its wake-up row."""
    await until(lambda: match_id not in hub.sessions)
    row = await world.wakeup(match_id)
    assert row is not None
    return row


async def test_an_idle_match_falls_asleep_and_an_action_wakes_it(world: World) -> None:
    hub = world.hub()
    await hub.start()
    match_id, players = await world.match()
    session = await hub.get(match_id)
    ann = RecordingPeer(0, players[0])
    session.submit(commands.Attach(ann, None))
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    await until(lambda: ann.of_type("ack"))
    session.submit(commands.Detach(ann))
    row = await asleep(world, hub, match_id)
    assert match_id not in hub.tasks
    assert row.due_at is None  # no clock, no grace: nothing is ever due
    # The next comer wakes it, at the version it slept at; the next move is version 2.
    woken = await hub.get(match_id)
    assert woken is not session and woken.version == 1
    bob = RecordingPeer(1, players[1])
    woken.submit(commands.Attach(bob, 1))
    woken.submit(commands.Submit(bob, 1, 1, {"type": "move", "cell": 1}))
    await until(lambda: bob.of_type("ack"))
    assert bob.of_type("ack")[0]["version"] == 2
    assert await world.wakeup(match_id) is None
    assert await world.causes(match_id) == ["player", "player"]


async def test_a_watched_match_stays_awake(world: World) -> None:
    hub = world.hub()
    await hub.start()
    match_id, _ = await world.match()
    session = await hub.get(match_id)
    session.submit(commands.Attach(RecordingPeer(None, None), None))  # a spectator watches
    await asyncio.sleep(QUIET_S * 3)
    assert hub.sessions.get(match_id) is session
    assert await world.wakeup(match_id) is None


async def test_a_sleeping_turn_clock_runs_on_and_fires_with_nobody_there(world: World) -> None:
    """Match time runs 20x: a 4 s turn is 0.2 s of wall time after it starts."""
    hub = world.hub(clock_rate=20.0)
    await hub.start()
    control = {"turn_ms": 10_000, "on_timeout": "pass", "grace_ms": 0}
    match_id, _ = await world.match(control)
    session = await hub.get(match_id)
    deadline = session.turn_clocks.deadlines[0]
    row = await asleep(world, hub, match_id)
    # Its due time is the turn clock's end on the wall clock.
    assert row.due_at is not None
    assert row.carry["running_since"] == {"0": deadline - 10_000}
    # The wake-up loop brings it back at its deadline, which passes seat 0's turn.
    await until(lambda: match_id in hub.sessions, timeout=5)
    await until(lambda: hub.sessions[match_id].version >= 1)
    assert (await world.causes(match_id))[0] == "timeout"


async def test_an_away_seat_s_grace_runs_out_while_the_match_sleeps(world: World) -> None:
    """A real-time table: the players never came; 10 s of grace is 0.5 s of wall time."""
    hub = world.hub(clock_rate=20.0)
    await hub.start()
    match_id, _ = await world.match({"grace_ms": 10_000})
    await hub.get(match_id)
    row = await asleep(world, hub, match_id)
    assert row.carry["away"] and row.due_at is not None
    await until(lambda: match_id in hub.sessions and hub.sessions[match_id].finished)
    assert await world.causes(match_id) == ["forfeit_abandoned"]


async def test_a_woken_match_keeps_its_clock_and_away_seats(world: World) -> None:
    hub = world.hub(clock_rate=20.0)
    await hub.start()
    control = {"turn_ms": 1_000_000, "on_timeout": "pass", "grace_ms": 900_000}
    match_id, _ = await world.match(control)
    session = await hub.get(match_id)
    clock_deadline = session.turn_clocks.deadlines[0]
    away = dict(session.connections.away)
    await asleep(world, hub, match_id)
    woken = await hub.get(match_id)
    # A rebuild from the log alone would start the turn and the grace again from now.
    assert woken.turn_clocks.deadlines[0] == clock_deadline
    assert woken.connections.away == away


async def test_start_up_leaves_sleeping_matches_asleep(world: World) -> None:
    first = world.hub()
    await first.start()
    sleeping, _ = await world.match()
    await first.get(sleeping)
    await asleep(world, first, sleeping)
    awake, _ = await world.match()
    await first.stop()
    second = world.hub(hibernate_after_s=0)
    await second.start()
    assert awake in second.sessions and sleeping not in second.sessions
    assert (await second.get(sleeping)).version == 0


async def test_a_due_match_is_taken_by_one_process_only(world: World) -> None:
    match_id, _ = await world.match()
    due = int(time.time() * 1000) - 1
    wakeups = Wakeups(world.sessionmaker)
    carry = {"running_since": {}, "banks": {}, "away": {}, "called": []}
    await wakeups.put([(match_id, due, carry)])
    now = int(time.time() * 1000)
    taken = await asyncio.gather(*(wakeups.take(match_id, f"node-{i}", now) for i in range(4)))
    assert sorted(taken) == [False, False, False, True]
    # Two hubs' loops (two processes on one database) race for it: one wakes it.
    await wakeups.remove([match_id])
    await wakeups.put([(match_id, due, carry)])
    hubs = [world.hub(hibernate_after_s=0), world.hub(hibernate_after_s=0)]
    woken = await asyncio.gather(*(hub.sleeper.wake_due() for hub in hubs))
    assert sorted(len(ids) for ids in woken) == [0, 1]
    assert await world.wakeup(match_id) is None


async def test_a_match_never_sleeps_with_hibernation_off(world: World) -> None:
    hub = world.hub(hibernate_after_s=0)
    await hub.start()
    match_id, _ = await world.match()
    session = await hub.get(match_id)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(until(lambda: match_id not in hub.sessions), QUIET_S * 3)
    assert hub.sessions.get(match_id) is session


async def test_a_session_held_across_its_sleep_sends_its_socket_to_the_woken_one(
    world: World,
) -> None:
    """A socket gets the session before its hello: should the match fall asleep meanwhile,
    that session takes nothing more (the socket reconnects and wakes the match)."""
    hub = world.hub()
    await hub.start()
    match_id, players = await world.match()
    held = await hub.get(match_id)
    await asleep(world, hub, match_id)
    late = RecordingPeer(0, players[0])
    held.submit(commands.Attach(late, None))
    held.submit(commands.Submit(late, 0, 1, {"type": "move", "cell": 0}))
    await asyncio.sleep(0.05)
    assert late.closed == 1012 and not late.of_type("welcome")
    assert await world.causes(match_id) == []  # nothing was played on the old session
    woken = await hub.get(match_id)
    assert woken is not held and woken.version == 0


class SlowOwners:
    """A cluster directory whose releases wait for ``let_go``."""

    node_id = "here"

    def __init__(self) -> None:
        self.owners: dict[int, str] = {}
        self.let_go = asyncio.Event()

    async def claim(self, match_id: int) -> str:
        return self.owners.setdefault(match_id, self.node_id)

    async def adoptable(self, matches: list[tuple[int, int]]) -> list[int]:
        return [match_id for match_id, _ in matches]

    async def release(self, match_ids: list[int]) -> None:
        await self.let_go.wait()
        for match_id in match_ids:
            if self.owners.get(match_id) == self.node_id:
                del self.owners[match_id]


async def test_a_match_woken_while_its_release_is_under_way_stays_claimed(
    world: World,
) -> None:
    hub = world.hub()
    owners = SlowOwners()
    hub.placement = owners
    match_id, _ = await world.match()
    await hub.get(match_id)
    await asyncio.sleep(QUIET_S)
    sleeping = asyncio.create_task(hub.sleeper.sleep_idle())
    await until(lambda: match_id not in hub.sessions)
    await hub.get(match_id)  # a hello here, before the directory heard of the sleep
    owners.let_go.set()
    assert await sleeping == [match_id]
    assert owners.owners.get(match_id) == "here"


async def test_stopping_finishes_a_sleep_under_way(world: World) -> None:
    """Stopped while its rows are being written, the sleeper still checks each match: one
    that moved meanwhile keeps no row (its clocks and seats in it would be stale)."""
    hub = world.hub()
    match_id, players = await world.match()
    session = await hub.get(match_id)
    await asyncio.sleep(QUIET_S)
    written = asyncio.Event()
    let_go = asyncio.Event()
    put = hub.sleeper.wakeups.put

    async def slow_put(rows: list[tuple[int, int | None, dict[str, Any]]]) -> None:
        await put(rows)
        written.set()
        await let_go.wait()

    hub.sleeper.wakeups.put = slow_put  # type: ignore[method-assign]
    hub.sleeper.poll_s = 0.01
    hub.sleeper.start()
    await written.wait()
    ann = RecordingPeer(0, players[0])
    session.submit(commands.Attach(ann, None))  # someone came: the match stays awake
    stopping = asyncio.create_task(hub.sleeper.stop())
    await asyncio.sleep(0.05)
    let_go.set()
    await stopping
    assert hub.sessions.get(match_id) is session
    assert await world.wakeup(match_id) is None
