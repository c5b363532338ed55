"""The session hub: owns every live GameSession, rebuilds unfinished ones from the action log."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import DatabaseUnavailable, database_unavailable
from app.db.repositories import MatchRepository
from app.errors import AppError, Conflict
from app.ops.logs import in_match_context
from app.sessions import wire
from app.sessions.reads import MatchReads
from app.sessions.rebuilt import Rebuilt
from app.sessions.replay import replayed
from app.sessions.session import GameSession
from app.sessions.sleep import Sleeper, apply_carry
from app.sessions.turns import TurnListener

log = logging.getLogger(__name__)

FINISHED_KEPT = 256


class Placement(Protocol):
    """Who owns which match when several processes serve (``app.cluster.directory``)."""

    node_id: str

    async def claim(self, match_id: int) -> str: ...

    async def adoptable(self, matches: list[tuple[int, int]]) -> list[int]: ...

    async def release(self, match_ids: list[int]) -> None: ...


class Restarting(AppError):
    """This process is stopping: the match is to be found again in a moment (503, retry)."""

    status = 503

    def __init__(self) -> None:
        super().__init__("server/restarting", "this server is restarting; reconnect")


class OwnedElsewhere(AppError):
    """The match lives in another live process (``node_id``): relay to it, do not load it."""

    status = 409

    def __init__(self, match_id: int, node_id: str) -> None:
        super().__init__("match/elsewhere", f"match {match_id} is served by {node_id}")
        self.node_id = node_id


class Hub:
    """Live matches of this process: at most one session (and one task) per match.

    With a ``placement`` (several processes), a match is loaded only once this process has
    claimed it; a match another live process owns raises ``OwnedElsewhere``.
    """

    def __init__(
        self,
        settings: Settings,
        sessionmaker: async_sessionmaker[AsyncSession],
        action_log: ActionLogWriter,
    ) -> None:
        self.settings = settings
        self.sessionmaker = sessionmaker
        self.action_log = action_log
        self.sessions: dict[int, GameSession] = {}
        self.tasks: dict[int, asyncio.Task[None]] = {}
        # Loads in flight, one per match; each is dropped once done (a refused id, such as
        # a match that does not exist, leaves nothing behind).
        self._loading: dict[int, asyncio.Future[GameSession]] = {}
        self._finished_order: list[int] = []
        self._stopping = False
        self.draining = False  # handing over (``hand_over``): no match is loaded any more
        self._reloads: set[asyncio.Future[GameSession]] = set()
        # Called with the match id once a match's result is written (ladders, tournaments).
        self.finish_listeners: list[Callable[[int], None]] = []
        # Told when a match starts or stops awaiting a player (``app.sessions.turns``).
        self.turn_listeners: list[TurnListener] = []
        self.placement: Placement | None = None
        # A match's state for REST readers: from its live session, or rebuilt from snapshots.
        self.reads = MatchReads(self)
        # Idle matches leave memory and come back when due or asked for (``sleep.py``).
        self.sleeper = Sleeper(self)

    async def start(self) -> None:
        """Rebuild every unfinished match that is not asleep by replaying its log, start its
        task, and start putting idle matches to sleep and waking due ones."""
        await self.adopt()
        self.sleeper.start()

    async def adopt(self) -> None:
        """Load the unfinished matches not running here; with several processes, only this
        process's own and those of dead processes (run again every few seconds for those)."""
        running = await self.sleeper.wakeups.awake_running()  # a sleeping match waits in SQL
        candidates = [(match_id, at) for match_id, at in running if match_id not in self.sessions]
        if self.placement is None:
            waiting = [match_id for match_id, _ in candidates]
        else:
            waiting = await self.placement.adoptable(candidates) if candidates else []
        rebuilt = 0
        for match_id in waiting:
            try:
                await self.get(match_id)
                rebuilt += 1
            except OwnedElsewhere:
                pass  # another process claimed it first
            except Exception:
                log.exception("could not rebuild match %s", match_id)
        if rebuilt:
            log.info("rebuilt %d unfinished matches", rebuilt)

    async def stop(self) -> None:
        self._stopping = True
        await self.sleeper.stop()
        await self._end_tasks()
        for session in self.sessions.values():
            for peer in list(session.peers):
                peer.close(1001)

    async def hand_over(self, flush_timeout_s: float = 10.0) -> None:
        """SIGTERM (``app.ops.shutdown``): take no more actions or matches, write every
        accepted action (its mover acknowledged, everyone told), give the matches up (with
        several processes another may claim each at once), then close their sockets with 1012
        (service restart) so that the clients reconnect at once."""
        self.draining = True
        self._stopping = True  # no rebuilds from here on
        log.warning("stopping: handing over %d matches", len(self.sessions))
        await self.sleeper.stop()
        for session in self.sessions.values():
            session.close_intake()
        await self._end_tasks()
        if not await self.action_log.flush(flush_timeout_s):
            log.warning("handing over: some actions could not be written (never acknowledged)")
        if self.placement is not None:
            await self.placement.release(list(self.sessions))
        for session in self.sessions.values():
            for peer in list(session.peers):
                peer.close(1012)
        log.warning("stopping: %d matches handed over", len(self.sessions))

    async def _end_tasks(self) -> None:
        """Cancel every session task and wait until each has ended."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def get(self, match_id: int) -> GameSession:
        """The match's session, loaded (and started, while it runs) on first use.

        Raises ``NotFound`` ``match/not_found`` for an unknown match and ``OwnedElsewhere``
        for one another live process serves.
        """
        session = self.sessions.get(match_id)
        if session is not None:
            return session
        if self.draining:
            raise Restarting()
        loading = self._loading.get(match_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load_and_start(match_id))
            self._loading[match_id] = loading
            loading.add_done_callback(functools.partial(self._loaded, match_id))
        # Shielded: a caller that goes away (its socket closed) does not cancel the others' load.
        return await asyncio.shield(loading)

    def _loaded(self, match_id: int, loading: asyncio.Future[GameSession]) -> None:
        if self._loading.get(match_id) is loading:
            del self._loading[match_id]
        if not loading.cancelled():
            loading.exception()  # retrieved here, whether or not a caller still waits

    async def _load_and_start(self, match_id: int) -> GameSession:
        session = self.sessions.get(match_id)
        if session is not None:
            return session
        try:
            carry = await self.sleeper.carry_on_load(match_id)
            session = await self._load(match_id, carry)
        except Exception as error:
            if isinstance(error, AppError) or not database_unavailable(error):
                raise
            # The database is down or restarting: a 503 / a socket closed 1013 (retry).
            raise DatabaseUnavailable(error) from error
        if self.placement is not None:
            owner = await self.placement.claim(match_id)
            if owner != self.placement.node_id:
                raise OwnedElsewhere(match_id, owner)
        self.sessions[match_id] = session
        if carry is not None:
            await self.sleeper.woke(match_id)
        if session.finished:
            self._remember_finished(match_id)
        else:
            session.turns.listener = self._on_turn
            # A new match tells its first players; one rebuilt from its log (a restart, an
            # adoption, a wake-up) awaits whom its players were told of already.
            new = session.version == 0 and carry is None
            session.turns.moved(session.views.awaiting(session), tell=new)
            self._start_task(session)
        return session

    async def wake_seating(self, account_id: int) -> list[int]:
        """Wake the sleeping matches where ``account_id`` has a seat (a ban resigns the seats
        of live matches); returns those now live here (another process may have one)."""
        woken = []
        for match_id in await self.sleeper.wakeups.asleep_seating(account_id):
            with contextlib.suppress(OwnedElsewhere):
                await self.get(match_id)
                woken.append(match_id)
        return woken

    def busy_with(self, match_id: int) -> bool:
        """Whether the match is live here or being loaded."""
        return match_id in self.sessions or match_id in self._loading

    def unload(self, match_id: int) -> GameSession | None:
        """Take a live match out of this process (it fell asleep, or another process owns
        it now): its task is cancelled; its sockets are the caller's to close."""
        session = self.sessions.pop(match_id, None)
        task = self.tasks.pop(match_id, None)
        if task is not None:
            task.cancel()
        self.sleeper.forget(match_id)
        return session

    async def keep_owned(self) -> None:
        """Drop the running sessions another process has claimed (after this process lost
        touch with the cluster for longer than the TTL): their clients reconnect, reaching
        the new owner, which rebuilt the match from the log. Nothing accepted is lost:
        an action is acknowledged only once it is in the log."""
        if self.placement is None:
            return
        for match_id, session in list(self.sessions.items()):
            if session.finished:
                continue
            owner = await self.placement.claim(match_id)
            if owner == self.placement.node_id:
                continue
            log.warning("match %s is now served by %s; dropping it here", match_id, owner)
            self.unload(match_id)
            for peer in list(session.peers):
                peer.close(1012)

    async def abort(self, match_id: int, code: str, message: str) -> None:
        """End a live match here with no result (status ``aborted``, no ledger or rating
        change): every socket hears an ``error`` ``code`` and is closed normally (1000).

        Raises ``NotFound``, ``OwnedElsewhere`` (another process serves it: abort it there)
        and ``Conflict`` ``match/over`` for a match already over.
        """
        session = await self.get(match_id)
        if session.finished:
            raise Conflict("match/over", f"match {match_id} is over already")
        session.finished = True  # from here on every action is answered match/over
        task = self.tasks.pop(match_id, None)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        session.turn_clocks.clear()
        session.turns.moved(())
        async with self.sessionmaker() as db:
            await MatchRepository(db).finish(
                match_id,
                status="aborted",
                version=session.version,
                result=None,
                ledger={},
                forfeits=session.forfeits,
            )
        log.warning("match %s aborted", match_id, extra={"match_id": match_id})
        text = wire.dumps(wire.error(code, message))
        for peer in list(session.peers):
            peer.send_text(text)
            peer.close(1000)
        self._remember_finished(match_id)

    def live_count(self) -> int:
        """How many matches this process is playing (loaded and not finished)."""
        return sum(1 for session in self.sessions.values() if not session.finished)

    def _start_task(self, session: GameSession) -> None:
        # Everything the session logs carries its match id (``app.ops.logs``).
        context = in_match_context(session.match_id)
        task = asyncio.get_running_loop().create_task(
            session.run(), name=f"match-{session.match_id}", context=context
        )
        self.tasks[session.match_id] = task
        task.add_done_callback(lambda done: self._task_done(session, done))

    def _task_done(self, session: GameSession, task: asyncio.Task[None]) -> None:
        self.tasks.pop(session.match_id, None)
        if self._stopping or task.cancelled():
            return
        error = task.exception()
        if error is None:
            return
        # The session's memory may be ahead of the log (a write failed after apply): drop it,
        # close its sockets (clients reconnect and resume), and rebuild from the log.
        log.error("match %s session failed: %r; rebuilding", session.match_id, error)
        self.sessions.pop(session.match_id, None)
        for peer in list(session.peers):
            peer.close(1011)
        asyncio.get_running_loop().call_later(0.5, self._reload, session.match_id)

    def _reload(self, match_id: int) -> None:
        if not self._stopping:
            task = asyncio.ensure_future(self.get(match_id))
            self._reloads.add(task)
            task.add_done_callback(self._reloads.discard)

    def _on_finish(self, match_id: int) -> None:
        log.info("match %s finished", match_id, extra={"match_id": match_id})
        self._remember_finished(match_id)
        for listener in self.finish_listeners:
            try:
                listener(match_id)
            except Exception:
                log.exception("finish listener failed for match %s", match_id)

    def _on_turn(self, match_id: int, account_id: int, awaiting: bool) -> None:
        for listener in self.turn_listeners:
            try:
                listener(match_id, account_id, awaiting)
            except Exception:
                log.exception("turn listener failed for match %s", match_id)

    def _remember_finished(self, match_id: int) -> None:
        # The last FINISHED_KEPT finished matches stay loaded. An older one with a socket open
        # stays in the order until a later pass finds it unwatched (out of it: loaded for good).
        order = self._finished_order
        order.append(match_id)
        index = 0
        while len(order) > FINISHED_KEPT and index < len(order):
            old = order[index]
            session = self.sessions.get(old)
            if session is not None and session.finished and session.peers:
                index += 1
                continue
            del order[index]
            if session is not None and session.finished:
                self.sessions.pop(old, None)

    async def _load(self, match_id: int, carry: dict[str, Any] | None = None) -> GameSession:
        """The match's session built on its log rebuilt (and, woken from sleep, what it
        kept: ``carry``), its result written if it was missing."""
        session = GameSession(
            await self.rebuild(match_id),
            sessionmaker=self.sessionmaker,
            action_log=self.action_log,
            on_finish=self._on_finish,
            rebuild=self.rebuild,
        )
        if carry is not None and not session.finished:
            apply_carry(session, carry)
        if session.result_unwritten:
            # Killed between the last action and the result write: write the result now.
            await session.record_result()
        return session

    async def rebuild(self, match_id: int) -> Rebuilt:
        """The match as its log has it, touching nothing else (what a session is built on,
        and restores its state from: ``GameSession.restore``)."""
        return await replayed(match_id, settings=self.settings, sessionmaker=self.sessionmaker)
