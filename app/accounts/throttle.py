"""Token buckets that refuse logins and registrations coming too fast (``auth/rate_limited``).

Each bucket holds ``burst`` tokens and refills ``per_minute`` tokens a minute; an attempt takes
one token before any password is hashed, so a storm is refused cheaply. Buckets live in this
process's memory (a cluster limits each process apart); full buckets are forgotten when the
table grows, so random names cannot grow it without bound. ``address_key`` puts an IPv6
client's whole /64 (what one host usually holds) in one bucket.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.errors import AppError

MAX_BUCKETS = 50_000


def address_key(host: str) -> str:
    """The bucket of a client address: itself for IPv4, its /64 network for IPv6."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class RateLimited(AppError):
    """429 with ``Retry-After``: how many seconds until the next attempt is let through."""

    status = 429

    def __init__(self, retry_after_s: float, message: str) -> None:
        super().__init__("auth/rate_limited", message)
        self.retry_after_s = max(1, math.ceil(retry_after_s))
        self.headers = {"Retry-After": str(self.retry_after_s)}


@dataclass
class Bucket:
    tokens: float
    stamp: float


class TokenBuckets:
    """One bucket per key (a name key, a client address)."""

    def __init__(
        self, burst: int, per_minute: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = max(1, burst)
        self.per_second = max(per_minute, 1e-6) / 60.0
        self.clock = clock
        self.buckets: dict[str, Bucket] = {}

    def _refilled(self, key: str, now: float) -> Bucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= MAX_BUCKETS:
                self.make_room(now)
            bucket = self.buckets[key] = Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.per_second)
        bucket.stamp = now
        return bucket

    def wait_s(self, key: str) -> float:
        """Seconds until ``key`` may try again (0 when it may now)."""
        bucket = self._refilled(key, self.clock())
        return 0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) / self.per_second

    def take(self, key: str) -> None:
        self._refilled(key, self.clock()).tokens -= 1

    def forget_full(self, now: float) -> None:
        """Drop every bucket that has refilled: it behaves exactly like a missing one."""
        refill = self.burst / self.per_second
        self.buckets = {k: b for k, b in self.buckets.items() if now - b.stamp < refill}

    def make_room(self, now: float) -> None:
        """Forget the full buckets and, if the table is still crowded (a flood of new keys),
        the least recently touched tenth too: a forgotten key starts afresh, which is lenient,
        but the table stays bounded and this scan runs at most once per tenth of it."""
        self.forget_full(now)
        excess = len(self.buckets) - MAX_BUCKETS * 9 // 10
        if excess > 0:
            oldest = sorted(self.buckets, key=lambda k: self.buckets[k].stamp)[:excess]
            for key in oldest:
                del self.buckets[key]


class Throttle:
    """Several bucket tables checked together: an attempt goes through only if every one of
    its keys has a token, and then takes one from each (a refused attempt costs nothing)."""

    def __init__(self, message: str, *tables: TokenBuckets) -> None:
        self.message = message
        self.tables = tables

    def attempt(self, *keys: str) -> None:
        """Take a token for each key (one per table, in order); raises ``RateLimited``."""
        pairs = list(zip(self.tables, keys, strict=True))
        wait = max(table.wait_s(key) for table, key in pairs)
        if wait > 0:
            raise RateLimited(wait, self.message)
        for table, key in pairs:
            table.take(key)
