"""The queue stores (in-process and Redis) keep one ticket per owner, hand claimed tickets
back when seating fails or its process died, and remember who met."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from app.matchmaking.pairing import Ticket, meeting_key
from app.matchmaking.store import SEATING_S, MemoryQueue, QueueStore, RedisQueue
from bench.loadgen.servers import redis_running


def ticket(ticket_id: str, account: int, at: float = 100.0) -> Ticket:
    return Ticket(ticket_id, account, f"P{account}", "ambush", 2, True, enqueued_at=at)


@pytest.fixture(params=["memory", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[QueueStore]:
    if request.param == "memory":
        yield MemoryQueue()
        return
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    with redis_running(tmp_path) as url:
        client = Redis.from_url(url)
        yield RedisQueue(client)
        await client.aclose()


async def ids(store: QueueStore, now: float) -> list[str]:
    return sorted(t.id for t in await store.waiting(now))


async def test_a_second_ticket_replaces_the_first(store: QueueStore) -> None:
    await store.put(ticket("a", 1))
    replaced = await store.put(ticket("b", 1, at=101))
    assert replaced is not None and replaced.ticket.id == "a"
    assert await ids(store, 102) == ["b"]
    first = await store.get("a")
    assert first is not None and first.status == "cancelled"


async def test_claimed_tickets_are_settled_or_released_or_wait_again_when_left(
    store: QueueStore,
) -> None:
    for n, name in enumerate("abcdef", start=1):
        await store.put(ticket(name, n))
    await store.claim(["a", "b"], 110)
    await store.claim(["c", "d"], 110)
    await store.claim(["e", "f"], 110)
    assert await ids(store, 111) == []
    cancelled = await store.cancel("a")  # too late: its match is being set up
    assert cancelled is not None and cancelled.status == "seating"
    await store.settle(["a", "b"], 7, 112)
    await store.release(["c", "d"])
    assert await ids(store, 113) == ["c", "d"]
    settled = await store.get("b")
    assert settled is not None and settled.status == "matched" and settled.match_id == 7
    assert meeting_key(1, 2) in await store.recent(113)
    # e and f were claimed by a process that died before seating them: they wait again.
    assert await ids(store, 110 + SEATING_S + 1) == ["c", "d", "e", "f"]
    assert await store.estimate(settled.ticket.pool) == pytest.approx(12.0)
