"""A process that lost touch with Redis past its TTL gives up the matches others took."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from redis.asyncio import Redis

from app.cluster.directory import NODE_KEY, Directory
from app.sessions.hub import OwnedElsewhere
from tests.app.cluster.conftest import needs_redis
from tests.app.support import match_in_process

pytestmark = needs_redis


class Watcher:
    """A connection as the session sees it (spectator), recording how it was closed."""

    account_id = None
    seat = None

    def __init__(self) -> None:
        self.closed: int | None = None

    def send_text(self, text: str) -> None:
        pass

    def close(self, code: int = 1000) -> None:
        self.closed = code


async def test_a_heartbeat_after_expiry_reports_the_lapse(redis: Redis) -> None:
    node = Directory(redis, "node", "http://127.0.0.1:8001", ttl_s=0.3)
    lapses: list[str] = []

    async def lapsed() -> None:
        lapses.append("lapsed")

    node.on_lapse = lapsed
    await node.start()
    await asyncio.sleep(0.35)
    assert lapses == []  # beating every ttl/3
    await redis.delete(NODE_KEY + "node")  # as if the key expired while Redis was away
    await asyncio.sleep(0.2)
    assert lapses == ["lapsed"]
    await node.stop()


async def test_sessions_claimed_elsewhere_are_dropped_and_their_sockets_closed(
    redis: Redis, tmp_path: Path
) -> None:
    async with match_in_process(tmp_path, "ambush", {}, seed=5) as setup:
        hub, match_id = setup["hub"], setup["match_id"]
        here = Directory(redis, "here", "http://127.0.0.1:8001", ttl_s=5)
        there = Directory(redis, "there", "http://127.0.0.1:8002", ttl_s=5)
        await here.start()
        await there.start()
        hub.placement = here
        session = await hub.get(match_id)
        watcher = Watcher()
        session.peers.add(watcher)  # type: ignore[arg-type]
        await hub.keep_owned()
        assert hub.sessions[match_id] is session and watcher.closed is None  # still ours
        await redis.delete(NODE_KEY + "here")  # "here" looked dead to "there" ...
        assert await there.claim(match_id) == "there"  # ... which took the match over
        await hub.keep_owned()
        assert match_id not in hub.sessions and match_id not in hub.tasks
        assert watcher.closed == 1012
        with pytest.raises(OwnedElsewhere):  # and it is not loaded here again
            await hub.get(match_id)
        await here.stop()
        await there.stop()
