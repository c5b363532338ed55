"""Where quick-play tickets wait: in the process (``MemoryQueue``) or, with Redis configured,
in one queue for the whole cluster (``RedisQueue``: a sorted set of waiting ticket ids by
arrival, one JSON record per ticket, a hash owner -> ticket, the recent meetings as a sorted
set by time). A ticket lives in the store, not in the process that took it, so a process that
dies takes no other process's tickets with it; only one process pairs at a time (the
service holds the cluster lock ``queue`` while it changes tickets). A round first *claims*
its groups' tickets (status ``seating``, out of the waiting set), seats them outside the lock,
then *settles* them; a claim not settled within ``SEATING_S`` (its process died) goes back to
waiting."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
from redis.asyncio import Redis

from app.cluster.directory import redis_answers
from app.matchmaking.pairing import RECENT_S, Ticket, meeting_key

SEATING_S = 30.0  # a claimed ticket not seated by then waits again
KEEP_SETTLED_S = 900.0  # how long a matched or cancelled ticket can still be read
ESTIMATE_WEIGHT = 0.2  # each new wait's share of a pool's running estimate


@dataclass
class Record:
    """A ticket and what became of it."""

    ticket: Ticket
    status: str = "waiting"  # waiting | seating | matched | cancelled
    match_id: int | None = None
    settled_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ticket": self.ticket.to_json(),
            "status": self.status,
            "match_id": self.match_id,
            "settled_at": self.settled_at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        return cls(
            Ticket.from_json(data["ticket"]),
            str(data["status"]),
            data.get("match_id"),
            data.get("settled_at"),
        )


class QueueStore(Protocol):
    async def put(self, ticket: Ticket) -> Record | None:
        """Add ``ticket``; the owner's earlier waiting ticket is cancelled and returned."""

    async def get(self, ticket_id: str) -> Record | None: ...

    async def cancel(self, ticket_id: str) -> Record | None:
        """Cancel a waiting ticket (a settled one is returned unchanged)."""

    async def waiting(self, now: float) -> list[Ticket]:
        """The waiting tickets (claims older than ``SEATING_S`` wait again first)."""

    async def claim(self, ticket_ids: list[str], now: float) -> None:
        """Take waiting tickets out of the queue while their match is being set up."""

    async def release(self, ticket_ids: list[str]) -> None:
        """Put claimed tickets back (seating them failed)."""

    async def settle(self, ticket_ids: list[str], match_id: int, now: float) -> None:
        """Mark claimed tickets matched and remember that their owners met."""

    async def recent(self, now: float) -> list[str]:
        """The ``meeting_key`` of every two accounts that met within ``RECENT_S``."""

    async def estimate(self, pool: str) -> float | None:
        """The pool's running average wait, if any ticket of it has been matched."""


