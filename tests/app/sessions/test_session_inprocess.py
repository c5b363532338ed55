"""The hub and session in-process: a failed log write never reaches a client, the session is
rebuilt from the log, and a restart rebuilds bots and clocks from the same log."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.sessions import commands
from app.sessions.listener import Unmeasured
from tests.app.support import action_row, tally_in_process


class FakePeer(Unmeasured):
    """A connection that records what the session sends it."""

    def __init__(self, seat: int | None, account_id: int | None) -> None:
        self.seat = seat
        self.account_id = account_id
        self.sent: list[str] = []
        self.closed: int | None = None

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int = 1000) -> None:
        self.closed = code


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    async with tally_in_process(tmp_path) as world:
        yield world


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


async def test_a_failed_write_is_never_broadcast_and_the_session_is_rebuilt(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    hub, writer, match_id = world["hub"], world["writer"], world["match_id"]
    session = await hub.get(match_id)
    ann = FakePeer(0, world["players"][0].id)
    session.submit(commands.Attach(ann, None))
    await settle()

    def broken(_rows: list[dict[str, Any]], *, wait_ms: int) -> None:
        # A failure of the row itself (an unavailable database holds the row instead).
        raise RuntimeError("the row cannot be written")

    monkeypatch.setattr(writer, "_write_sqlite", broken)
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    with caplog.at_level("CRITICAL", logger="app.sessions.hub"):
        await settle()
    assert ann.closed == 1011
    assert not any('"type":"patch"' in text or '"type":"ack"' in text for text in ann.sent)
    monkeypatch.undo()
    await asyncio.sleep(0.6)  # the hub reloads the match from its log
    rebuilt = await hub.get(match_id)
    assert rebuilt is not session and rebuilt.version == 0
    again = FakePeer(0, world["players"][0].id)
    rebuilt.submit(commands.Attach(again, None))
    rebuilt.submit(commands.Submit(again, 0, 1, {"type": "move", "cell": 0}))
    await settle()
    assert any('"type":"ack"' in text for text in again.sent)
    assert rebuilt.version == 1


def _of_type(peer: FakePeer, kind: str) -> list[dict[str, Any]]:
    messages = [orjson.loads(text) for text in peer.sent]
    return [message for message in messages if message["type"] == kind]


async def test_actions_arriving_while_a_commit_is_in_flight_keep_their_order(
    world: dict[str, Any],
) -> None:
    hub, players = world["hub"], world["players"]
    session = await hub.get(world["match_id"])
    ann, bob = FakePeer(0, players[0].id), FakePeer(1, players[1].id)
    session.submit(commands.Attach(ann, None))
    session.submit(commands.Attach(bob, None))
    await settle()
    # Submitted in one turn of the loop: the first takes the fast lane (its commit is in
    # flight until the action log's callback), the others queue behind it in order.
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    session.submit(commands.Submit(bob, 1, 1, {"type": "move", "cell": 8}, version=1))
    session.submit(commands.Submit(ann, 0, 2, {"type": "move", "cell": 14}, version=2))
    session.submit(commands.Submit(bob, 1, 2, {"type": "move", "cell": 1}, version=2))
    await settle()
    assert [a["version"] for a in _of_type(ann, "ack")] == [1, 3]
    assert [a["version"] for a in _of_type(bob, "ack")] == [2]
    assert [e["code"] for e in _of_type(bob, "error")] == ["action/stale_version"]
    for peer in (ann, bob):
        assert [p["version"] for p in _of_type(peer, "patch")] == [1, 2, 3]
    assert session.version == 3


async def test_connections_that_see_the_same_view_share_one_build(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, players = world["hub"], world["players"]
    session = await hub.get(world["match_id"])
    ann, bob, spectator = (
        FakePeer(0, players[0].id),
        FakePeer(1, players[1].id),
        FakePeer(None, None),
    )
    for peer in (ann, bob, spectator):
        session.submit(commands.Attach(peer, None))
    await settle()
    builds: list[int | None] = []
    view = session.engine.view

    def counting_view(state: Any, seat: int | None) -> dict[str, Any]:
        builds.append(seat)
        return view(state, seat)

    monkeypatch.setattr(session.engine, "view", counting_view)
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    await settle()
    # Tally without secrets: one audience, so one view for the three connections.
    assert len(builds) == 1
    patches = [_of_type(peer, "patch")[0] for peer in (ann, bob, spectator)]
    assert patches[0]["view"] == patches[1]["view"] == patches[2]["view"]
    assert [p["legal"] for p in patches] == [
        [],
        [{"type": "move", "cell": 8}, {"type": "resign"}],
        [],
    ]


async def test_rows_staged_in_one_turn_share_a_commit_and_a_bad_row_fails_alone(
    world: dict[str, Any],
) -> None:
    writer, match_id = world["writer"], world["match_id"]
    heard: list[tuple[int, str | None]] = []
    writer.after_commit = lambda: heard.append((-1, None))
    before = writer.batches
    for version in (1, 2):
        writer.stage(
            action_row(match_id, version),
            lambda error, v=version: heard.append((v, None if error is None else repr(error))),
        )
    assert heard == []  # nothing is written before the end of this turn of the loop
    await settle()
    assert heard == [(1, None), (2, None), (-1, None)]
    assert writer.batches == before + 1
    heard.clear()
    # Version 2 again violates (match_id, version): it fails alone, version 3 is kept.
    for version in (2, 3):
        writer.stage(
            action_row(match_id, version),
            lambda error, v=version: heard.append((v, None if error is None else "failed")),
        )
    await settle()
    assert sorted(entry for entry in heard if entry[0] > 0) == [(2, "failed"), (3, None)]
    async with writer.engine.connect() as connection:
        versions = (
            await connection.exec_driver_sql(
                f"SELECT version FROM match_actions WHERE match_id = {match_id} ORDER BY version"
            )
        ).all()
    assert [v for (v,) in versions] == [1, 2, 3]
