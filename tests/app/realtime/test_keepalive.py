"""Keep-alive pings (matches without grab races): skipped while messages go both ways, sent
otherwise, and a client that answers nothing is still dropped after ``DEAD_LINK_MS``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.config import Settings
from app.realtime import peer as peer_module
from app.realtime.gateway import _Conversation
from app.realtime.peer import DEAD_LINK_MS, Peer
from tests.app.realtime.test_frames import FakeFrames, decoded, peer_on

SETTINGS = Settings(database_url="sqlite+aiosqlite:///unused.db", rate_per_s=1000.0)
MOVE = '{"type":"action","client_seq":%d,"action":{"type":"add","n":1}}'


class SessionStub:
    def __init__(self) -> None:
        self.submitted: list[Any] = []

    def submit(self, command: Any) -> None:
        self.submitted.append(command)


class Transport:
    aborted = False

    def abort(self) -> None:
        self.aborted = True


class Link:
    """A greeted player's connection in a match without grab races, on a clock we move."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = 0.0
        monkeypatch.setattr(peer_module, "_monotonic_ms", lambda: self.now)
        self.frames = FakeFrames()
        self.frames.transport = Transport()  # type: ignore[attr-defined]
        self.peer: Peer
        self.peer, _ = peer_on(self.frames)
        self.peer.use_clock(lambda: self.now)
        self.peer.measure_links = False
        self.peer.seat = 0
        self.session = SessionStub()
        self.talk = _Conversation(self.peer, self.session, SETTINGS)  # type: ignore[arg-type]
        self.talk.greeted = True
        self.seq = 0

    def move(self) -> None:
        self.seq += 1
        self.talk.handle(MOVE % self.seq, self.now)

    def pings_sent(self) -> list[int]:
        return [
            int(text.split(":")[-1].rstrip("}"))
            for write in self.frames.writes
            for text in decoded(write)
            if text.startswith('{"type":"ping"')
        ]

    async def period(self, *, client_moves: bool, server_sends: bool) -> None:
        """One keep-alive period: what the client and the server do, then the pinger's turn."""
        if client_moves:
            self.move()
        if server_sends:
            self.peer.send_text('{"type":"patch"}')
        await asyncio.sleep(0)  # the patch leaves
        self.now += 1000.0
        self.peer.ping()  # what the pinger does once a keep-alive period
        await asyncio.sleep(0)


async def test_a_busy_connection_is_not_pinged_and_dropped_once_its_client_goes_quiet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = Link(monkeypatch)
    for _ in range(10):
        await link.period(client_moves=True, server_sends=True)
    assert link.pings_sent() == []
    assert len(link.session.submitted) == 10
    quiet = 0  # the client stops answering; patches still flow to it
    while not link.frames.transport.aborted:  # type: ignore[attr-defined]
        await link.period(client_moves=False, server_sends=True)
        quiet += 1
        assert quiet < 20
    assert quiet == DEAD_LINK_MS / 1000 + 2  # the first unanswered ping, then 5 s more
    assert link.pings_sent() == list(range(1, quiet))
    assert link.peer.ping_period_ms() is None  # closing


async def test_a_pong_with_a_patch_is_traffic_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    link = Link(monkeypatch)  # a player waiting for the others: patches, no moves
    answered = 0
    for _ in range(6):
        await link.period(client_moves=False, server_sends=True)
        if link.peer.last_nonce > answered:  # each ping answered once, at once
            answered = link.peer.last_nonce
            link.talk.handle(f'{{"type":"pong","nonce":{answered}}}', link.now)
    assert link.pings_sent() == [1, 2, 3]  # every other period
    assert not link.frames.transport.aborted  # type: ignore[attr-defined]


async def test_a_client_told_nothing_still_hears_a_ping_every_other_period(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = Link(monkeypatch)  # it moves, but nothing goes back (no acks in this stub)
    for _ in range(6):
        await link.period(client_moves=True, server_sends=False)
    assert link.pings_sent() == [1, 2, 3]  # a ping is something heard, as a patch is


async def test_moves_keep_a_client_that_never_pongs_alive(monkeypatch: pytest.MonkeyPatch) -> None:
    link = Link(monkeypatch)
    for n in range(20):  # pinged on quiet periods, it never answers a ping, but it moves
        await link.period(client_moves=n % 2 == 0, server_sends=False)
    assert not link.frames.transport.aborted  # type: ignore[attr-defined]
    assert link.pings_sent()  # the quiet periods were pinged