def as_text(value: Any) -> str:
    """A Redis reply as text (replies are bytes unless the client decodes them)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def blend(old: float | None, new: float) -> float:
    return new if old is None else old + ESTIMATE_WEIGHT * (new - old)


class MemoryQueue:
    """The queue of a process alone."""

    def __init__(self) -> None:
        self.records: dict[str, Record] = {}
        self.by_owner: dict[int, str] = {}
        self.meetings: dict[str, float] = {}
        self.estimates: dict[str, float] = {}

    def _forget_old(self, now: float) -> None:
        for ticket_id, record in list(self.records.items()):
            if record.settled_at is not None and now - record.settled_at > KEEP_SETTLED_S:
                del self.records[ticket_id]
        for key, at in list(self.meetings.items()):
            if now - at > RECENT_S:
                del self.meetings[key]

    async def put(self, ticket: Ticket) -> Record | None:
        self._forget_old(ticket.enqueued_at)
        earlier = self.by_owner.get(ticket.account_id)
        replaced = await self.cancel(earlier) if earlier is not None else None
        self.records[ticket.id] = Record(ticket)
        self.by_owner[ticket.account_id] = ticket.id
        return replaced if replaced is not None and replaced.status == "cancelled" else None

    async def get(self, ticket_id: str) -> Record | None:
        return self.records.get(ticket_id)

    async def cancel(self, ticket_id: str) -> Record | None:
        record = self.records.get(ticket_id)
        if record is None or record.status != "waiting":
            return record
        record.status, record.settled_at = "cancelled", time.time()
        if self.by_owner.get(record.ticket.account_id) == ticket_id:
            del self.by_owner[record.ticket.account_id]
        return record

    async def waiting(self, now: float) -> list[Ticket]:
        for record in self.records.values():
            if record.status == "seating" and now - (record.settled_at or now) > SEATING_S:
                record.status, record.settled_at = "waiting", None
        return [r.ticket for r in self.records.values() if r.status == "waiting"]

    async def claim(self, ticket_ids: list[str], now: float) -> None:
        for ticket_id in ticket_ids:
            self.records[ticket_id].status = "seating"
            self.records[ticket_id].settled_at = now

    async def release(self, ticket_ids: list[str]) -> None:
        for ticket_id in ticket_ids:
            record = self.records[ticket_id]
            if record.status == "seating":
                record.status, record.settled_at = "waiting", None

    async def settle(self, ticket_ids: list[str], match_id: int, now: float) -> None:
        records = [self.records[t] for t in ticket_ids if t in self.records]
        for record in records:
            record.status, record.match_id, record.settled_at = "matched", match_id, now
            if self.by_owner.get(record.ticket.account_id) == record.ticket.id:
                del self.by_owner[record.ticket.account_id]
            pool = record.ticket.pool
            self.estimates[pool] = blend(self.estimates.get(pool), now - record.ticket.enqueued_at)
        for index, first in enumerate(records):
            for second in records[index + 1 :]:
                key = meeting_key(first.ticket.account_id, second.ticket.account_id)
                self.meetings[key] = now

    async def recent(self, now: float) -> list[str]:
        return [key for key, at in self.meetings.items() if now - at <= RECENT_S]

    async def estimate(self, pool: str) -> float | None:
        return self.estimates.get(pool)


PREFIX = "rampart:queue:"
WAITING = PREFIX + "waiting"  # sorted set: ticket id by arrival
OWNERS = PREFIX + "owners"  # hash: account id -> waiting ticket id
MEETINGS = PREFIX + "met"  # sorted set: meeting key by time
ESTIMATES = PREFIX + "estimates"  # hash: pool -> seconds
SEATING = PREFIX + "seating"  # sorted set: claimed ticket id by claim time
RECORD = PREFIX + "ticket:"  # string: a ticket's JSON record


class RedisQueue:
    """One queue for every process of the cluster. Changes to one ticket happen under the
    service's cluster lock (pairing) or touch only the caller's own ticket."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def _save(self, record: Record) -> None:
        ttl = None if record.status == "waiting" else int(KEEP_SETTLED_S)
        with redis_answers():
            await self.redis.set(RECORD + record.ticket.id, orjson.dumps(record.to_json()), ex=ttl)

    async def put(self, ticket: Ticket) -> Record | None:
        with redis_answers():
            earlier = await self.redis.hget(OWNERS, str(ticket.account_id))
        replaced = await self.cancel(as_text(earlier)) if earlier is not None else None
        record = Record(ticket)
        await self._save(record)
        with redis_answers():
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.zadd(WAITING, {ticket.id: ticket.enqueued_at})
                pipe.hset(OWNERS, str(ticket.account_id), ticket.id)
                await pipe.execute()
        return replaced if replaced is not None and replaced.status == "cancelled" else None

    async def get(self, ticket_id: str) -> Record | None:
        with redis_answers():
            data = await self.redis.get(RECORD + ticket_id)
        return None if data is None else Record.from_json(orjson.loads(data))

    async def _close(self, record: Record) -> None:
        await self._save(record)
        owner = str(record.ticket.account_id)
        with redis_answers():
            await self.redis.zrem(WAITING, record.ticket.id)
            await self.redis.zrem(SEATING, record.ticket.id)
            current = await self.redis.hget(OWNERS, owner)
            if current is not None and as_text(current) == record.ticket.id:
                await self.redis.hdel(OWNERS, owner)

    async def cancel(self, ticket_id: str) -> Record | None:
        record = await self.get(ticket_id)
        if record is None or record.status != "waiting":
            return record
        record.status, record.settled_at = "cancelled", time.time()
        await self._close(record)
        return record

    async def claim(self, ticket_ids: list[str], now: float) -> None:
        for ticket_id in ticket_ids:
            record = await self.get(ticket_id)
            if record is None:
                continue
            record.status, record.settled_at = "seating", now
            await self._save(record)
            with redis_answers():
                async with self.redis.pipeline(transaction=True) as pipe:
                    pipe.zrem(WAITING, ticket_id)
                    pipe.zadd(SEATING, {ticket_id: now})
                    await pipe.execute()

    async def release(self, ticket_ids: list[str]) -> None:
        for ticket_id in ticket_ids:
            record = await self.get(ticket_id)
            if record is None or record.status != "seating":
                continue
            await self._wait_again(record)

    async def _wait_again(self, record: Record) -> None:
        record.status, record.settled_at = "waiting", None
        await self._save(record)
        with redis_answers():
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.zrem(SEATING, record.ticket.id)
                pipe.zadd(WAITING, {record.ticket.id: record.ticket.enqueued_at})
                await pipe.execute()

    async def waiting(self, now: float) -> list[Ticket]:
        with redis_answers():
            stale = await self.redis.zrangebyscore(SEATING, "-inf", now - SEATING_S)
        for ticket_id in stale:
            record = await self.get(as_text(ticket_id))
            if record is not None and record.status == "seating":
                await self._wait_again(record)
            else:
                with redis_answers():
                    await self.redis.zrem(SEATING, as_text(ticket_id))
        with redis_answers():
            ids = await self.redis.zrange(WAITING, 0, -1)
            if not ids:
                return []
            rows = await self.redis.mget([RECORD + as_text(i) for i in ids])
        tickets = []
        for row in rows:
            if row is not None:
                record = Record.from_json(orjson.loads(row))
                if record.status == "waiting":
                    tickets.append(record.ticket)
        return tickets

    async def settle(self, ticket_ids: list[str], match_id: int, now: float) -> None:
        records = [r for r in [await self.get(t) for t in ticket_ids] if r is not None]
        for record in records:
            record.status, record.match_id, record.settled_at = "matched", match_id, now
            await self._close(record)
            pool = record.ticket.pool
            with redis_answers():
                old = await self.redis.hget(ESTIMATES, pool)
                wait = blend(None if old is None else float(old), now - record.ticket.enqueued_at)
                await self.redis.hset(ESTIMATES, pool, str(wait))
        keys = {
            meeting_key(first.ticket.account_id, second.ticket.account_id): now
            for index, first in enumerate(records)
            for second in records[index + 1 :]
        }
        with redis_answers():
            if keys:
                await self.redis.zadd(MEETINGS, keys)
            await self.redis.zremrangebyscore(MEETINGS, "-inf", now - RECENT_S)

    async def recent(self, now: float) -> list[str]:
        with redis_answers():
            keys = await self.redis.zrangebyscore(MEETINGS, now - RECENT_S, "+inf")
        return [as_text(key) for key in keys]

    async def estimate(self, pool: str) -> float | None:
        with redis_answers():
            value = await self.redis.hget(ESTIMATES, pool)
        return None if value is None else float(value)
