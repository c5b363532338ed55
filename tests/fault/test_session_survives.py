"""Defence in depth in the session, in-process: a failure while handling one client's message
answers that client ``server/internal``, the match's state is restored from its log, and every
other seat plays on (no socket closed, nothing acknowledged lost); a finished match answers
without a task; a refused match id leaves nothing behind in the hub."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.errors import AppError
from app.sessions import commands
from tests.app.support import RecordingPeer, tally_in_process


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    async with tally_in_process(tmp_path) as world:
        yield world


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


POISON = 13  # the cell on which the broken engine below fails


def break_engine_on_poison(monkeypatch: pytest.MonkeyPatch, session: Any) -> None:
    """The engine half-applies a move to cell 13 (the state changed) and then raises, as an
    engine bug would."""
    apply = session.engine.apply

    def broken(state: Any, seat: int, action: dict[str, Any], at_ms: int) -> Any:
        if action.get("cell") == POISON:
            state.n += 100
            state.scores[seat] += 100
            raise RuntimeError("engine bug")
        return apply(state, seat, action, at_ms)

    monkeypatch.setattr(session.engine, "apply", broken)


@pytest.mark.parametrize("lane", ["fast", "queued"])
async def test_an_engine_failure_answers_server_internal_and_the_match_plays_on(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch, lane: str
) -> None:
    hub, players = world["hub"], world["players"]
    session = await hub.get(world["match_id"])
    ann, bob, watcher = (
        RecordingPeer(0, players[0].id),
        RecordingPeer(1, players[1].id),
        RecordingPeer(None, None),
    )
    for peer in (ann, bob, watcher):
        session.submit(commands.Attach(peer, None))
    await settle()
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    await settle()
    assert [a["version"] for a in ann.of_type("ack")] == [1]
    break_engine_on_poison(monkeypatch, session)
    if lane == "queued":  # behind a chat, the task handles it
        session.submit(commands.Chat(bob, "hi"))
    session.submit(commands.Submit(bob, 1, 1, {"type": "move", "cell": POISON}))
    # Queued behind the failure: handled once the state is restored.
    session.submit(commands.Submit(bob, 1, 2, {"type": "move", "cell": 8}))
    await settle()
    failed = [e for e in bob.of_type("error") if e["client_seq"] == 1]
    assert [e["code"] for e in failed] == ["server/internal"]
    assert [a["version"] for a in bob.of_type("ack")] == [2]
    assert session.state.n == 2 and session.state.scores[1] < 100  # restored, then moved
    session.submit(commands.Submit(ann, 0, 2, {"type": "move", "cell": 14}))
    await settle()
    assert [a["version"] for a in ann.of_type("ack")] == [1, 3]
    for peer in (ann, bob, watcher):
        assert peer.closed is None
        assert [p["version"] for p in peer.of_type("patch")] == [1, 2, 3]
    assert hub.sessions[world["match_id"]] is session and session.version == 3


class FailsOnce(RecordingPeer):
    """A connection whose first send raises (its welcome fails)."""

    failed = False

    def send_text(self, text: str) -> None:
        if not self.failed:
            self.failed = True
            raise RuntimeError("broken connection")
        super().send_text(text)


async def test_a_failing_welcome_answers_its_connection_only(world: dict[str, Any]) -> None:
    hub, players = world["hub"], world["players"]
    session = await hub.get(world["match_id"])
    ann, bob = RecordingPeer(0, players[0].id), FailsOnce(1, players[1].id)
    session.submit(commands.Attach(ann, None))
    await settle()
    session.submit(commands.Attach(bob, None))
    await settle()
    assert [e["code"] for e in bob.of_type("error")] == ["server/internal"]
    session.submit(commands.Submit(ann, 0, 1, {"type": "move", "cell": 0}))
    await settle()
    assert [a["version"] for a in ann.of_type("ack")] == [1]
    assert ann.closed is None and bob.closed is None
    assert hub.sessions[world["match_id"]] is session


async def test_a_finished_match_loaded_from_the_log_answers_hello(
    world: dict[str, Any],
) -> None:
    hub, players, match_id = world["hub"], world["players"], world["match_id"]
    session = await hub.get(match_id)
    ann = RecordingPeer(0, players[0].id)
    session.submit(commands.Attach(ann, None))
    session.submit(commands.Submit(ann, 0, 1, {"type": "resign"}))
    await settle()
    assert session.finished
    hub.sessions.pop(match_id)  # as after a restart: loaded again, finished, from the log
    loaded = await hub.get(match_id)
    assert loaded is not session and loaded.finished
    bob, watcher = RecordingPeer(1, players[1].id), RecordingPeer(None, None)
    for peer in (bob, watcher):
        loaded.submit(commands.Attach(peer, None))
        welcome = peer.of_type("welcome")
        assert len(welcome) == 1 and welcome[0]["status"] == "finished"
        assert welcome[0]["view"]["outcome"] is not None
    loaded.submit(commands.Submit(bob, 1, 5, {"type": "move", "cell": 0}))
    assert [e["code"] for e in bob.of_type("error")] == ["match/over"]


async def test_a_refused_match_id_leaves_nothing_behind(world: dict[str, Any]) -> None:
    hub = world["hub"]
    for match_id in range(10_000, 10_050):
        with pytest.raises(AppError):
            await hub.get(match_id)
    assert not hub.sessions.get(10_000)
    assert len(vars(hub)["_loading"]) == 0  # no lock or load kept per refused id
