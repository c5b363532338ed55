"""The in-memory rate-limit store (``app.ops.windows``): the limits library's moving-window
answers, and counting an attempt costs no task, thread or sweep of every key."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import patch

import pytest
from limits import parse
from limits.aio.strategies import MovingWindowRateLimiter

from app.ops.ratelimits import RateLimits, Rule, TooMany
from app.ops.windows import SWEEP_EVERY_S, LocalWindows

RULE = Rule("test", "3/minute", "rate/limited", "slow down")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_counting_attempts_starts_no_task_and_hands_nothing_to_a_thread() -> None:
    loop = asyncio.get_running_loop()
    started: list[object] = []
    handed: list[object] = []
    run_in_executor = loop.run_in_executor

    def counting_factory(loop: asyncio.AbstractEventLoop, coro: Any) -> asyncio.Task[Any]:
        started.append(coro)
        return asyncio.Task(coro, loop=loop)

    def counting_executor(executor: Any, func: Any, *args: Any) -> asyncio.Future[Any]:
        handed.append(func)
        return run_in_executor(executor, func, *args)

    limits = RateLimits()
    loop.set_task_factory(counting_factory)
    handing = patch.object(loop, "run_in_executor", counting_executor)
    handing.start()
    try:
        for key in range(100):
            await limits.hit(RULE, f"k{key}")
            await asyncio.sleep(0)  # other requests run between attempts
        await asyncio.sleep(0.05)
        assert started == []
        assert handed == []
    finally:
        loop.set_task_factory(None)
        handing.stop()
        await limits.close()


async def test_the_window_moves_and_resets_when_its_oldest_attempt_leaves() -> None:
    clock = Clock()
    limiter = MovingWindowRateLimiter(LocalWindows(clock))
    item = parse("3/minute")
    start = clock.now
    for later in (10, 10, 35):
        assert await limiter.hit(item, "a")
        clock.now += later  # attempts at start, +10, +20; now start+55
    assert not await limiter.test(item, "a")
    assert not await limiter.hit(item, "a")
    stats = await limiter.get_window_stats(item, "a")
    assert (stats.reset_time, stats.remaining) == (start + 60, 0)  # Retry-After: its leaving
    assert await limiter.hit(item, "b")  # another key has its own window
    clock.now += 5.5
    assert await limiter.hit(item, "a")  # start+60.5: the first attempt has left
    stats = await limiter.get_window_stats(item, "a")
    assert (stats.reset_time, stats.remaining) == (start + 70, 0)


async def test_a_refused_attempt_is_the_limits_refusal() -> None:
    limits = RateLimits()
    try:
        for _ in range(3):
            await limits.hit(RULE, "a")
        with pytest.raises(TooMany) as refused:
            await limits.hit(RULE, "a")
        assert 59 <= refused.value.retry_after_s <= 60
    finally:
        await limits.close()


async def test_a_refused_batch_counts_nothing_and_a_larger_one_than_the_limit_is_refused() -> None:
    store = LocalWindows(Clock())
    item = parse("3/minute")
    assert await store.acquire_entry("k", 3, 60, amount=4) is False
    assert await store.acquire_entry("k", 3, 60, amount=2) is True
    assert await store.acquire_entry("k", 3, 60, amount=2) is False
    assert await store.get_moving_window("k", 3, 60) == (store.clock(), 2)
    assert item.amount == 3


async def test_keys_with_nothing_left_in_their_window_are_dropped() -> None:
    clock = Clock()
    store = LocalWindows(clock)
    for key in range(100):
        assert await store.acquire_entry(f"k{key}", 5, 60)
    clock.now += 30
    assert await store.acquire_entry("late", 5, 600)
    clock.now += SWEEP_EVERY_S  # every k* has left its minute; "late" has not
    assert await store.acquire_entry("now", 5, 60)
    assert set(store.windows) == {"late", "now"}


async def test_fixed_window_counters_reset_after_their_expiry() -> None:
    clock = Clock()
    store = LocalWindows(clock)
    assert await store.incr("c", 10) == 1
    assert await store.incr("c", 10, amount=2) == 3
    assert await store.get("c") == 3
    assert await store.get_expiry("c") == clock.now + 10
    clock.now += 10
    assert await store.get("c") == 0
    assert await store.incr("c", 10) == 1
    await store.clear("c")
    assert await store.get("c") == 0
    assert await store.check()


async def test_a_window_emptied_by_a_read_is_dropped_by_the_sweep() -> None:
    clock = Clock()
    store = LocalWindows(clock)
    assert await store.acquire_entry("k", 5, 60)
    clock.now += 61
    assert await store.get_moving_window("k", 5, 60) == (clock.now, 0)  # read: trimmed empty
    clock.now += SWEEP_EVERY_S
    assert await store.acquire_entry("other", 5, 60)
    assert set(store.windows) == {"other"}
