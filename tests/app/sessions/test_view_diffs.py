"""Patches carry diffs of the view: applied in order to the welcome view, they give the engine's
own view at every version (all four games, every seat and a spectator); a gap is resynced;
a diff longer than the view goes as the whole view; the browser's applyPatch agrees."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from rampart_client import HeldView, apply_diff

from app.__main__ import migrate
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.repositories import MatchRepository, SeatSpec
from app.sessions import commands
from app.sessions.hub import Hub
from app.sessions.listener import Unmeasured
from app.sessions.session import GameSession
from app.sessions.view_diff import diff_view
from bench.tally.engine import TallyEngine
from engines import registry
from engines.base import awaiting_seats
from tests.app.support import Api, Client, Server, match_in_process

GAMES = ["ambush", "castles", "ember", "rampage"]
ROOT = Path(__file__).resolve().parents[3]


def plain(value: Any) -> Any:
    """As the wire carries it (int keys as strings, tuples as lists)."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


class CheckingPeer(Unmeasured):
    """A connection that reads every welcome and patch as a client does (the official
    client's ``HeldView``) and checks what it then holds against the engine at that moment:
    the session sends a version's patches while its state is at that version."""

    def __init__(self, session: GameSession, seat: int | None, *, drop: int | None = None):
        self.session, self.seat, self.account_id = session, seat, None
        self.reader = HeldView()
        self.drop = drop  # a version whose patch is lost on the way (a gap)
        self.record: list[str] = []  # every welcome and patch, as sent
        self.checked = self.diffs = self.resyncs = 0
        self.problems: list[str] = []

    def send_text(self, text: str) -> None:
        message = orjson.loads(text)
        if message["type"] not in ("welcome", "patch"):
            return
        if message["version"] == self.drop and "base" in message:
            self.drop = None
            return
        self.record.append(text)
        self.diffs += "base" in message
        if self.reader.read(message) == "resync":
            # What the gateway does with a ``resync`` message.
            self.resyncs += 1
            self.session.submit(commands.Attach(self, self.reader.version))
            return
        self.check(message["version"])

    def check(self, version: int) -> None:
        engine, state = self.session.engine, self.session.state
        over = engine.outcome(state) is not None
        seat = self.seat
        acting = seat is not None and not over and seat in engine.to_act(state)
        expected = (
            plain(engine.view(state, seat)),
            plain(engine.legal_actions(state, seat)) if acting else [],
            [] if over else sorted(awaiting_seats(engine, state)),
        )
        if (self.reader.view, self.reader.legal, self.reader.awaiting) != expected:
            self.problems.append(f"seat {seat} differs from the engine at version {version}")
        self.checked += 1

    def close(self, code: int = 1000) -> None:
        pass


@contextlib.asynccontextmanager
async def bot_match(folder: Path, game: str, seed: int) -> AsyncIterator[GameSession]:
    """A two-bot match of ``game`` on a fast clock, in-process (SQLite, hub, action log)."""
    url = f"sqlite+aiosqlite:///{folder}/diffs.db"
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    writer = ActionLogWriter(engine)
    writer.start()
    hub = Hub(Settings(database_url=url, clock_rate=200.0), sessionmaker, writer)
    async with sessionmaker() as db:
        match = await MatchRepository(db).create(
            game=game,
            options={},
            seed=seed,
            seats=[SeatSpec(None, "heuristic", f"bot {i}") for i in range(2)],
            rated=False,
            time_control={},
            lobby_id=None,
            started_wall_ms=int(time.time() * 1000),
        )
    try:
        yield await hub.get(match.id)
    finally:
        await hub.stop()
        await writer.stop()
        await engine.dispose()


async def until_over(session: GameSession, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not session.finished:
        assert time.monotonic() < deadline, "the bot match did not end in time"
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.05)


@pytest.mark.parametrize("game", GAMES)
async def test_patches_applied_to_the_welcome_view_give_the_engines_view(
    tmp_path: Path, game: str
) -> None:
    async with bot_match(tmp_path, game, seed=11) as session:
        peers = [CheckingPeer(session, seat) for seat in (0, 1, None)]
        for peer in peers:
            session.submit(commands.Attach(peer, None))
        await until_over(session)
        versions = session.version
    for peer in peers:
        assert peer.problems == []
        assert peer.checked == versions + 1  # the welcome and one patch per version
        assert peer.resyncs == 0
        # Most patches are diffs: the whole view goes only now and then.
        assert peer.diffs > versions // 2, f"{game}: {peer.diffs} diffs in {versions}"
    # A seat that may not act gets no legal actions: some patches carry none at all.
    assert any(b'"legal"' not in text.encode() for text in peers[0].record[1:])


async def test_a_gap_is_resynced_with_the_whole_view(tmp_path: Path) -> None:
    async with bot_match(tmp_path, "ambush", seed=5) as session:
        steady = CheckingPeer(session, 0)
        gappy = CheckingPeer(session, 0, drop=3)
        for peer in (steady, gappy):
            session.submit(commands.Attach(peer, None))
        await until_over(session)
    assert gappy.resyncs == 1 and gappy.problems == [] and steady.problems == []
    # After the gap: a resumed welcome (the missed versions' events in it), then diffs again.
    resumed = [orjson.loads(text) for text in gappy.record if '"type":"welcome"' in text]
    assert [w["resumed"] for w in resumed] == [False, True]
    assert gappy.checked > steady.checked - 5 and gappy.diffs > 10


