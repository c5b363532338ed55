"""Named locks: an asyncio lock within the process, and a Redis lock across processes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from redis.asyncio import Redis
from redis.exceptions import LockError, RedisError

from app.cluster.directory import redis_answers
from app.errors import AppError

LOCK_KEY = "rampart:lock:"


class Locks:
    """``async with locks.hold("lobby:7")``: one holder at a time in the whole cluster.

    Alone (no Redis) it is a plain asyncio lock per name. With Redis the process first
    queues on its own asyncio lock, so only one task per process polls Redis for a name.
    A holder that dies frees the Redis lock after ``timeout_s``.
    """

    def __init__(self, redis: Redis | None = None, timeout_s: float = 30.0) -> None:
        self.redis = redis
        self.timeout_s = timeout_s
        self._local: dict[str, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def hold(self, name: str) -> AsyncIterator[None]:
        async with self._local.setdefault(name, asyncio.Lock()):
            if self.redis is None:
                yield
                return
            lock = self.redis.lock(
                LOCK_KEY + name,
                timeout=self.timeout_s,
                sleep=0.005,
                blocking_timeout=self.timeout_s,
            )
            with redis_answers():
                acquired = await lock.acquire()
            if not acquired:
                raise AppError("server/busy", f"{name} is busy; try again", status=503)
            try:
                yield
            finally:
                with contextlib.suppress(LockError, RedisError, OSError):
                    await lock.release()
