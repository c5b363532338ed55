"""The limits' stores: without Redis each process counts alone; a Redis that does not answer
lets attempts and sockets through (logged) instead of refusing everyone."""

from __future__ import annotations

import logging

import pytest

from app.ops.ratelimits import RateLimits, Rule, TooMany
from app.ops.sockets import OpenSockets
from tests.app.support import free_port

RULE = Rule("test", "2/minute", "rate/limited", "slow down")


async def test_in_memory_the_limit_holds_per_key() -> None:
    limits = RateLimits()
    try:
        await limits.hit(RULE, "a")
        await limits.hit(RULE, "a")
        with pytest.raises(TooMany):
            await limits.hit(RULE, "a")
        await limits.hit(RULE, "b")
    finally:
        await limits.close()


async def test_in_memory_sockets_are_counted_and_given_back() -> None:
    sockets = OpenSockets(limit=2)
    assert [await sockets.acquire("a") for _ in range(3)] == [True, True, False]
    await sockets.release("a")
    assert await sockets.acquire("a")
    assert await sockets.acquire("b")
    await sockets.close()


async def test_a_redis_that_does_not_answer_lets_everything_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    limits = RateLimits(nowhere)
    sockets = OpenSockets(limit=1, redis_url=nowhere)
    with caplog.at_level(logging.WARNING):
        try:
            for _ in range(3):
                await limits.hit(RULE, "a")
                assert await sockets.acquire("a")
            await sockets.release("a")
        finally:
            await limits.close()
            await sockets.close()
    warned = [r.getMessage() for r in caplog.records]
    assert any("rate limits not counted" in m for m in warned), warned
    assert any("sockets per address not counted" in m for m in warned), warned
