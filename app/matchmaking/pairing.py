"""Fair pairing for quick play, as pure functions of the waiting tickets and the clock.

Who may meet whom:

- only tickets of one *pool*: the same game, seat count, rated or casual, and time control;
- never a player with himself (one account never takes two seats of a group);
- players of like strength first: the acceptable rating gap starts at ``BASE_WINDOW`` and
  widens by ``WIDEN_PER_S`` for each second the longer-waiting ticket has waited, up to
  ``MAX_WINDOW``. A close game is worth a short wait, but nobody should wait for ever because
  nobody of exactly his strength is online: the longer the wait, the less the gap matters.
  The longest-waiting ticket is served first, with the closest partner inside its window;
- two players who met within ``RECENT_S`` seconds are not paired again unless nobody else in
  their pool is waiting;
- a table of three or four fills by rating band: the spread of the whole group (highest
  minus lowest rating) must fit the window of its longest-waiting ticket;
- ``bots_after_s`` (casual tickets only): once a ticket has waited that long with no full
  table found, it sits with the other bot-willing tickets of its pool within its window, and
  bots take the seats left.
"""

from __future__ import annotations

import json
import math
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

BASE_WINDOW = 100.0  # rating points accepted at once (about half a Glicko-2 class)
WIDEN_PER_S = 20.0  # points added per second waited
MAX_WINDOW = 3000.0  # the whole rating scale: after about 2.5 minutes anyone will do
RECENT_S = 300.0  # players who met within this long are not paired again at once


@dataclass(frozen=True)
class Ticket:
    """One player's wish to play: ``rating`` is on the 1500-centred display scale
    (``app.matchmaking.ratings``); ``enqueued_at`` is wall-clock seconds."""

    id: str
    account_id: int
    name: str
    game: str
    seats: int
    rated: bool
    time_control: dict[str, Any] = field(default_factory=dict)
    rating: float = 1500.0
    enqueued_at: float = 0.0
    bots_after_s: float | None = None

    @property
    def pool(self) -> str:
        """Tickets meet only within one pool: game, seats, rated or casual, time control."""
        control = json.dumps(self.time_control, sort_keys=True, separators=(",", ":"))
        return f"{self.game}|{self.seats}|{'rated' if self.rated else 'casual'}|{control}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "account_id": self.account_id,
            "name": self.name,
            "game": self.game,
            "seats": self.seats,
            "rated": self.rated,
            "time_control": self.time_control,
            "rating": self.rating,
            "enqueued_at": self.enqueued_at,
            "bots_after_s": self.bots_after_s,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ticket:
        bots = data.get("bots_after_s")
        return cls(
            id=str(data["id"]),
            account_id=int(data["account_id"]),
            name=str(data["name"]),
            game=str(data["game"]),
            seats=int(data["seats"]),
            rated=bool(data["rated"]),
            time_control=dict(data.get("time_control") or {}),
            rating=float(data.get("rating", 1500.0)),
            enqueued_at=float(data.get("enqueued_at", 0.0)),
            bots_after_s=None if bots is None else float(bots),
        )


@dataclass(frozen=True)
class Group:
    """Tickets to seat together, and how many bots take the remaining seats."""

    tickets: tuple[Ticket, ...]
    bots: int = 0

    @property
    def gap(self) -> float:
        ratings = [t.rating for t in self.tickets]
        return max(ratings) - min(ratings)


def window(waited_s: float) -> float:
    """The rating gap a ticket that has waited ``waited_s`` seconds accepts."""
    return min(MAX_WINDOW, BASE_WINDOW + WIDEN_PER_S * max(0.0, waited_s))


def meeting_key(first: int, second: int) -> str:
    """How a meeting of two accounts is remembered (order does not matter)."""
    low, high = sorted((first, second))
    return f"{low}:{high}"


def _met(group: Iterable[Ticket], candidate: Ticket, recent: frozenset[str]) -> bool:
    return any(meeting_key(t.account_id, candidate.account_id) in recent for t in group)


