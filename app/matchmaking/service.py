"""Quick play: take tickets, pair them every ``ROUND_S`` (one process of the cluster at a time),
seat each group in a started match and tell its players over the lobby socket."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.cluster.directory import ClusterUnavailable
from app.cluster.locks import Locks
from app.db.engine import database_unavailable
from app.db.models import Account, Ladder, LadderEntry
from app.errors import AppError, NotFound
from app.games import playable
from app.lobby.feed import LobbyFeed
from app.lobby.service import LobbyService, empty_seat
from app.matchmaking.pairing import Group, Ticket, pair
from app.matchmaking.playing import live_seats, refuse_if_playing
from app.matchmaking.store import QueueStore, Record
from app.scoring.pools import DEFAULT_POOL, Pool, pool_of
from app.scoring.ratings import GLICKO_START, SkillRating, system_for
from app.sessions.bots import has_bots
from app.sessions.timecontrol import realtime_only_refusal
from engines import registry

log = logging.getLogger(__name__)

ROUND_S = 0.5  # how often the waiting tickets are paired
DEFAULT_ESTIMATE_S = 30.0  # a pool's estimate before any of its tickets was matched
QUEUE_LOCK = "queue"
# A process that dies holding the queue's cluster lock stalls quick play this long at most (the
# lock is held to pick and claim a round's groups, never while their matches are set up).
QUEUE_LOCK_S = 10.0
GROUPS_PER_ROUND = 40
SEATING_AT_ONCE = 4  # matches set up side by side (their database writes still queue)
QUICK_CASTLES = (
    "Amberkeep", "Briarholt", "Cinderfell", "Dawnspire", "Eastmarch", "Frosthelm",
    "Greywater", "Hollowcrest", "Ironmere", "Juniper Hall", "Kestrel Tower", "Larkmoor",
    "Moonwatch", "Northgate", "Oakenshield", "Pinefold", "Queensward", "Redcliff",
    "Saltmarsh", "Thornbury", "Umberfort", "Valewood", "Windhollow", "Yarrowdale",
)  # fmt: skip


def queue_rating(rating: SkillRating) -> float:
    """A player's strength for pairing on one 1500-centred scale: the rating itself once it
    is settled, the conservative one (``r - 2 RD``, ``mu - 3 sigma``) while provisional, so a
    newcomer is not taken for stronger than he has shown; OpenSkill points are 60 each."""
    value = rating.conservative if rating.provisional else rating.mu
    if rating.system == "glicko2":
        return value
    return GLICKO_START + 60 * value


async def rating_for(
    db: AsyncSession, account_id: int, game: str, seats: int, pool: Pool = DEFAULT_POOL
) -> float:
    """The account's skill on the game's own ladder of ``pool`` (a new player's initial
    rating)."""
    system = system_for(seats)
    query = (
        select(LadderEntry.ratings)
        .join(Ladder, Ladder.id == LadderEntry.ladder_id)
        .where(
            Ladder.game == game,
            Ladder.kind == "game",
            Ladder.pool == pool,
            LadderEntry.account_id == account_id,
        )
        .order_by(Ladder.id)
    )
    ratings = (await db.execute(query)).scalars().first() or {}
    data = ratings.get(system)
    rating = SkillRating.from_json(data) if data else SkillRating.initial(system)
    return queue_rating(rating)


def record_json(record: Record, now: float, estimate: float | None) -> dict[str, Any]:
    ticket = record.ticket
    end = record.settled_at if record.settled_at is not None else now
    expected = estimate if estimate is not None else DEFAULT_ESTIMATE_S
    if ticket.bots_after_s is not None:
        expected = min(expected, ticket.bots_after_s)
    return {
        "ticket": ticket.id,
        # A ticket whose match is being set up is still waiting, as far as its owner knows.
        "status": "waiting" if record.status == "seating" else record.status,
        "match_id": record.match_id,
        "game": ticket.game,
        "seats": ticket.seats,
        "rated": ticket.rated,
        "waited_s": round(max(0.0, end - ticket.enqueued_at), 1),
        "estimate_s": round(expected, 1),
    }


def castle_draw(count: int) -> list[str]:
    """``count`` different castle names drawn at random."""
    pool = list(QUICK_CASTLES)
    return [pool.pop(secrets.randbelow(len(pool))) for _ in range(count)]


class QueueService:
    """The one way into quick play (REST and the pairing rounds)."""

    def __init__(
        self,
        store: QueueStore,
        lobbies: LobbyService,
        sessionmaker: async_sessionmaker[AsyncSession],
        feed: LobbyFeed,
        locks: Locks,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.lobbies = lobbies
        self.sessionmaker = sessionmaker
        self.feed = feed
        self.locks = Locks(locks.redis, timeout_s=QUEUE_LOCK_S)
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    async def enqueue(
        self,
        db: AsyncSession,
        player: Account,
        *,
        game: str,
        seats: int,
        rated: bool,
        time_control: dict[str, Any],
        bots_after_s: float | None,
    ) -> dict[str, Any]:
        """Queue the player (replacing his earlier ticket). Refuses ``queue/unknown_game``
        (404), ``queue/bad_seats``, ``queue/rated_bots`` (bots never sit at a rated quick
        table: neither server bots nor a bot account's rated ticket, as nobody would see whom
        he is paired with before the match starts) and ``queue/no_bots`` (the game has none),
        ``queue/realtime_only`` (days per move for a game with grab races), all 422, and
        ``queue/already_playing`` (409, with the ``match_id``) while the player holds a seat
        in a running match. A ticket waits until it is matched or cancelled: a correspondence
        ticket (days per move) need not be watched."""
        engine = playable().get(game)
        if engine is None:
            raise NotFound("queue/unknown_game", f"no game {game!r}")
        realtime_only = realtime_only_refusal(game, time_control, "queue")
        if realtime_only is not None:
            raise realtime_only
        low = max(2, engine.min_seats)
        if not low <= seats <= engine.max_seats:
            raise AppError("queue/bad_seats", f"{game} quick play takes {low}-"
                           f"{engine.max_seats} seats", status=422)  # fmt: skip
        if bots_after_s is not None and rated:
            raise AppError("queue/rated_bots", "bots_after_s is for casual tickets", status=422)
        if player.bot and rated:
            text = "a bot account queues for casual play: rated play against it is at tables"
            raise AppError("queue/rated_bots", text, status=422)
        if bots_after_s is not None and not has_bots(registry.get(game)):
            raise AppError("queue/no_bots", f"{game} has no bots", status=422)
        await refuse_if_playing(db, player.id)
        ticket = Ticket(
            id=secrets.token_urlsafe(12),
            account_id=player.id,
            name=player.name,
            game=game,
            seats=seats,
            rated=rated,
            time_control=time_control,
            rating=await rating_for(db, player.id, game, seats, pool_of(time_control)),
            enqueued_at=self.clock(),
            bots_after_s=bots_after_s,
        )
        async with self.locks.hold(QUEUE_LOCK):
            await self.store.put(ticket)
        return record_json(
            Record(ticket), ticket.enqueued_at, await self.store.estimate(ticket.pool)
        )

    async def _own(self, player: Account, ticket_id: str) -> Record:
        record = await self.store.get(ticket_id)
        if record is None or record.ticket.account_id != player.id:
            raise NotFound("queue/not_found", "no such ticket of yours")
        return record

    async def status(self, player: Account, ticket_id: str) -> dict[str, Any]:
        """The ticket's state; refuses ``queue/not_found`` (404) unless it is the player's."""
        record = await self._own(player, ticket_id)
        return record_json(record, self.clock(), await self.store.estimate(record.ticket.pool))

    async def cancel(self, player: Account, ticket_id: str) -> dict[str, Any]:
        """Leave the queue; a ticket already matched stays matched. Refuses
        ``queue/not_found``."""
        await self._own(player, ticket_id)
        async with self.locks.hold(QUEUE_LOCK):
            record = await self.store.cancel(ticket_id)
        assert record is not None
        return record_json(record, self.clock(), await self.store.estimate(record.ticket.pool))

    async def run_round(self) -> list[tuple[Group, int]]:
        """Pair the waiting tickets once and seat every group found. The queue's lock is
        held only to pick the groups and claim their tickets, so joining or leaving the
        queue never waits for matches being set up. A ticket whose owner sat down in a
        match after queueing waits on, passed over until that match is over."""
        async with self.locks.hold(QUEUE_LOCK):
            now = self.clock()
            waiting = await self.store.waiting(now)
            if waiting:
                async with self.sessionmaker() as db:
                    playing = await live_seats(db, {t.account_id for t in waiting})
                waiting = [t for t in waiting if t.account_id not in playing]
            if not waiting:
                return []
            groups = pair(waiting, now, await self.store.recent(now))[:GROUPS_PER_ROUND]
            for group in groups:
                await self.store.claim([t.id for t in group.tickets], now)
        gate = asyncio.Semaphore(SEATING_AT_ONCE)

        async def seat(group: Group) -> tuple[Group, int] | None:
            ids = [t.id for t in group.tickets]
            try:
                async with gate:
                    match_id = await self._seat(group)
            except Exception:
                log.exception("quick play could not seat %s", ids)
                async with self.locks.hold(QUEUE_LOCK):
                    await self.store.release(ids)
                return None
            async with self.locks.hold(QUEUE_LOCK):
                await self.store.settle(ids, match_id, self.clock())
            for ticket in group.tickets:
                message = {"type": "matched", "ticket": ticket.id, "match_id": match_id}
                self.feed.notify(ticket.account_id, message)
            return group, match_id

        done = await asyncio.gather(*(seat(group) for group in groups))
        return [item for item in done if item is not None]

    async def _seat(self, group: Group) -> int:
        first = group.tickets[0]
        seats = first.seats
        castles = castle_draw(seats)
        members = [empty_seat(seat) for seat in range(seats)]
        # Who sits where is drawn too: the seat order is the turn order after the first.
        order = list(range(seats))
        for index in range(seats - 1, 0, -1):
            swap = secrets.randbelow(index + 1)
            order[index], order[swap] = order[swap], order[index]
        for ticket, seat in zip(group.tickets, order, strict=False):
            members[seat].update(account_id=ticket.account_id, name=ticket.name)
        for seat in order[len(group.tickets) :]:
            members[seat].update(bot="heuristic", difficulty="normal", name=f"Heuristic bot {seat}")
        for member in members:
            member["castle"] = castles[member["seat"]]
        async with self.sessionmaker() as db:
            return await self.lobbies.seat_table(
                db,
                game=first.game,
                members=members,
                rated=first.rated,
                time_control=first.time_control,
                first_seat=secrets.randbelow(seats),
            )

    def start(self) -> None:
        self._task = asyncio.create_task(self._rounds(), name="quick-play")

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(ROUND_S)
            try:
                await self.run_round()
            except Exception as error:
                if isinstance(error, ClusterUnavailable) or database_unavailable(error):
                    # Redis or the database is down or restarting: the next round retries.
                    log.warning("quick play round skipped: %r", error)
                    continue
                log.exception("quick play round failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
