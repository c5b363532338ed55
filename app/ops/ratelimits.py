"""Rate limits per client address and per account, shared by the cluster through Redis.

Each limit is a ``limits`` rate string such as ``"60/minute;1000/day"`` (every part must hold)
counted over a moving window by the ``limits`` library (at most 60 in any 60 seconds; a refusal's
``Retry-After`` is when the oldest attempt leaves the window): in this process's memory without
Redis (``app.ops.windows``), in Redis (one count for every process) with
``RAMPART_REDIS_URL``. A refused attempt costs nothing; an allowed one is counted against
every part. Token-bucket settings (a burst, then so many a minute) become ``bucket_rate``:
the burst in the time the bucket takes to refill. A Redis that does not answer lets the
attempt through (logged): a limit never turns an outage into refusals.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from redis.asyncio import ConnectionPool

from app.accounts.throttle import address_key
from app.config import Settings
from app.errors import AppError
from app.ops.sockets import OpenSockets
from app.ops.windows import LocalWindows

log = logging.getLogger(__name__)

KEY_PREFIX = "rampart:limits"
# At most one warning about an unreachable store per this many seconds.
WARN_EVERY_S = 10.0


class TooMany(AppError):
    """429 with ``Retry-After`` (whole seconds until the next attempt may pass)."""

    status = 429

    def __init__(self, code: str, message: str, retry_after_s: float) -> None:
        super().__init__(code, message)
        self.retry_after_s = max(1, math.ceil(retry_after_s))
        self.headers = {"Retry-After": str(self.retry_after_s)}


@dataclass(frozen=True)
class Rule:
    """One limit: its name (the first part of every key it counts), its rate string, and the
    code and message of its refusal."""

    name: str
    rate: str
    code: str
    message: str

    @property
    def items(self) -> list[RateLimitItem]:
        return parse_many(self.rate) if self.rate.strip() else []


def bucket_rate(burst: int, per_minute: float) -> str:
    """A token bucket (``burst`` at once, refilled ``per_minute``) as a rate: ``burst`` in the
    time the bucket takes to refill."""
    burst = max(1, burst)
    return f"{burst}/{max(1, round(burst * 60 / max(per_minute, 1e-6)))} seconds"


class RateLimits:
    """``await hit(rule, key)`` counts one attempt of ``key`` (an address, an account id)
    against ``rule`` or raises ``TooMany``."""

    def __init__(self, redis_url: str = "") -> None:
        # Redis (every process counts together) when configured, else this process's memory;
        # a store that hangs is given up on after a second.
        self.pool: ConnectionPool | None = None
        self.storage: Storage
        if redis_url:
            self.pool = ConnectionPool.from_url(
                redis_url, socket_timeout=1.0, socket_connect_timeout=1.0
            )
            self.storage = RedisStorage(
                "async+" + redis_url,
                wrap_exceptions=True,
                implementation="redispy",
                key_prefix=KEY_PREFIX,
                connection_pool=self.pool,  # type: ignore[arg-type]
            )
        else:
            self.storage = LocalWindows()  # counted inline: no task, no thread
        self.limiter = MovingWindowRateLimiter(self.storage)
        self._parsed: dict[str, list[RateLimitItem]] = {}
        self._warned_at = -WARN_EVERY_S

    def _items(self, rule: Rule) -> list[RateLimitItem]:
        items = self._parsed.get(rule.rate)
        if items is None:
            items = self._parsed[rule.rate] = rule.items
        return items

    async def hit(self, rule: Rule, key: str) -> None:
        await self.hit_all((rule, key))

    async def hit_all(self, *attempts: tuple[Rule, str]) -> None:
        """One attempt counted against every ``(rule, key)`` if each has room, else none:
        raises ``TooMany`` for the first that has not."""
        checks = [(rule, item, key) for rule, key in attempts for item in self._items(rule)]
        try:
            for rule, item, key in checks:
                if not await self.limiter.test(item, rule.name, key):
                    raise await self._refusal(rule, item, key)
            for rule, item, key in checks:
                if not await self.limiter.hit(item, rule.name, key):
                    raise await self._refusal(rule, item, key)
        except StorageError as error:
            self._warn(error)

    async def _refusal(self, rule: Rule, item: RateLimitItem, key: str) -> TooMany:
        stats = await self.limiter.get_window_stats(item, rule.name, key)
        return TooMany(rule.code, rule.message, stats.reset_time - time.time())

    def _warn(self, error: StorageError) -> None:
        now = time.monotonic()
        if now - self._warned_at >= WARN_EVERY_S:
            self._warned_at = now
            log.warning("rate limits not counted (their store did not answer): %r", error)

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.disconnect()


class EdgeLimits:
    """Every limit on client addresses and accounts of this process (``Services.limits``),
    built from the settings; ``sockets`` counts open match and lobby sockets per address."""

    def __init__(self, settings: Settings) -> None:
        self.rates = RateLimits(settings.redis_url)
        self.sockets = OpenSockets(
            settings.sockets_per_address, settings.redis_url, max(3.0, settings.node_ttl_s)
        )
        self.open_tables = settings.open_tables_per_account
        self.accounts = Rule(
            "accounts",
            settings.account_address_limit,
            "rate/limited",
            "too many new accounts from this address; wait a little before trying again",
        )
        self.tables_by_account = Rule(
            "tables-account",
            settings.table_account_limit,
            "rate/limited",
            "too many new tables from this account; wait a little before opening another",
        )
        self.tables_by_address = Rule(
            "tables-address",
            settings.table_address_limit,
            "rate/limited",
            "too many new tables from this address; wait a little before opening another",
        )
        self.logins_by_name = Rule(
            "logins-name",
            bucket_rate(settings.login_name_burst, settings.login_name_per_min),
            "auth/rate_limited",
            "too many login attempts; wait a little before trying again",
        )
        self.logins_by_address = Rule(
            "logins-address",
            bucket_rate(settings.login_address_burst, settings.login_address_per_min),
            "auth/rate_limited",
            "too many login attempts; wait a little before trying again",
        )
        self.registrations = Rule(
            "registrations",
            bucket_rate(settings.register_address_burst, settings.register_address_per_min),
            "auth/rate_limited",
            "too many new accounts from this address; wait a little before trying again",
        )
        self.reports = Rule(
            "reports",
            settings.report_account_limit,
            "report/rate_limited",
            "too many reports; try again later",
        )
        self.reads = Rule(
            "reads",
            settings.read_address_limit,
            "rate/limited",
            "too many requests from this address; wait a little, or log in",
        )

    def start(self) -> None:
        self.sockets.start()

    async def close(self) -> None:
        await self.rates.close()
        await self.sockets.close()


RELAY_HEADER = "x-rampart-relay"


def relay_token(secret: str) -> str:
    """What one process of the cluster shows another when it relays a client's match socket
    (``RELAY_HEADER``): the client was counted where it connected, not again at the owner."""
    return hmac.new(secret.encode(), b"rampart relay", hashlib.sha256).hexdigest()


def relayed(headers: Mapping[str, str], secret: str) -> bool:
    """The socket is another process's relay of a client (it carries ``relay_token``); a
    header that is not ASCII is none (and never reaches ``compare_digest``, which refuses
    non-ASCII text)."""
    shown = headers.get(RELAY_HEADER)
    return shown is not None and shown.isascii() and hmac.compare_digest(shown, relay_token(secret))


def client_address(client: tuple[str, int] | None) -> str:
    """The key of a request's or socket's client (``scope["client"]``): its address, an IPv6
    one as its /64. Behind a proxy uvicorn has already put the ``X-Forwarded-For`` address
    there, when (and only when) the proxy is one of ``FORWARDED_ALLOW_IPS``."""
    return address_key(client[0] if client else "unknown")