class _ByRating:
    """A pool's tickets in rating order, for finding the nearest ones without sorting the
    pool again for every ticket (a round over a pool of n costs about n log n, not n^2)."""

    def __init__(self, tickets: list[Ticket]) -> None:
        self.tickets = sorted(tickets, key=lambda t: (t.rating, t.enqueued_at))
        self.ratings = [t.rating for t in self.tickets]
        self.taken: set[str] = set()

    def nearest(self, anchor: Ticket, limit: float) -> Iterator[Ticket]:
        """Untaken tickets within ``limit`` of the anchor's rating, closest first."""
        high = bisect_left(self.ratings, anchor.rating)
        low = high - 1
        while True:
            down = anchor.rating - self.ratings[low] if low >= 0 else math.inf
            up = self.ratings[high] - anchor.rating if high < len(self.tickets) else math.inf
            if min(down, up) > limit:
                return
            if up <= down:
                found, high = self.tickets[high], high + 1
            else:
                found, low = self.tickets[low], low - 1
            if found.id not in self.taken:
                yield found


def _grow(
    anchor: Ticket,
    pool: _ByRating,
    size: int,
    limit: float,
    recent: frozenset[str],
    avoid_recent: bool,
    bots_willing: bool = False,
) -> list[Ticket] | None:
    """The closest-rated group of ``size`` around ``anchor`` whose spread fits ``limit``."""
    group = [anchor]
    accounts = {anchor.account_id}
    low = high = anchor.rating
    for candidate in pool.nearest(anchor, limit):
        if len(group) == size:
            break
        if candidate.id == anchor.id or candidate.account_id in accounts:
            continue
        if bots_willing and candidate.bots_after_s is None:
            continue
        if max(high, candidate.rating) - min(low, candidate.rating) > limit:
            continue
        if avoid_recent and _met(group, candidate, recent):
            continue
        group.append(candidate)
        accounts.add(candidate.account_id)
        low, high = min(low, candidate.rating), max(high, candidate.rating)
    return group if len(group) == size else None


def _pool_groups(tickets: list[Ticket], now: float, recent: frozenset[str]) -> list[Group]:
    groups: list[Group] = []
    waiting = sorted(tickets, key=lambda t: (t.enqueued_at, t.id))
    pool = _ByRating(waiting)
    accounts = {t.account_id for t in waiting}
    for anchor in waiting:
        if anchor.id in pool.taken:
            continue
        limit = window(now - anchor.enqueued_at)
        size = anchor.seats
        group = _grow(anchor, pool, size, limit, recent, avoid_recent=True)
        if group is None and len(accounts - {anchor.account_id}) == size - 1:
            # Nobody else is waiting: players who just met may meet again.
            group = _grow(anchor, pool, size, limit, recent, avoid_recent=False)
        if group is None:
            continue
        pool.taken.update(t.id for t in group)
        accounts.difference_update(t.account_id for t in group)
        groups.append(Group(tuple(group)))
    for anchor in waiting:
        if anchor.id in pool.taken or anchor.rated or anchor.bots_after_s is None:
            continue
        if now - anchor.enqueued_at < anchor.bots_after_s:
            continue
        limit = window(now - anchor.enqueued_at)
        humans = [anchor]
        for size in range(anchor.seats - 1, 0, -1):
            found = _grow(anchor, pool, size, limit, recent, False, bots_willing=True)
            if found is not None:
                humans = found
                break
        pool.taken.update(t.id for t in humans)
        groups.append(Group(tuple(humans), bots=anchor.seats - len(humans)))
    return groups


def pair(tickets: Iterable[Ticket], now: float, recent: Iterable[str] = ()) -> list[Group]:
    """The groups to seat now among ``tickets`` at wall time ``now``; ``recent`` holds the
    ``meeting_key`` of every two accounts that met within ``RECENT_S``. Tickets left out
    keep waiting."""
    pools: dict[str, list[Ticket]] = {}
    for ticket in tickets:
        pools.setdefault(ticket.pool, []).append(ticket)
    met = frozenset(recent)
    groups: list[Group] = []
    for key in sorted(pools):
        groups.extend(_pool_groups(pools[key], now, met))
    return groups
