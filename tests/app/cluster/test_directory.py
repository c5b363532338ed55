"""Ownership claims, locks and the bus against a real Redis, two "processes" in one test."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis.asyncio import Redis

from app.cluster.bus import Bus
from app.cluster.directory import ClusterUnavailable, Directory
from app.cluster.locks import Locks
from tests.app.cluster.conftest import needs_redis
from tests.app.support import free_port

pytestmark = needs_redis


async def test_a_live_owner_keeps_its_match_and_a_dead_ones_match_is_taken(redis: Redis) -> None:
    one = Directory(redis, "one", "http://127.0.0.1:8001", ttl_s=5)
    two = Directory(redis, "two", "http://127.0.0.1:8002", ttl_s=5)
    await one.start()
    await two.start()
    assert await one.claim(7) == "one"
    assert await two.claim(7) == "one"  # alive: stays with one
    assert await two.owner(7) == "one"
    assert await two.owner_elsewhere(7) == "http://127.0.0.1:8001"
    assert await one.owner_elsewhere(7) is None  # its own
    old = int(time.time() * 1000) - 60_000
    # Two adopts its own (none), dead processes' and long-unowned matches; not one's 7.
    assert await two.adoptable([(7, old), (8, old)]) == [8]
    await one.stop()  # leaves the cluster
    assert await two.owner(7) is None
    assert await two.adoptable([(7, old)]) == [7]
    assert await two.claim(7) == "two"
    assert await two.adoptable([(7, old)]) == [7]  # its own now
    await two.stop()


async def test_a_new_unowned_match_is_left_to_the_process_starting_it(redis: Redis) -> None:
    node = Directory(redis, "node", "http://127.0.0.1:8001", ttl_s=5)
    now = int(time.time() * 1000)
    assert await node.adoptable([(1, now - 1000), (2, now - 6000)]) == [2]


async def test_a_node_that_stops_beating_is_dead_after_its_ttl(redis: Redis) -> None:
    quiet = Directory(redis, "quiet", "http://127.0.0.1:8001", ttl_s=0.3)
    await quiet._beat()  # one heartbeat and no more, like a process that froze or died
    other = Directory(redis, "other", "http://127.0.0.1:8002", ttl_s=5)
    assert await quiet.claim(3) == "quiet"
    assert await other.claim(3) == "quiet"
    await asyncio.sleep(0.5)
    assert await other.address("quiet") is None
    assert await other.claim(3) == "other"


async def test_a_beating_node_outlives_its_ttl(redis: Redis) -> None:
    alive = Directory(redis, "alive", "http://127.0.0.1:8001", ttl_s=0.3)
    await alive.start()
    await alive.claim(4)
    await asyncio.sleep(0.8)
    other = Directory(redis, "other", "http://127.0.0.1:8002", ttl_s=5)
    assert await other.claim(4) == "alive"
    await alive.stop()


async def test_one_lock_holder_at_a_time_across_processes(redis: Redis) -> None:
    first, second = Locks(redis), Locks(redis)
    inside: list[str] = []
    overlaps: list[tuple[str, ...]] = []

    async def hold(locks: Locks, name: str, who: str) -> None:
        async with locks.hold(name):
            inside.append(who)
            if len(inside) > 1:
                overlaps.append(tuple(inside))
            await asyncio.sleep(0.02)
            inside.remove(who)

    work = [
        hold(locks, "lobby:1", f"{n}-{i}")
        for i in range(5)
        for n, locks in (("a", first), ("b", second))
    ]
    await asyncio.gather(*work)
    assert overlaps == []
    # Different names do not wait for each other.
    async with first.hold("lobby:1"):
        await asyncio.wait_for(hold(second, "lobby:2", "c"), 1)


async def test_the_bus_reaches_the_others_and_not_the_sender(redis: Redis) -> None:
    buses = [Bus(redis, name) for name in ("a", "b", "c")]
    heard: dict[str, list[tuple[str, object]]] = {bus.node_id: [] for bus in buses}
    for bus in buses:
        for kind in ("lobby", "resign"):
            bus.on(kind, lambda body, n=bus.node_id, k=kind: heard[n].append((k, body["x"])))
        await bus.start()
    buses[0].send("lobby", {"x": 1})
    buses[0].send("resign", {"x": 2}, to="c")
    buses[1].send("unknown-kind", {"x": 3})  # ignored by everyone
    deadline = asyncio.get_running_loop().time() + 5
    while len(heard["c"]) < 2 and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)
    assert heard == {"a": [], "b": [("lobby", 1)], "c": [("lobby", 1), ("resign", 2)]}
    for bus in buses:
        await bus.stop()


async def test_without_redis_ownership_and_locks_fail_with_a_stable_code() -> None:
    gone = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    node = Directory(gone, "node", "http://127.0.0.1:8001", ttl_s=5)
    with pytest.raises(ClusterUnavailable) as refusal:
        await node.claim(1)
    assert (refusal.value.code, refusal.value.status) == ("cluster/unavailable", 503)
    with pytest.raises(ClusterUnavailable):
        await node.owner_elsewhere(1)
    with pytest.raises(ClusterUnavailable):
        async with Locks(gone).hold("lobby:1"):
            pass
    await gone.aclose()
