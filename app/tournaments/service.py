"""The tournament scheduler: registration, seeding, pairing each round, opening its tables as
matches, recording every result, forfeits, withdrawals, and live standings on the lobby feed.

One lock per tournament (cluster-wide with several processes) orders everything that changes
it (organiser requests and finished matches); each change is one write transaction
(``writes.Writer``). The pure ``director`` decides the pairings; this module stores them and
acts. No-shows and time-outs are the session's business (its disconnect grace and turn clock
forfeit the seat); a player who forfeits by abandonment is withdrawn from later rounds.

Each player of a newly opened table is called to it on every page he has open (the lobby
feed's ``table_ready``); a page that connects while his table waits gets the same call. A
session starts a seat's grace again once its player's first call reached one of his pages
(``Connections.told``), so nobody is forfeited for not knowing where to go; a table that
fell asleep meanwhile is woken for that first call.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from app.cluster.locks import Locks
from app.db.models import Account, TournamentEntry
from app.lobby.feed import LobbyFeed
from app.sessions import wire
from app.sessions.commands import Submit, Told
from app.sessions.hub import Hub, OwnedElsewhere
from app.tournaments import calls, store
from app.tournaments.background import BackgroundTasks
from app.tournaments.transactions import (
    add_bots,
    catch_up,
    create,
    open_registration,
    record_and_advance,
    register,
    start,
    withdraw,
)
from app.tournaments.writes import Writer

log = logging.getLogger(__name__)
T = TypeVar("T")

# Higher than any client's sequence number, so a withdrawal's resign is never "stale".
WITHDRAW_SEQ = 1 << 62


class TournamentService:
    def __init__(
        self, hub: Hub, writer: Writer, feed: LobbyFeed, locks: Locks | None = None
    ) -> None:
        self.hub = hub
        self.writer = writer
        self.feed = feed
        self.locks = locks or Locks()
        self._tasks = BackgroundTasks()
        # Hands a command to the process that owns a match, or (None) to every other process
        # (``app.cluster``); alone, unused.
        self.forward: Callable[[str, dict[str, Any], str | None], None] | None = None

    def lock(self, tid: int) -> AbstractAsyncContextManager[None]:
        return self.locks.hold(f"tournament:{tid}")

    async def change(self, tid: int, work: Callable[[Session], T]) -> T:
        """Run one change of tournament ``tid`` under its lock, then publish its standings."""
        async with self.lock(tid):
            result = await self.writer.run(work)
        await self.publish(tid)
        return result

    async def create(self, organiser: Account, fields: dict[str, Any]) -> int:
        return await self.writer.run(partial(create, organiser_id=organiser.id, fields=fields))

    async def open(self, organiser: Account, tid: int) -> None:
        await self.change(tid, partial(open_registration, organiser_id=organiser.id, tid=tid))

    async def register(self, player: Account, tid: int) -> TournamentEntry:
        work = partial(
            register, player_id=player.id, name=player.name, tid=tid, bot_account=player.bot
        )
        return await self.change(tid, work)

    async def add_bots(
        self, organiser: Account, tid: int, kind: str, count: int, difficulty: str = "normal"
    ) -> list[TournamentEntry]:
        work = partial(
            add_bots,
            organiser_id=organiser.id,
            tid=tid,
            kind=kind,
            count=count,
            difficulty=difficulty,
        )
        return await self.change(tid, work)

    async def withdraw(self, actor: Account, tid: int, entry_id: int | None) -> None:
        work = partial(withdraw, actor_id=actor.id, tid=tid, entry_id=entry_id)
        for match_id, seat, account_id in await self.change(tid, work):
            await self.resign(match_id, seat, account_id)

    async def resign(self, match_id: int, seat: int, account_id: int | None) -> None:
        """Resign a withdrawn player's seat, in whichever process serves the match."""
        try:
            session = await self.hub.get(match_id)
        except OwnedElsewhere as moved:
            if self.forward is None:
                raise
            body = {"match_id": match_id, "seat": seat, "account_id": account_id}
            self.forward("resign", body, moved.node_id)
            return
        resign = Submit(wire.ServerSeat(account_id, seat), seat, WITHDRAW_SEQ, {"type": "resign"})
        session.submit(resign)

    def on_forwarded_resign(self, body: dict[str, Any]) -> None:
        """Another process withdrew a player from a match this process owns."""
        work = self.resign(body["match_id"], body["seat"], body["account_id"])
        self._tasks.start(work)

    async def start(self, organiser: Account, tid: int) -> None:
        matches = await self.change(tid, partial(start, organiser_id=organiser.id, tid=tid))
        await self._start_matches(matches)

    async def _start_matches(self, match_ids: list[int]) -> None:
        """Load each new table's session, then call its players to it."""
        for match_id in match_ids:
            with contextlib.suppress(OwnedElsewhere):  # already running in another process
                await self.hub.get(match_id)
        if not match_ids:
            return
        async with self.writer.sessionmaker() as db:
            found = await db.run_sync(partial(calls.calls, match_ids=match_ids))
        for account_id, match_id, message in found:
            self.feed.call(account_id, match_id, message)

    async def waiting(self, account_id: int) -> list[tuple[int, dict[str, Any]]]:
        """The tournament tables waiting for ``account_id``, as (match, call) for a page that
        has just connected (``app.realtime.lobby_socket``)."""
        async with self.writer.sessionmaker() as db:
            return await db.run_sync(partial(calls.waiting, account_id=account_id))

    def told(self, match_id: int, account_id: int) -> None:
        """A call reached one of the player's pages (``LobbyFeed.on_told``): his session,
        here or in whichever process holds it, starts his grace again (``Told``)."""
        session = self.hub.sessions.get(match_id)
        if session is not None:
            session.submit(Told(account_id))
        else:
            self._tasks.start(self._tell_elsewhere(match_id, account_id, origin=True))

    def on_forwarded_told(self, body: dict[str, Any]) -> None:
        """Another process delivered a call to a table this process may hold."""
        match_id, account_id = int(body["match_id"]), int(body["account_id"])
        session = self.hub.sessions.get(match_id)
        if session is not None:
            session.submit(Told(account_id))
        else:  # it may have fallen asleep since the call was sent
            self._tasks.start(self._tell_elsewhere(match_id, account_id, origin=False))

    async def _tell_elsewhere(self, match_id: int, account_id: int, *, origin: bool) -> None:
        """``Told`` for a match not live here. Asleep, it is woken here (claimed, with several
        processes) and told, unless each of the player's seats was told already (its wake-up
        row keeps which): only a first call changes anything, so a page that connects while
        the table waits does not wake it again. Awake, it lives in another process (or is
        over): the call that reached a page here is forwarded to every other process."""
        try:
            await self._tell_unless_told(match_id, account_id, origin=origin)
        except Exception:
            log.exception("could not tell match %s that its player was called", match_id)

    async def _tell_unless_told(self, match_id: int, account_id: int, *, origin: bool) -> None:
        carry = await self.hub.sleeper.wakeups.carry(match_id)
        if carry is not None:
            async with self.writer.sessionmaker() as db:
                work = partial(calls.seats_of, match_id=match_id, account_id=account_id)
                seats = await db.run_sync(work)
            if set(seats) <= set(carry.get("called", [])):
                return
            try:
                session = await self.hub.get(match_id)
            except OwnedElsewhere as moved:
                # Woken by another process meanwhile; a forwarded call that lost that race
                # was delivered to the winner as well.
                if origin and self.forward is not None:
                    body = {"match_id": match_id, "account_id": account_id}
                    self.forward("told", body, moved.node_id)
                return
            session.submit(Told(account_id))
        elif origin and self.forward is not None:
            self.forward("told", {"match_id": match_id, "account_id": account_id}, None)

    def on_match_finished(self, match_id: int) -> None:
        """The hub's finish hook (synchronous): record the result in a task of its own."""
        self._tasks.start(self.match_finished(match_id))

    async def match_finished(self, match_id: int) -> None:
        """Record a tournament match's result and pair the next round once every table is
        done; a match outside any tournament is ignored."""
        row = await self.writer.run(partial(store.pairing_for_match, match_id=match_id))
        if row is None:
            return
        work = partial(record_and_advance, match_id=match_id)
        _, matches = await self.change(row.tournament_id, work)
        # The table no longer waits for its players: their pages drop its notice.
        closed = {"type": "table_closed", "match_id": match_id, "tournament_id": row.tournament_id}
        async with self.writer.sessionmaker() as db:
            seated = await db.run_sync(partial(calls.players, match_id=match_id))
        for account_id in seated:
            self.feed.notify(account_id, closed)
        await self._start_matches(matches)

    async def resume(self) -> None:
        """At start-up: record results that finished while we were down, pair where due."""
        for tid in await self.writer.run(store.running_ids):
            try:
                await self._start_matches(await self.change(tid, partial(catch_up, tid=tid)))
            except Exception:
                log.exception("could not resume tournament %s", tid)

    async def stop(self) -> None:
        await self._tasks.cancel_all()

    async def publish(self, tid: int) -> None:
        """Push ``tournament{tournament, standings, pairings}`` to every lobby feed listener."""
        if not self.feed.listened:
            return
        async with self.writer.sessionmaker() as db:
            message = await db.run_sync(partial(store.feed_message, tournament_id=tid))
        self.feed.broadcast(wire.dumps(message))
