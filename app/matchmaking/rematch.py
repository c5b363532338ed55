"""Rematches: once a match has ended, any seated player may offer another; when every human
seat has accepted within ``OFFER_S`` seconds, a match with the same seats starts (bots accept
at once; the first seat passes to the next seat) and everyone at the table is told.

Who hears what (on the match socket, and the lobby socket of each seated player):
``{"type": "rematch", "match_id", "accepted": [seats], "waiting": [seats], "expires_in_s"}``
on each acceptance, ``{"type": "rematch_started", "match_id": <new>, "from_match_id"}`` when
the new match starts, ``{"type": "rematch_expired", "match_id"}`` when an offer lapses.
With Redis configured, offers are kept there (``rampart:rematch:<id>``, gone after
``OFFER_S``) under a cluster lock per match, so players answering through different processes
share one offer; without Redis they live in the process."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.cluster.directory import redis_answers
from app.cluster.locks import Locks
from app.db.repositories import MatchRepository
from app.errors import AppError, Conflict, Forbidden
from app.lobby.feed import LobbyFeed
from app.lobby.service import LobbyService, empty_seat
from app.sessions import wire
from app.sessions.bots import parse_bot_spec
from app.sessions.hub import Hub

OFFER_S = 60.0
OFFER_KEY = "rampart:rematch:"
log = logging.getLogger(__name__)


@dataclass
class Offer:
    match_id: int
    humans: dict[int, int]  # seat -> account id
    expires_at: float
    accepted: set[int] = field(default_factory=set)
    new_match_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "humans": {str(seat): account for seat, account in self.humans.items()},
            "expires_at": self.expires_at,
            "accepted": sorted(self.accepted),
            "new_match_id": self.new_match_id,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Offer:
        humans = {int(seat): int(account) for seat, account in data["humans"].items()}
        accepted = {int(seat) for seat in data["accepted"]}
        return cls(int(data["match_id"]), humans, float(data["expires_at"]), accepted,
                   data.get("new_match_id"))  # fmt: skip

    def state(self, now: float) -> dict[str, Any]:
        return {
            "type": "rematch",
            "match_id": self.match_id,
            "accepted": sorted(self.accepted),
            "waiting": sorted(set(self.humans) - self.accepted),
            "expires_in_s": round(max(0.0, self.expires_at - now), 1),
            "new_match_id": self.new_match_id,
        }


class RematchService:
    def __init__(
        self,
        hub: Hub,
        lobbies: LobbyService,
        sessionmaker: async_sessionmaker[AsyncSession],
        feed: LobbyFeed,
        locks: Locks | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.hub = hub
        self.lobbies = lobbies
        self.sessionmaker = sessionmaker
        self.feed = feed
        self.locks = locks or Locks()
        self.redis = self.locks.redis
        self.clock = clock
        self.offers: dict[int, Offer] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def _load(self, match_id: int) -> Offer | None:
        if self.redis is None:
            return self.offers.get(match_id)
        with redis_answers():
            data = await self.redis.get(OFFER_KEY + str(match_id))
        return None if data is None else Offer.from_json(orjson.loads(data))

    async def _save(self, offer: Offer) -> None:
        if self.redis is None:
            self.offers[offer.match_id] = offer
            return
        with redis_answers():
            key = OFFER_KEY + str(offer.match_id)
            # Kept a little past the offer, so that its lapse still finds it.
            await self.redis.set(
                key, orjson.dumps(offer.to_json()), px=int(OFFER_S * 1000) + 10_000
            )

    async def _forget(self, match_id: int) -> None:
        if self.redis is None:
            self.offers.pop(match_id, None)
            return
        with redis_answers():
            await self.redis.delete(OFFER_KEY + str(match_id))

    def _tell(self, offer: Offer, message: dict[str, Any]) -> None:
        text = wire.dumps(message)
        # Only a finished match is offered again, and a finished match never sleeps (nor has
        # a sleeping one any socket): one not live here has its sockets elsewhere, if any.
        session = self.hub.sessions.get(offer.match_id)
        if session is not None:
            for peer in list(session.peers):
                peer.send_text(text)
        elif self.feed.relay is not None:  # the match's sockets are on another process
            self.feed.relay("match_news", {"match_id": offer.match_id, "text": text})
        for account_id in set(offer.humans.values()):
            self.feed.notify(account_id, message)

    async def offer(self, account_id: int, match_id: int) -> dict[str, Any]:
        """Offer (or accept) a rematch of a finished match. Refuses ``match/not_found``,
        ``rematch/not_finished`` (409) and ``rematch/not_seated`` (403)."""
        async with self.locks.hold(f"rematch:{match_id}"):
            now = self.clock()
            offer = await self._load(match_id)
            if offer is None or (offer.expires_at <= now and offer.new_match_id is None):
                offer = await self._open(match_id, now)
            if account_id not in offer.humans.values():
                raise Forbidden("rematch/not_seated", "only the match's players offer a rematch")
            if offer.new_match_id is None:
                offer.accepted.update(s for s, a in offer.humans.items() if a == account_id)
                self._tell(offer, offer.state(now))
                if offer.accepted == set(offer.humans):
                    offer.new_match_id = await self._start(match_id)
                    started = {
                        "type": "rematch_started",
                        "match_id": offer.new_match_id,
                        "from_match_id": match_id,
                    }
                    self._tell(offer, started)
                await self._save(offer)
            return offer.state(self.clock())

    def offer_soon(
        self, account_id: int, match_id: int, refuse: Callable[[str, str], None]
    ) -> None:
        """``offer`` from a socket message: the answer is the broadcast; a refusal goes to
        ``refuse(code, message)``."""
        self._spawn(self._offer_or_refuse(account_id, match_id, refuse))

    async def _offer_or_refuse(
        self, account_id: int, match_id: int, refuse: Callable[[str, str], None]
    ) -> None:
        try:
            await self.offer(account_id, match_id)
        except AppError as refusal:
            refuse(refusal.code, refusal.message)
        except Exception:
            log.exception("rematch of match %s failed", match_id)
            refuse("server/internal", "the rematch could not start")

    async def _open(self, match_id: int, now: float) -> Offer:
        # Read only: a match not live here (asleep, elsewhere) is judged by its row's status.
        session = self.hub.sessions.get(match_id)
        async with self.sessionmaker() as db:
            repo = MatchRepository(db)
            match = await repo.get(match_id)
            seats = await repo.seats(match_id)
        finished = match.status != "running" or (session is not None and session.finished)
        if not finished:
            raise Conflict("rematch/not_finished", "a rematch is offered once the match ends")
        humans = {row.seat: row.account_id for row in seats if row.account_id is not None}
        offer = Offer(match_id, humans, now + OFFER_S)
        loop = asyncio.get_running_loop()
        loop.call_later(OFFER_S, lambda: self._spawn(self._lapse(match_id, offer.expires_at)))
        return offer

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _lapse(self, match_id: int, expires_at: float) -> None:
        """An offer is forgotten after ``OFFER_S``; one that never started a match lapses."""
        try:
            async with self.locks.hold(f"rematch:{match_id}"):
                offer = await self._load(match_id)
                if offer is not None and offer.expires_at != expires_at:
                    return  # a newer offer
                await self._forget(match_id)
        except AppError:
            log.warning("rematch offer of match %s: Redis did not answer", match_id)
            return
        if offer is not None and offer.new_match_id is None:
            self._tell(offer, {"type": "rematch_expired", "match_id": match_id})

    async def _start(self, match_id: int) -> int:
        async with self.sessionmaker() as db:
            repo = MatchRepository(db)
            match = await repo.get(match_id)
            rows = await repo.seats(match_id)
            members = [empty_seat(row.seat) for row in rows]
            for row, member in zip(rows, members, strict=True):
                member["castle"] = row.name
                if row.bot is not None:
                    kind, level = parse_bot_spec(row.bot)
                    member.update(bot=kind, difficulty=level, name=row.name)
                else:
                    member.update(account_id=row.account_id, name=row.name)
            first = int((match.options or {}).get("first_seat", 0))
            # A rated table seats no server bot (``app.lobby.service.RATED_BOTS``): a rematch
            # of a rated match with one (a tournament's) is casual.
            rated = match.rated and all(row.bot is None for row in rows)
            return await self.lobbies.seat_table(
                db,
                game=match.game,
                members=members,
                rated=rated,
                time_control=dict(match.time_control or {}),
                first_seat=(first + 1) % len(members),
            )
