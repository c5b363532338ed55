"""Messages between processes over Redis pub/sub: to every process, or to one of them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

EVERYONE = "rampart:all"
TO_NODE = "rampart:to:"

Handler = Callable[[dict[str, Any]], None]


class Bus:
    """``send(kind, body, to=None)`` publishes in call order; ``on(kind, handler)`` receives.

    A process never hears its own messages. Pub/sub delivers to the processes listening at
    that moment only: the bus carries notices (lobby snapshots, standings, commands to a
    match's owner), never state that is not also in the database.
    """

    def __init__(self, redis: Redis, node_id: str) -> None:
        self.redis = redis
        self.node_id = node_id
        self.handlers: dict[str, Handler] = {}
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    def on(self, kind: str, handler: Handler) -> None:
        self.handlers[kind] = handler

    def send(self, kind: str, body: dict[str, Any], to: str | None = None) -> None:
        """Queue a message for every other process, or for the process ``to``."""
        channel = EVERYONE if to is None else TO_NODE + to
        data = orjson.dumps({"kind": kind, "from": self.node_id, "body": body})
        self._outbox.put_nowait((channel, data))

    async def start(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(EVERYONE, TO_NODE + self.node_id)
        self._tasks = [
            asyncio.create_task(self._listen(pubsub), name="cluster-bus-in"),
            asyncio.create_task(self._publish(), name="cluster-bus-out"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _publish(self) -> None:
        while True:
            channel, data = await self._outbox.get()
            try:
                await self.redis.publish(channel, data)
            except (RedisError, OSError) as error:
                log.warning("cluster bus could not publish to %s: %r", channel, error)

    async def _listen(self, pubsub: Any) -> None:
        async with pubsub:
            while True:
                try:
                    message = await pubsub.get_message(timeout=None)
                except (RedisError, OSError) as error:
                    log.warning("cluster bus lost Redis: %r; listening again", error)
                    await asyncio.sleep(1)
                    continue
                if message is not None:
                    self._dispatch(message["data"])

    def _dispatch(self, data: bytes) -> None:
        try:
            message = orjson.loads(data)
            if message["from"] == self.node_id:
                return
            handler = self.handlers.get(message["kind"])
            if handler is not None:
                handler(message["body"])
        except Exception:
            log.exception("cluster bus message failed: %r", data[:200])
