"""Which process owns which match: node heartbeats and atomic claims in Redis."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.errors import AppError

log = logging.getLogger(__name__)

NODE_KEY = "rampart:node:"
OWNER_KEY = "rampart:match-owner:"
EPOCH_KEY = "rampart:keys-since"

# The owner stays while its node is alive; a dead node's match goes to whoever claims it.
CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. owner) == 1 then
  return owner
end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
"""


# Delete the owner key only while it still names this node (another may have claimed since).
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class ClusterUnavailable(AppError):
    """Redis did not answer: who owns a match cannot be known right now (retry soon)."""

    status = 503

    def __init__(self, error: Exception) -> None:
        super().__init__("cluster/unavailable", f"the cluster's Redis did not answer: {error!r}")


@contextlib.contextmanager
def redis_answers() -> Iterator[None]:
    """Turn a Redis failure into ``ClusterUnavailable`` (a 503 with a stable code)."""
    try:
        yield
    except (RedisError, OSError) as error:
        raise ClusterUnavailable(error) from error


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Directory:
    """This process's entry in the cluster: its address (renewed on a heartbeat) and its claims.

    A node's key expires ``ttl_s`` after its last heartbeat; from then on any process may
    claim its matches and rebuild them from the action log.
    """

    def __init__(self, redis: Redis, node_id: str, node_url: str, ttl_s: float) -> None:
        self.redis = redis
        self.node_id = node_id
        self.node_url = node_url
        self.ttl_ms = max(1, int(ttl_s * 1000))
        self._claim = redis.register_script(CLAIM)
        self._release = redis.register_script(RELEASE)
        self._heart: asyncio.Task[None] | None = None
        self._seen_keys = False  # met this Redis's key marker (``_keys_since``) before
        # Called when a heartbeat finds this node's key had expired (Redis unreachable or
        # this process stalled past the TTL): others may have claimed its matches meanwhile.
        self.on_lapse: Callable[[], Awaitable[None]] | None = None

    async def start(self) -> None:
        await self._beat()
        self._heart = asyncio.create_task(self._beating(), name="cluster-heartbeat")

    async def stop(self) -> None:
        """Leave the cluster: other processes may take this one's matches at once."""
        if self._heart is not None:
            self._heart.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heart
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(NODE_KEY + self.node_id)

    async def _beat(self) -> bool:
        """Renew this node's key; False when it had expired before this beat."""
        before = await self.redis.set(
            NODE_KEY + self.node_id, self.node_url, px=self.ttl_ms, get=True
        )
        await self._keys_since(time.time() * 1000)  # notice a Redis that lost its keys
        return before is not None

    async def _beating(self) -> None:
        while True:
            await asyncio.sleep(self.ttl_ms / 3000)
            try:
                alive = await self._beat()
            except (RedisError, OSError) as error:
                log.warning("cluster heartbeat failed: %r", error)
                continue
            if not alive and self.on_lapse is not None:
                log.warning("this node's heartbeat lapsed; checking which matches are still ours")
                try:
                    await self.on_lapse()
                except Exception:
                    log.exception("checking ownership after a lapse failed")

    async def claim(self, match_id: int) -> str:
        """Own the match unless a live process already does; returns the owner's node id."""
        with redis_answers():
            keys, args = [OWNER_KEY + str(match_id)], [self.node_id, NODE_KEY]
            return _text(await self._claim(keys=keys, args=args))

    async def release(self, match_ids: list[int]) -> None:
        """Give up these matches (this process is stopping): each owner key that still names
        this node is deleted, so the next process asked for the match claims it at once."""
        for match_id in match_ids:
            with contextlib.suppress(RedisError, OSError):
                await self._release(keys=[OWNER_KEY + str(match_id)], args=[self.node_id])

    async def owner(self, match_id: int) -> str | None:
        """The live process that owns the match, or None (unowned, or its owner is dead)."""
        with redis_answers():
            node = await self.redis.get(OWNER_KEY + str(match_id))
            if node is None:
                return None
            node_id = _text(node)
            if node_id == self.node_id:
                return node_id
            return node_id if await self.redis.exists(NODE_KEY + node_id) else None

    async def adoptable(self, matches: list[tuple[int, int]]) -> list[int]:
        """Of ``(match_id, started_wall_ms)``, the matches this process should serve: its
        own, those of dead processes, and unowned ones older than the TTL. A younger unowned
        match is being started by the process that created it, which claims it at once."""
        if not matches:
            return []
        keys = [OWNER_KEY + str(match_id) for match_id, _ in matches]
        owners = [None if node is None else _text(node) for node in await self.redis.mget(keys)]
        others = sorted({node for node in owners if node is not None and node != self.node_id})
        alive = {self.node_id}
        if others:
            urls = await self.redis.mget([NODE_KEY + node_id for node_id in others])
            alive |= {node_id for node_id, url in zip(others, urls, strict=True) if url}
        now_ms = time.time() * 1000
        settled_before = now_ms - self.ttl_ms
        # An unowned match may also be one whose owner has not yet re-claimed it after Redis
        # lost every key (a restart without persistence): owners re-claim on their next
        # heartbeat, so unowned matches wait until Redis has kept its keys for two TTLs.
        keys_kept = now_ms - await self._keys_since(now_ms) > 2 * self.ttl_ms
        return [
            match_id
            for (match_id, started), owner in zip(matches, owners, strict=True)
            if (owner is None and started < settled_before and keys_kept)
            or (owner is not None and (owner == self.node_id or owner not in alive))
        ]

    async def _keys_since(self, now_ms: float) -> float:
        """Since when (wall ms) this Redis has held the cluster's keys: a marker without
        expiry, 0 when the cluster first meets this Redis, ``now_ms`` when a process that had
        seen it finds it gone (Redis restarted empty, and every claim with it)."""
        since = await self.redis.get(EPOCH_KEY)
        if since is None:
            first_meeting = not self._seen_keys
            await self.redis.set(EPOCH_KEY, "0" if first_meeting else str(int(now_ms)), nx=True)
            since = await self.redis.get(EPOCH_KEY)
        self._seen_keys = True
        return float(_text(since)) if since is not None else now_ms

    async def address(self, node_id: str) -> str | None:
        """A live node's base URL (``http://host:port``), or None once it is dead."""
        url = await self.redis.get(NODE_KEY + node_id)
        return _text(url) if url is not None else None

    async def owner_elsewhere(self, match_id: int) -> str | None:
        """The base URL of another live process owning the match, or None."""
        with redis_answers():
            node = await self.redis.get(OWNER_KEY + str(match_id))
            if node is None or _text(node) == self.node_id:
                return None
            return await self.address(_text(node))  # None once that process is dead