async def test_a_diff_longer_than_the_view_goes_as_the_whole_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A view whose every key changes (versions 1 and 3) goes whole: its diff would be longer
    than the view; at version 2 only ``n`` changes, and a diff goes."""

    def view(self: TallyEngine, state: Any, seat: int | None) -> dict[str, Any]:
        m = 1 if state.n == 2 else state.n
        return {"n": state.n, **{f"k{i}": f"{m}-{i}" * 9 for i in range(40)}}

    monkeypatch.setattr(TallyEngine, "whole_views", False)
    monkeypatch.setattr(TallyEngine, "view", view)
    if "tally" not in registry.ids():
        registry.register(TallyEngine())
    try:
        async with match_in_process(tmp_path, "tally", {"target": 9}, seed=3) as world:
            session = await world["hub"].get(world["match_id"])
            peer = CheckingPeer(session, 0)
            session.submit(commands.Attach(peer, None))
            for seq, seat in enumerate([0, 1, 0], start=1):
                await asyncio.sleep(0.1)
                move = session.engine.legal_actions(session.state, seat)[0]
                session.submit(commands.Submit(peer, seat, seq, move))
            await asyncio.sleep(0.2)
    finally:
        registry.unregister("tally")
    patches = [orjson.loads(text) for text in peer.record[1:]]
    assert [p["version"] for p in patches] == [1, 2, 3]
    assert "view" in patches[0] and "base" not in patches[0]
    assert patches[1]["base"] == 1 and patches[1]["diff"] == {"set": {"n": 2}}
    assert "view" in patches[2] and "base" not in patches[2]
    assert peer.problems == [] and peer.checked == 4


def test_diff_view_round_trips_and_keeps_its_inputs() -> None:
    old = {"a": 1, "grid": [{"c": 0}, {"c": 1}, {"c": 2}], "m": {"x": 1, "y": 2, "z": 3}, "gone": 0}
    new = {"a": 1, "grid": [{"c": 0}, {"c": 9}, {"c": 2}], "m": {"x": 1, "y": 5, "z": 3}, "b": [1]}
    kept = json.dumps(old)
    diff = diff_view(old, new)
    assert diff == {
        "set": {"b": [1]},
        "sub": {"grid": {"1": {"c": 9}}, "m": {"y": 5}},
        "del": ["gone"],
    }
    assert apply_diff(old, plain(diff)) == new and json.dumps(old) == kept
    assert diff_view(new, new) == {}


async def test_resync_message_gets_a_resumed_welcome(api: Api, shared_server: Server) -> None:
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_id = await api.table("tally", tokens, options={"target": 50})
    ann = await Client(shared_server, match_id, tokens[0]).connect()
    await ann.act({"type": "move", "cell": 0})
    patch = await ann.wait_for("patch", version=1)
    # tally's patches stay whole: the shared peer benchmark's load.js reads ``view.turn``.
    assert "base" not in patch and patch["view"]["turn"] == 1
    await ann.send({"type": "resync", "last_version": 0})
    again = await ann.wait_for("welcome", resumed=True)
    assert again["version"] == 1 and again["view"]["n"] == 1
    await ann.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
async def test_the_browsers_apply_patch_agrees(tmp_path: Path) -> None:
    """static/js/viewpatch.js under node, on the patches a real Ambush! match sent a seat:
    the view, legal actions and awaited seats it holds after each equal the engine's."""
    async with bot_match(tmp_path, "ambush", seed=21) as session:
        peer = CheckingPeer(session, 1)
        session.submit(commands.Attach(peer, None))
        await until_over(session)
    assert peer.problems == [] and peer.diffs > 10
    expected = []
    reader = HeldView()
    for text in peer.record:
        message = orjson.loads(text)
        reader.read(message)
        expected.append({"view": reader.view, "legal": reader.legal, "awaiting": reader.awaiting})
    (tmp_path / "patches.json").write_text(json.dumps([orjson.loads(t) for t in peer.record]))
    recorded = json.dumps(str(tmp_path / "patches.json"))
    script = (
        f"import {{ applyPatch }} from {json.dumps(str(ROOT / 'static/js/viewpatch.js'))};\n"
        "import { readFileSync } from 'node:fs';\n"
        "let held = null; const out = [];\n"
        f"for (const m of JSON.parse(readFileSync({recorded}))) {{\n"
        "  held = applyPatch(held, m);\n"
        "  out.push({view: held.view, legal: held.legal, awaiting: held.awaiting});\n"
        "}\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected


async def test_resync_before_hello_is_refused(api: Api, shared_server: Server) -> None:
    token = await api.guest("cy")
    match_id = await api.table("tally", [token], options={"target": 5})
    cy = await Client(shared_server, match_id, token).connect(hello=False)
    await cy.send({"type": "resync", "last_version": 0})
    refusal = await cy.wait_for("error")
    assert refusal["code"] == "hello/required"
    await cy.close()
