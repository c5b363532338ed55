"""What a match keeps after its moves: sized by what it holds, bounded by its limits."""

from __future__ import annotations

import asyncio
import gc
import time
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.db.repositories import MatchRepository, SeatSpec
from app.sessions.commands import Attach, Detach, History
from app.sessions.hub import Hub
from app.sessions.listener import Unmeasured
from app.sessions.session import GameSession
from tests.app.support import tally_in_process


def test_history_entries_hold_their_own_size_not_the_encoders_buffer() -> None:
    """Each version's events are kept as JSON text of its own size; orjson's result is the
    whole buffer it wrote into (4 KiB for a short event list), so kept as it comes, 256
    finished matches of a few hundred versions each held tens of megabytes."""
    history = History(limit=512)
    events = [{"type": "moved", "seat": 1, "cell": 3}]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for version in range(1, 301):
            history.append(version, events, version * 10)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(history.entries) == 300
    # An entry is a tuple, two ints and ~40 bytes of JSON: well under 300 bytes each.
    assert grown < 300 * 300, f"{grown / 300:.0f} bytes per history entry"
    assert history.since(299) == [(300, events, 3000)]


class Spectator(Unmeasured):
    seat: int | None = None
    account_id: int | None = None

    def send_text(self, text: str) -> None:
        pass

    def close(self, code: int = 1000) -> None:
        pass


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    async with tally_in_process(tmp_path) as world:
        yield world


async def new_match(world: dict[str, Any]) -> int:
    hub: Hub = world["hub"]
    async with hub.sessionmaker() as db:
        match = await MatchRepository(db).create(
            game="tally",
            options={"target": 3},
            seed=9,
            seats=[SeatSpec(p.id, None, p.name) for p in world["players"]],
            rated=False,
            time_control={},
            lobby_id=None,
            started_wall_ms=int(time.time() * 1000),
        )
    return int(match.id)


async def test_a_finished_match_watched_when_its_turn_to_go_came_goes_once_unwatched(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hub keeps the last FINISHED_KEPT finished matches; an older one that still had a
    socket open when its turn to go came is dropped later, once the socket is gone (it was
    kept loaded for good)."""
    monkeypatch.setattr("app.sessions.hub.FINISHED_KEPT", 1)
    hub: Hub = world["hub"]
    watched = world["match_id"]
    session = await hub.get(watched)
    spectator = Spectator()
    session.submit(Attach(spectator, None))
    for _ in range(100):
        if spectator in session.peers:
            break
        await asyncio.sleep(0.01)
    await hub.abort(watched, "match/aborted", "ended by the test")
    for _ in range(2):
        await hub.abort(await new_match(world), "match/aborted", "ended by the test")
    assert watched in hub.sessions  # still watched: kept past the bound
    session.submit(Detach(spectator))
    assert not session.peers
    last = await new_match(world)
    await hub.abort(last, "match/aborted", "ended by the test")
    assert list(hub.sessions) == [last]


async def test_a_finished_match_the_hub_drops_is_freed_without_the_cycle_collector(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's collector policy (``app.collector``) leaves cyclic garbage for a full
    collection, run only once the frozen heap has doubled: a dropped session caught in a
    cycle (its seat views held it) stayed in memory that long, piling up in the soak."""
    monkeypatch.setattr("app.sessions.hub.FINISHED_KEPT", 0)
    hub: Hub = world["hub"]
    match_id = world["match_id"]
    # Not a weak reference: the compiled session has no slot for one. An object the collector
    # tracks is in ``gc.get_objects()`` until it is freed; its address names it meanwhile
    # (other tests' sessions may still be alive, with the same match id).
    address = id(await hub.get(match_id))
    gc.disable()
    try:
        await hub.abort(match_id, "match/aborted", "ended by the test")
        await asyncio.sleep(0.05)  # the session task's end is handled
        assert match_id not in hub.sessions
        alive = [o for o in gc.get_objects() if id(o) == address and type(o) is GameSession]
        assert not alive, "kept alive by a reference cycle"
    finally:
        gc.enable()
