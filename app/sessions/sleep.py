"""Sleeping matches: which live matches may leave memory, what SQL keeps of them, and the
loop that puts idle matches to sleep and wakes those whose deadline fell due.

A match *sleeps* when it runs, has no socket attached (a player or a spectator watching keeps
it awake), awaits no server bot, has no grab race open, has nothing in hand or queued (so its
log is durable: every accepted action is written), and nothing has happened to it for
``hibernate_after_s`` (no move, no player leaving, no load). Its session's task ends and it
leaves the hub; a ``match_wakeups`` row keeps its next deadline (wall ms) and what the log
does not: its turn clocks, and which seats are away since when (a disconnected seat's grace
keeps running while it sleeps).

It wakes (``Hub.get`` rebuilds it from its log and the row) on the next hello on its socket
(its players' actions come after one), an admin's abort, a ban of one of its players
(``Hub.wake_seating``), a tournament's withdrawal or first call to a player, or when its
deadline falls due: every process looks for due rows every ``wake_poll_s`` and takes each
under a lease (a conditional UPDATE: one process gets it), so a deadline fires once in a
cluster, and after a restart since the rows are in SQL.
REST reads of a sleeping match do not wake it: its latest state is its logged one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from typing import Any, Protocol

from sqlalchemy import delete, exists, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Match, MatchSeat, MatchWakeup
from app.ops.metrics import METRICS
from app.sessions.session import GameSession

log = logging.getLogger(__name__)

WAKE_LEASE_MS = 30_000  # a process that took a due match and died: another takes it after this
WAKE_BATCH = 100  # due matches taken per look
WRITE_BATCH = 500  # rows written per transaction when many matches fall asleep at once


def wall_ms() -> int:
    return int(time.time() * 1000)


# ----- one session: may it sleep, and what is kept of it ---------------------------------------


def quiet_for_s(session: GameSession, loaded_at: float, now: float) -> float:
    """Seconds since anything happened to the match: its last move, a player leaving (the
    latest seat away), or its load (``loaded_at``, monotonic)."""
    clock = session.clock
    last = max([session.history.last_at_ms, *session.connections.away.values()])
    since_event = (clock.now() - last) / (1000 * clock.rate)
    return min(since_event, now - loaded_at)


def may_sleep(session: GameSession) -> bool:
    """Whether the match, as it is now, could leave memory (the idle time aside)."""
    if session.finished or session.peers or session.intake_closed or not session.idle():
        return False
    if session.races is not None and session.races.due_at() is not None:
        return False  # a grab race is being decided
    if any(bot.due_at() is not None for bot in session.bots.values()):
        return False
    return all(session.seats[seat].bot is None for seat in session.views.awaiting(session))


def due_wall_ms(session: GameSession) -> int | None:
    """The wall-clock time (ms) of the match's next deadline; None: nothing is ever due."""
    due = session.deadlines.next_due()
    if due is None:
        return None
    clock = session.clock
    return wall_ms() + int((due - clock.precise()) / clock.rate)


def carry_of(session: GameSession) -> dict[str, Any]:
    """What the log does not say of a sleeping match: its running turn clocks and banks, and
    each away seat's time of leaving (match ms), each seat already told of its table."""
    clocks = session.turn_clocks
    return {
        "running_since": {str(seat): at for seat, at in clocks.running_since.items()},
        "banks": {str(seat): left for seat, left in clocks.banks.items()},
        "away": {str(seat): at for seat, at in session.connections.away.items()},
        "called": sorted(session.connections.called),
    }


def apply_carry(session: GameSession, carry: dict[str, Any]) -> None:
    """A match rebuilt from its log takes back what it had when it fell asleep: its clocks
    were running all along (no time is forgiven), and its away seats left when they left."""
    clocks = session.turn_clocks
    clocks.resume(
        {int(s): int(at) for s, at in carry["running_since"].items()},
        {int(s): int(left) for s, left in carry["banks"].items()},
    )
    clocks.update(session.views.awaiting(session), session.clock.now(), None)
    away = session.connections.away
    away.clear()
    away.update({int(s): int(at) for s, at in carry["away"].items()})
    session.connections.called = {int(s) for s in carry["called"]}


# ----- the rows ---------------------------------------------------------------------------------


