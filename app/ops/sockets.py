"""How many websockets each client address holds open, in this process or the whole cluster.

Without Redis a dict counts this process's sockets. With Redis each process keeps its own
counts in a hash (``rampart:sockets:<boot>``: address -> sockets) that lives while the process
renews it (every third of ``ttl_s``), and registers that hash in a set; a socket is let in when
the live hashes together hold fewer than the limit for its address (one Lua script, so two
processes cannot both take the last place). A process that dies takes its counts with it once
its hash expires. A Redis that does not answer lets the socket in (logged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

BOOTS_KEY = "rampart:sockets"
COUNTS_KEY = "rampart:sockets:"
WARN_EVERY_S = 10.0

# KEYS[1] the set of live hashes, KEYS[2] this process's hash; ARGV: the hashes' key prefix,
# the address, the limit, the hash's time to live (ms), this process's boot id.
ACQUIRE = """
local total = 0
for _, boot in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. boot
  if redis.call('EXISTS', key) == 1 then
    total = total + tonumber(redis.call('HGET', key, ARGV[2]) or '0')
  elseif boot ~= ARGV[5] then
    redis.call('SREM', KEYS[1], boot)
  end
end
if total >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('SADD', KEYS[1], ARGV[5])
return 1
"""

RELEASE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""


class OpenSockets:
    """``await acquire(address)`` is False when ``address`` already holds ``limit`` sockets
    (0: no limit); every socket let in is given back with ``await release(address)``."""

    def __init__(self, limit: int, redis_url: str = "", ttl_s: float = 30.0) -> None:
        self.limit = limit
        self.local: dict[str, int] = {}
        self.boot = uuid.uuid4().hex
        self.ttl_ms = max(1000, int(ttl_s * 1000))
        self.redis: Redis | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._warned_at = -WARN_EVERY_S
        if redis_url and limit > 0:
            self.redis = Redis.from_url(redis_url, socket_timeout=1.0, socket_connect_timeout=1.0)
            self._acquire = self.redis.register_script(ACQUIRE)
            self._release = self.redis.register_script(RELEASE)

    @property
    def key(self) -> str:
        return COUNTS_KEY + self.boot

    def start(self) -> None:
        if self.redis is not None:
            self._renewer = asyncio.create_task(self._renewing())

    async def acquire(self, address: str) -> bool:
        if self.limit <= 0:
            return True
        if self.redis is not None:
            try:
                keys = [BOOTS_KEY, self.key]
                args: list[str | int] = [COUNTS_KEY, address, self.limit, self.ttl_ms, self.boot]
                if not await self._acquire(keys=keys, args=args):
                    return False
            except (RedisError, OSError) as error:
                self._warn(error)
        elif self.local.get(address, 0) >= self.limit:
            return False
        self.local[address] = self.local.get(address, 0) + 1
        return True

    async def release(self, address: str) -> None:
        if self.limit <= 0:
            return
        left = self.local.get(address, 0) - 1
        if left > 0:
            self.local[address] = left
        else:
            self.local.pop(address, None)
        if self.redis is not None:
            try:
                await self._release(keys=[self.key], args=[address])
            except (RedisError, OSError) as error:
                self._warn(error)

    async def _renewing(self) -> None:
        """Keep this process's hash alive, and put its counts back if Redis lost them."""
        assert self.redis is not None
        while True:
            await asyncio.sleep(self.ttl_ms / 3000)
            try:
                if self.local and not await self.redis.pexpire(self.key, self.ttl_ms):
                    async with self.redis.pipeline(transaction=True) as pipe:
                        for address, count in self.local.items():
                            pipe.hset(self.key, address, count)
                        pipe.pexpire(self.key, self.ttl_ms)
                        pipe.sadd(BOOTS_KEY, self.boot)
                        await pipe.execute()
            except (RedisError, OSError) as error:
                self._warn(error)

    def _warn(self, error: Exception) -> None:
        now = time.monotonic()
        if now - self._warned_at >= WARN_EVERY_S:
            self._warned_at = now
            log.warning("open sockets per address not counted in Redis: %r", error)

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
        if self.redis is not None:
            with contextlib.suppress(RedisError, OSError):
                await self.redis.delete(self.key)
            await self.redis.aclose()
