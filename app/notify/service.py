"""The notifier: hears the hub's turns and results, queues mails in the outbox, sends them.

Events are handled in order by one task (a match that awaits a player and stops awaiting him
at once ends with nothing queued). "Your move" waits ``RAMPART_MAIL_BATCH_S`` in the outbox,
and goes when due in one mail with everything else pending for that player; it is cancelled
if he moves first. A reminder is queued for 24 hours before his deadline and cancelled by his
move; the end of a match cancels both and queues its result. At start-up, once the matches
are rebuilt, ``catch_up`` queues what a hard crash left unqueued (``app.notify.catchup``).
Nothing is queued, and no sender runs, without ``RAMPART_SMTP_URL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import aiosmtplib
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.mail import EmailAddress
from app.db.models import Account, Match
from app.db.repositories import MatchRepository
from app.notify import catchup, mails, outbox
from app.notify.links import Links
from app.notify.matches import game_title, move_days, opponents, result_for
from app.notify.smtp import SmtpServer, refused_for_good
from app.sessions.hub import Hub
from app.sessions.turns import wall_ms

log = logging.getLogger(__name__)

REMIND_BEFORE = timedelta(hours=24)
RETRY_AFTER = timedelta(minutes=1)  # a mail the SMTP server did not take is tried again


def utcnow() -> datetime:
    return datetime.now(UTC)


class Notifier:
    """One per process. ``on_turn`` and ``on_finish`` are the hub's listeners; ``start``
    runs the sender, ``stop`` ends it (rows not sent stay in the outbox for the next start,
    of this process or another)."""

    def __init__(
        self, settings: Settings, sessionmaker: async_sessionmaker[AsyncSession], hub: Hub
    ) -> None:
        url = settings.smtp_url.strip()
        self.server = SmtpServer.parse(url) if url else None
        self.links = Links(settings.secret, settings.public_url)
        self.sender = settings.smtp_from
        self.batch = timedelta(seconds=max(0.0, settings.mail_batch_s))
        self.poll_s = max(0.01, settings.mail_poll_s)
        self.sessionmaker = sessionmaker
        self.hub = hub
        self.clock_rate = settings.clock_rate
        self._events: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def enabled(self) -> bool:
        return self.server is not None

    def start(self) -> None:
        if self.enabled and not self._tasks:
            self._tasks = [
                asyncio.create_task(self._handle_events(), name="mail-events"),
                asyncio.create_task(self._send_loop(), name="mail-sender"),
            ]

    async def stop(self) -> None:
        """Handle the events already heard (briefly), then stop."""
        if not self._tasks:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._events.join(), 2.0)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    def wake(self) -> None:
        """Look for due mails now (one was just queued due at once)."""
        self._wake.set()

    # ----- the hub's listeners ------------------------------------------------------------

    def _concerns(self, match_id: int) -> bool:
        """Whether a match may be mailed about: a real-time match's turns (every move of
        most games) are passed over here, at the cost of a dict look-up, with no database
        read. A match not live here is looked up (``_turn`` and ``_over`` read it)."""
        if not self.enabled:
            return False
        # Read only: a sleeping match is not woken to be mailed about, it is looked up.
        session = self.hub.sessions.get(match_id)
        return session is None or session.time_control.days_per_move is not None

    def on_turn(self, match_id: int, account_id: int, awaiting: bool) -> None:
        if not self._concerns(match_id):
            return
        session = self.hub.sessions.get(match_id)
        started = session is not None and session.version == 0
        self._events.put_nowait(lambda: self._turn(match_id, account_id, awaiting, started))

    def on_finish(self, match_id: int) -> None:
        if self._concerns(match_id):
            self._events.put_nowait(lambda: self._over(match_id))

    def catch_up_soon(self) -> None:
        """Queue ``catch_up`` after the events heard so far (call it once the hub has
        rebuilt its matches: a live match says whom it awaits)."""
        if self.enabled:
            self._events.put_nowait(self._catch_up)

    async def _catch_up(self) -> None:
        await self.catch_up()

    async def catch_up(self) -> tuple[int, int]:
        """Queue the "your move" and "match over" mails of the last ``catchup.RECENT`` that
        a hard crash left unqueued; returns how many of each. A match awaits a player if its
        live session here says so, or if it sleeps with his seat's clock running; one live
        in another process is not looked at (whom it awaits is known there)."""
        since = utcnow() - catchup.RECENT
        async with self.sessionmaker() as db:
            turns = await catchup.untold_turns(db, since, self.clock_rate)
            results = await catchup.untold_results(db, since)
        # (match, account) -> (the match has just started, the deadline a sleeping one kept)
        awaited: dict[tuple[int, int], tuple[bool, datetime | None]] = {}
        for row in turns:
            session = self.hub.sessions.get(row.match_id)
            if session is not None:
                if not session.finished and row.account_id in session.turns.awaited:
                    awaited[row.match_id, row.account_id] = (session.version == 0, None)
            elif row.running is not None and row.seat in row.running:
                ends = row.deadline_ms
                deadline = None if ends is None else datetime.fromtimestamp(ends / 1000, UTC)
                awaited[row.match_id, row.account_id] = (False, deadline)
        for (match_id, account_id), (started, deadline) in sorted(awaited.items()):
            await self._turn(match_id, account_id, True, started, deadline)
        players: dict[int, set[int]] = defaultdict(set)
        for match_id, account_id in results:
            players[match_id].add(account_id)
        for match_id, accounts in sorted(players.items()):
            await self._over(match_id, accounts)
        if awaited or results:
            log.warning(
                "queued %d move and %d result mails a crash had left unqueued",
                len(awaited),
                len(results),
            )
        return len(awaited), len(results)

    async def _handle_events(self) -> None:
        while True:
            handle = await self._events.get()
            try:
                await handle()
            except Exception:
                log.exception("a mail notification could not be queued")
            finally:
                self._events.task_done()

    async def _turn(
        self,
        match_id: int,
        account_id: int,
        awaiting: bool,
        started: bool,
        deadline: datetime | None = None,
    ) -> None:
        """Queue (or cancel) "your move" and its reminder; the reminder counts from
        ``deadline``, else from the live match's clocks, else from the days per move."""
        async with self.sessionmaker() as db:
            if not awaiting:
                await outbox.cancel(db, account_id, ("turn", "reminder"), match_id=match_id)
                await db.commit()
                return
            match = await db.get(Match, match_id)
            days = move_days(match.time_control) if match is not None else None
            if match is None or days is None or match.status != "running":
                return
            if await outbox.recipient(db, account_id) is None:
                return
            seats = await MatchRepository(db).seats(match_id)
            now = utcnow()
            detail = {
                "title": game_title(match.game),
                "opponents": opponents(seats, account_id),
                "started": started,
            }
            await outbox.queue(
                db, account_id, "turn", now + self.batch, match_id=match_id, detail=detail
            )
            deadline = deadline or self._deadline(match_id, account_id)
            deadline = deadline or now + timedelta(days=days)
            remind_at = deadline - REMIND_BEFORE
            if remind_at > now + self.batch:  # else the "your move" mail says it all
                when = deadline.strftime("%Y-%m-%d %H:%M")
                reminder = {**detail, "deadline": when}
                await outbox.queue(
                    db, account_id, "reminder", remind_at, match_id=match_id, detail=reminder
                )
            await db.commit()

    def _deadline(self, match_id: int, account_id: int) -> datetime | None:
        """The earliest deadline of the account's seats by the live match's turn clocks."""
        # Read only: a match asleep by now is not woken for this; the mail falls back on
        # its days per move.
        session = self.hub.sessions.get(match_id)
        if session is None:
            return None
        mine = [i for i, seat in enumerate(session.seats) if seat.account_id == account_id]
        ends = [
            session.turn_clocks.deadlines[s] for s in mine if s in session.turn_clocks.deadlines
        ]
        if not ends:
            return None
        return datetime.fromtimestamp(wall_ms(session.clock, min(ends)) / 1000, UTC)

    async def _over(self, match_id: int, only: set[int] | None = None) -> None:
        """Cancel the match's pending move mails and queue its result for each player (of
        ``only``, if given)."""
        async with self.sessionmaker() as db:
            await outbox.cancel(db, None, ("turn", "reminder"), match_id=match_id)
            match = await db.get(Match, match_id)
            if match is None or move_days(match.time_control) is None:
                await db.commit()
                return
            seats = await MatchRepository(db).seats(match_id)
            now = utcnow()
            accounts = sorted({s.account_id for s in seats if s.account_id is not None})
            for account_id in accounts:
                if only is not None and account_id not in only:
                    continue
                if await outbox.recipient(db, account_id) is None:
                    continue
                detail = {
                    "title": game_title(match.game),
                    "opponents": opponents(seats, account_id),
                    "result": result_for(match.result, seats, account_id),
                }
                await outbox.queue(db, account_id, "over", now, match_id=match_id, detail=detail)
            await db.commit()
        self.wake()

    # ----- the sender ---------------------------------------------------------------------

    async def _send_loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.send_due()
            except Exception:
                log.exception("the mail sender failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_s)

    async def send_due(self, now: datetime | None = None) -> int:
        """Claim the due rows, send one mail per verification and one digest per player;
        returns how many mails went."""
        assert self.server is not None
        now = now or utcnow()
        async with self.sessionmaker() as db:
            claimed = await outbox.claim(db, now)
        by_account: dict[int, list[outbox.Claimed]] = defaultdict(list)
        for row in claimed:
            by_account[row.account_id].append(row)
        sent = 0
        for account_id, rows in by_account.items():
            sent += await self._send_account(account_id, rows, now)
        return sent

    async def _send_account(
        self, account_id: int, rows: list[outbox.Claimed], now: datetime
    ) -> int:
        async with self.sessionmaker() as db:
            address = await db.get(EmailAddress, account_id)
            account = await db.get(Account, account_id)
            await db.commit()
        name = account.name if account is not None else ""
        batches: list[tuple[list[outbox.Claimed], EmailMessage | None]] = []
        for row in rows:
            if row.kind != "verify":
                continue
            message = None
            if (
                address is not None
                and address.verified_at is None
                and address.address == row.detail.get("address")
            ):
                url = self.links.verify_url(account_id, address.address)
                message = mails.verification(self.sender, address.address, name, url)
            batches.append(([row], message))
        digest_rows = [row for row in rows if row.kind != "verify"]
        if digest_rows:
            message = None
            if address is not None and address.verified_at and address.notifications:
                unsubscribe = self.links.unsubscribe_url(account_id)
                message = mails.digest(
                    self.sender, address.address, name, digest_rows, self.links, unsubscribe
                )
            batches.append((digest_rows, message))
        sent = 0
        for batch, message in batches:
            ids = [row.id for row in batch]
            if message is None:  # nobody to tell any more
                async with self.sessionmaker() as db:
                    await outbox.drop(db, ids)
                continue
            try:
                assert self.server is not None
                await self.server.send(message)
            except (aiosmtplib.SMTPException, OSError) as error:
                if refused_for_good(error):  # a mailbox that does not exist, say
                    log.warning("mail to account %s refused (%r); dropped", account_id, error)
                    async with self.sessionmaker() as db:
                        await outbox.drop(db, ids)
                    continue
                log.warning("mail to account %s not sent (%r); trying again", account_id, error)
                async with self.sessionmaker() as db:
                    await outbox.retry(db, ids, now + RETRY_AFTER)
                continue
            async with self.sessionmaker() as db:
                await outbox.mark_sent(db, ids, now)
            sent += 1
        return sent


@asynccontextmanager
async def notifying(
    settings: Settings, sessionmaker: async_sessionmaker[AsyncSession], hub: Hub
) -> AsyncIterator[Notifier]:
    """A notifier listening to ``hub`` and sending, for as long as the block runs; enter it
    before the hub rebuilds its matches so that it hears their first turns."""
    notifier = Notifier(settings, sessionmaker, hub)
    hub.turn_listeners.append(notifier.on_turn)
    hub.finish_listeners.append(notifier.on_finish)
    notifier.start()
    try:
        yield notifier
    finally:
        await notifier.stop()