class Wakeups:
    """The ``match_wakeups`` rows: one per sleeping match."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self.sessionmaker = sessionmaker

    async def put(self, rows: list[tuple[int, int | None, dict[str, Any]]]) -> None:
        """Record ``(match_id, due_at, carry)`` of matches falling asleep."""
        for start in range(0, len(rows), WRITE_BATCH):
            batch = rows[start : start + WRITE_BATCH]
            async with self.sessionmaker() as db, db.begin():
                ids = [match_id for match_id, _, _ in batch]
                await db.execute(delete(MatchWakeup).where(MatchWakeup.match_id.in_(ids)))
                await db.execute(
                    insert(MatchWakeup),
                    [{"match_id": m, "due_at": due, "carry": carry} for m, due, carry in batch],
                )

    async def carry(self, match_id: int) -> dict[str, Any] | None:
        """The carry of a sleeping match; None: it is not asleep."""
        async with self.sessionmaker() as db:
            query = select(MatchWakeup.carry).where(MatchWakeup.match_id == match_id)
            return (await db.execute(query)).scalar_one_or_none()

    async def remove(self, match_ids: Iterable[int]) -> None:
        ids = list(match_ids)
        if ids:
            async with self.sessionmaker() as db, db.begin():
                await db.execute(delete(MatchWakeup).where(MatchWakeup.match_id.in_(ids)))

    async def due(self, now_ms: int) -> list[int]:
        """Sleeping matches whose deadline has come and that no live process is waking."""
        async with self.sessionmaker() as db:
            query = (
                select(MatchWakeup.match_id)
                .where(MatchWakeup.due_at <= now_ms)
                .where((MatchWakeup.taken_until.is_(None)) | (MatchWakeup.taken_until < now_ms))
                .order_by(MatchWakeup.due_at)
                .limit(WAKE_BATCH)
            )
            return list((await db.execute(query)).scalars())

    async def take(self, match_id: int, node_id: str, now_ms: int) -> bool:
        """Take a due match to wake it: True for exactly one process (the UPDATE is atomic;
        a second one finds the lease taken and changes nothing)."""
        async with self.sessionmaker() as db, db.begin():
            result = await db.execute(
                update(MatchWakeup)
                .where(MatchWakeup.match_id == match_id)
                .where(MatchWakeup.due_at <= now_ms)
                .where((MatchWakeup.taken_until.is_(None)) | (MatchWakeup.taken_until < now_ms))
                .values(taken_by=node_id, taken_until=now_ms + WAKE_LEASE_MS)
            )
            return bool(getattr(result, "rowcount", 0) == 1)

    async def awake_running(self) -> list[tuple[int, int]]:
        """Every unfinished match not asleep, as ``(id, started_wall_ms)``, oldest first."""
        asleep = exists().where(MatchWakeup.match_id == Match.id)
        query = (
            select(Match.id, Match.started_wall_ms)
            .where(Match.status == "running")
            .where(~asleep)
            .order_by(Match.id)
        )
        async with self.sessionmaker() as db:
            return [(match_id, started) for match_id, started in (await db.execute(query)).all()]

    async def asleep_seating(self, account_id: int) -> list[int]:
        """The sleeping matches with a seat of ``account_id``."""
        query = (
            select(MatchWakeup.match_id)
            .join(MatchSeat, MatchSeat.match_id == MatchWakeup.match_id)
            .where(MatchSeat.account_id == account_id)
        )
        async with self.sessionmaker() as db:
            return sorted(set((await db.execute(query)).scalars()))


# ----- the loop ---------------------------------------------------------------------------------


class Owners(Protocol):
    """The cluster's directory as the hub holds it (``Hub.placement``)."""

    node_id: str

    async def claim(self, match_id: int) -> str: ...

    async def release(self, match_ids: list[int]) -> None: ...


class Host(Protocol):
    """What the sleeper needs of the hub (``app/sessions/hub.py``)."""

    settings: Settings
    sessionmaker: async_sessionmaker[AsyncSession]
    sessions: dict[int, GameSession]

    @property
    def placement(self) -> Owners | None: ...

    async def get(self, match_id: int) -> GameSession: ...

    def busy_with(self, match_id: int) -> bool: ...

    def unload(self, match_id: int) -> GameSession | None: ...


