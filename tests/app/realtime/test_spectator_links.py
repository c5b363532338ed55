"""Spectators of an Ambush! match are not pinged at race cadence: only players race (link
measurement is for those who may grab)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.config import Settings
from app.moderation.state import ModerationState
from app.races.links import RACE_PING_MS
from app.realtime.gateway import _greet
from app.realtime.messages import Hello
from app.realtime.peer import KEEPALIVE_S, Peer
from app.security import issue_token
from app.sessions import commands
from app.sessions.listener import Unmeasured
from tests.app.realtime.test_frames import FakeFrames, peer_on
from tests.app.support import match_in_process

SETTINGS = Settings(database_url="sqlite+aiosqlite:///unused.db")


class RacePeer(Unmeasured):
    """A connection as the session sees it, with the race-cadence switch of ``Peer``."""

    def __init__(self, seat: int | None, account_id: int | None) -> None:
        self.seat, self.account_id = seat, account_id
        self.sent: list[str] = []
        self.race_possible = False

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def race_pings(self, on: bool) -> None:
        self.race_possible = on

    def close(self, code: int = 1000) -> None:
        pass


@pytest.fixture
async def ambush(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    async with match_in_process(tmp_path, "ambush", {}, seed=3) as world:
        yield world


async def test_players_are_pinged_at_race_cadence_and_spectators_are_not(
    ambush: dict[str, Any],
) -> None:
    session = await ambush["hub"].get(ambush["match_id"])
    player = RacePeer(0, ambush["players"][0].id)
    spectator = RacePeer(None, None)
    for peer in (player, spectator):
        session.submit(commands.Attach(peer, None))
    for _ in range(20):
        await asyncio.sleep(0.01)
    assert '"type":"welcome"' in spectator.sent[0].replace(" ", "")
    assert player.race_possible is True
    assert spectator.race_possible is False


class SessionStub:
    """What ``_greet`` asks of a session: whose seats, and where the Attach goes."""

    def __init__(self, account_id: int) -> None:
        self.account_id = account_id
        self.attached: list[Any] = []

    def seats_of(self, account_id: int | None) -> list[int]:
        return [0] if account_id == self.account_id else []

    def submit(self, command: Any) -> None:
        self.attached.append(command)


def greeted(peer: Peer, hello: Hello, session: SessionStub) -> Peer:
    assert _greet(peer, session, hello, SETTINGS, ModerationState())  # type: ignore[arg-type]
    return peer


async def test_a_spectator_connection_measures_no_link_and_only_keeps_alive() -> None:
    session = SessionStub(account_id=7)
    token = issue_token(SETTINGS.secret, 7)
    player, _ = peer_on(FakeFrames())
    spectator, _ = peer_on(FakeFrames())
    greeted(player, Hello(type="hello", token=token), session)
    greeted(spectator, Hello(type="hello"), session)
    assert (player.seat, player.measure_links) == (0, True)
    assert (spectator.seat, spectator.measure_links) == (None, False)
    assert spectator.ping_period_ms() == KEEPALIVE_S * 1000
    player.race_possible = True
    assert player.ping_period_ms() == RACE_PING_MS
    assert len(session.attached) == 2
