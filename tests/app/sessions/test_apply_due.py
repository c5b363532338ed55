"""The session applies what its deadlines say is due (``GameSession._apply_due``): the change
each intent makes, the engine's refusals handled as the intent says, and what it tells back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.sessions.intents import Forfeit, Tick, TimeOut
from tests.app.support import tally_in_process


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    async with tally_in_process(tmp_path) as world:
        yield world


async def test_a_pass_the_engine_refuses_is_a_forfeit_for_time_and_a_seat_out_is_skipped(
    world: dict[str, Any],
) -> None:
    session = await world["hub"].get(world["match_id"])
    change = session._apply_due(TimeOut(0, {"type": "no_such_move"}, 1_000))
    assert change is not None
    assert (change.seat, change.action, change.cause) == (0, {"type": "resign"}, "forfeit_time")
    assert session.forfeits == {"0": "time"}
    # The match is over for the engine now: a second forfeit changes nothing.
    assert session._apply_due(Forfeit(0, "abandoned", 2_000)) is None
    assert session.forfeits == {"0": "time"}


async def test_a_tick_that_changes_nothing_is_not_due_again_until_the_match_moves(
    world: dict[str, Any],
) -> None:
    session = await world["hub"].get(world["match_id"])
    assert session._apply_due(Tick(500, 600)) is None  # tally's tick makes no events
    assert session.deadlines.stale == 500
    session.deadlines.moved()
    assert session.deadlines.stale is None


async def test_a_change_whose_waiting_task_was_cancelled_is_still_announced_quietly(
    world: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """The hub stopping cancels a task that waits for its row: the row's write still
    advances the match, and answering the cancelled wait raises nothing."""
    session = await world["hub"].get(world["match_id"])
    version = session.version
    change = session._apply_due(Forfeit(0, "abandoned", 2_000))
    assert change is not None
    errors: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    waiting = asyncio.create_task(session._commit(change))
    await asyncio.sleep(0)
    waiting.cancel()
    for _ in range(200):
        if session.version > version:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    loop.set_exception_handler(None)
    assert session.version == version + 1
    assert not errors, errors
    assert "InvalidStateError" not in caplog.text