class Sleeper:
    """The hub's sleep and wake-up loop (one per process)."""

    def __init__(self, hub: Host) -> None:
        self.hub = hub
        self.wakeups = Wakeups(hub.sessionmaker)
        self.after_s = hub.settings.hibernate_after_s
        self.poll_s = max(0.01, hub.settings.wake_poll_s)
        self.loaded_at: dict[int, float] = {}  # monotonic time each live match was loaded
        self._task: asyncio.Task[None] | None = None
        self._pass: asyncio.Future[None] | None = None  # the look under way

    @property
    def node_id(self) -> str:
        placement = self.hub.placement
        return placement.node_id if placement is not None else "local"

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="match-sleeper")

    async def stop(self) -> None:
        """End the loop once the look under way is done: a sleep half done would leave rows
        written for matches that stay awake."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._pass is not None:
            await self._pass
            self._pass = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            self._pass = asyncio.ensure_future(self._look())
            await asyncio.shield(self._pass)  # a cancel (``stop``) waits for it there

    async def _look(self) -> None:
        """Put the idle matches to sleep, then wake the due ones."""
        try:
            if self.after_s > 0:
                await self.sleep_idle()
            await self.wake_due()
        except Exception:
            log.exception("putting matches to sleep or waking them failed")

    def sleepy(self, session: GameSession, now: float) -> bool:
        loaded = self.loaded_at.get(session.match_id, now)
        # The idle time first: it costs nothing, where the seats awaited may build a view.
        return quiet_for_s(session, loaded, now) >= self.after_s and may_sleep(session)

    async def sleep_idle(self) -> list[int]:
        """Put every match idle long enough to sleep; returns their ids."""
        now = time.monotonic()
        hub = self.hub
        chosen = [s for s in hub.sessions.values() if not s.finished and self.sleepy(s, now)]
        if not chosen:
            return []
        written = {s.match_id: (due_wall_ms(s), carry_of(s)) for s in chosen}
        await self.wakeups.put([(m, due, carry) for m, (due, carry) in written.items()])
        # The writes gave the loop away: only a match unchanged meanwhile sleeps.
        slept, kept = [], []
        for session in chosen:
            match_id = session.match_id
            due, carry = written[match_id]
            still = hub.sessions.get(match_id) is session and self.sleepy(session, time.monotonic())
            if still and carry_of(session) == carry and _near(due_wall_ms(session), due):
                # A socket that got this session before its hello is closed 1012 if it
                # attaches now: it reconnects and wakes the match (``Hub.get``).
                session.close_intake()
                hub.unload(match_id)
                self.loaded_at.pop(match_id, None)
                slept.append(match_id)
            else:
                kept.append(match_id)
        await self.wakeups.remove(kept)
        if slept and hub.placement is not None:
            await hub.placement.release(slept)  # the next process asked for it claims it
            for match_id in slept:
                # Woken here meanwhile: its claim may have come before the release.
                if hub.busy_with(match_id):
                    await hub.placement.claim(match_id)
        if slept:
            METRICS.slept.inc(len(slept))
            log.info("%d matches fell asleep", len(slept))
        return slept

    async def wake_due(self) -> list[int]:
        """Wake each sleeping match whose deadline has come and that this process took;
        returns their ids. The session fires its deadline itself once started."""
        now_ms = wall_ms()
        woken = []
        for match_id in await self.wakeups.due(now_ms):
            if not await self.wakeups.take(match_id, self.node_id, now_ms):
                continue  # another process is waking it
            try:
                await self.hub.get(match_id)
            except Exception as error:
                # Another process serves it already (woken by a hello there), or it cannot
                # be loaded now: the lease lapses and it is tried again.
                log.warning("could not wake match %s: %r", match_id, error)
                continue
            await self.wakeups.remove([match_id])
            log.info("woke match %s: its deadline is due", match_id)
            METRICS.woken.inc()
            woken.append(match_id)
        return woken

    async def carry_on_load(self, match_id: int) -> dict[str, Any] | None:
        """What a match being loaded kept while asleep (None: it was not asleep)."""
        self.loaded_at[match_id] = time.monotonic()
        return await self.wakeups.carry(match_id)

    async def woke(self, match_id: int) -> None:
        """A sleeping match is live here again: its row goes (a failure leaves it for the
        wake-up loop, which finds the match live and removes it)."""
        try:
            await self.wakeups.remove([match_id])
        except Exception as error:
            log.warning("could not remove the wake-up of match %s: %r", match_id, error)

    def forget(self, match_id: int) -> None:
        self.loaded_at.pop(match_id, None)


def _near(a: int | None, b: int | None) -> bool:
    """Two computations of one due time, a few ms apart, name the same deadline."""
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 50
