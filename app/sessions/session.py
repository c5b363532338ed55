"""GameSession: the single writer of one live match (receive, check, log, advance, announce).

Read this module top to bottom: how a command is received (``submit``: at once, or queued
for the task of ``app/sessions/actor.py``), then the path of an action (check, log, advance,
announce), then connections and restoring. Each collaborator has one job and its own module
(``README.md`` here): ``Replies`` answers each action once, ``SeatViews`` builds what each
seat sees, ``Announcer`` tells the connections, ``RaceDesk`` arbitrates grab races,
``Deadlines`` says what time has made due (an intent, which ``_apply_due`` applies),
``Connections`` holds the sockets (each a ``MatchPeer``), ``ActionLogWriter`` makes a change
durable. None of them writes the match's state or calls back into the session:
``engine.apply`` and ``engine.tick`` are called here only.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.action_log import ActionLogWriter
from app.ops.metrics import METRICS
from app.protocol.match import Ended
from app.races.claims import Decision
from app.sessions import recovery
from app.sessions.actor import Actor
from app.sessions.announce import Announcer
from app.sessions.bots import replan_all
from app.sessions.commands import Attach, Change, Command, Detach, Submit, Told
from app.sessions.connections import Connections
from app.sessions.deadlines import Deadlines
from app.sessions.intents import BotMove, Due, Forfeit, SettleRace, Tick, TimeOut
from app.sessions.races import RaceDesk
from app.sessions.rebuilt import Rebuilt
from app.sessions.replies import Replies
from app.sessions.results import write_result, write_result_retrying
from app.sessions.seat_views import SeatViews
from app.sessions.turns import TurnWatch
from engines.base import ActionError, Event
from engines.playout import TICK

log = logging.getLogger(__name__)

RESIGN: dict[str, Any] = {"type": "resign"}


class GameSession(Actor):
    """Owns one match's engine state; every change goes through it, in arrival order.

    An accepted action is written to the action log before anyone hears of it; then every
    connection gets its own filtered events and view. A failure while handling one client's
    message answers that client ``server/internal`` and has the state restored in place from
    the log (``app/sessions/recovery.py``); every other seat plays on.
    """

    def __init__(
        self,
        match: Rebuilt,
        *,
        sessionmaker: async_sessionmaker[AsyncSession],
        action_log: ActionLogWriter,
        on_finish: Callable[[int], None] | None = None,
        rebuild: Callable[[int], Awaitable[Rebuilt]] | None = None,
    ) -> None:
        """The match as its log rebuilt it (``replay.py``), not yet started. The hub's
        ``on_finish`` is told once the result is written; its ``rebuild`` serves ``restore``."""
        super().__init__()  # the inbox and the task (``app/sessions/actor.py``)
        self.match_id, self.engine, self.seats = match.match_id, match.engine, match.seats
        self.seed, self.rated, self.version = match.seed, match.rated, match.version
        self.clock, self.time_control = match.clock, match.time_control
        self.turn_clocks = match.turn_clocks
        self._clocked = match.time_control.clocked
        self.finished = match.aborted or match.engine.outcome(match.state) is not None
        self.result_unwritten = match.result_unwritten
        # Once the result is recorded: told to every connection, and to later ones on attaching.
        self.ended: Ended | None = match.ended
        self.sessionmaker, self.action_log = sessionmaker, action_log
        self.on_finish, self.rebuild = on_finish, rebuild
        self.intake_closed = False  # handing over: nothing new is taken (``close_intake``)
        # The collaborators.
        self.connections = Connections(self.seats, self.clock.now())
        self.peers = self.connections.peers
        self.replies = Replies(match.replies)
        self.views = SeatViews(self)
        self.turns = TurnWatch(self.match_id, self.seats)  # told per account on change
        self.announce = Announcer(self)
        self._take(match)
        self._refresh_clocks(acted=None)

    # ----- the inbox and the task ----------------------------------------------------------

    def submit(self, command: Command) -> None:
        """Receive a command (the one entry: the gateway's ``_Conversation.handle``). A plain
        action with nothing else in hand takes the fast lane (for speed: ``README.md`` here,
        "The path of an action"): checked and staged here, announced from the log's callback.
        Anything else goes through the inbox to the task, along the same ``_check`` and
        ``_log``."""
        if self.intake_closed:
            if isinstance(command, Attach):
                command.peer.close(1012)
            elif isinstance(command, Submit):
                self.replies.refuse_restarting(command)
            return
        down = self.action_log.unavailable is not None and not self.finished
        if down and type(command) is Submit:
            # The database cannot be written: refused at once, unless the action is held.
            peer, seq = command.peer, command.client_seq
            held = self.action_log.holds(self.match_id, peer.account_id, command.seat, seq)
            self.replies.refuse_while_down(command, held, self.clock.now())
            return
        if type(command) is Submit and not command.grab and self.take_if_idle():
            try:
                change = self._checked(command)
                if change is None:
                    self.release()
                else:
                    self._log(change)
            except Exception as error:
                self.fail(error)
            return
        if self.finished and not self.waits():
            self._handle_at_once(command)  # a finished match has no task; nothing awaits
            return
        self.enqueue(command)

    async def handle(self, command: Command) -> None:
        """The task's way with a command (``Actor``): an action is checked, then committed."""
        if isinstance(command, Submit):
            change = self._checked(command)
            if change is not None:
                await self._commit(change)
        else:
            self._handle_at_once(command)

    def _handle_at_once(self, command: Command) -> None:
        """A command that writes nothing to the log; a failure answers its sender."""
        if isinstance(command, Told):
            self.connections.told(command.account_id, self.clock.now())
            return
        try:
            if isinstance(command, Submit):
                self._check(command)  # the match is over: answered here
            elif isinstance(command, Attach):
                self.announce.attach(self, command.peer, command.last_version)
            elif isinstance(command, Detach):
                self.connections.leave(command.peer, self.clock.now(), playing=not self.finished)
            else:
                self.announce.chat(command.peer, command.text)
        except Exception:
            recovery.answer_failure(self, command, restoring=False)

    def done(self) -> bool:
        return self.finished

    def next_due(self) -> float | None:
        """When the task should wake for ``fire_due`` (event-loop time: ``time.monotonic``)."""
        due = None if self.finished else self.deadlines.next_due()
        return None if due is None else self.clock.monotonic_at(due) + 0.0005

    async def fire_due(self) -> None:
        """Apply whatever time has made due (``Deadlines.due``), one intent at a time,
        earliest first, committing each change it makes."""
        for _ in range(64):
            if self.finished or self.urgent_pending():
                return
            intent = self.deadlines.due(self.clock.now())
            if intent is None:
                return
            change = self._apply_due(intent)
            if change is not None:
                await self._commit(change)

    def _apply_due(self, intent: Due) -> Change | None:
        """Apply one intent to the engine: the change to log, or None when it changed nothing
        (a tick with no events, a refused bot move, a race decided with no winner, a
        forfeit of a seat already out)."""
        match intent:
            case Tick(deadline, at_ms):
                events = self.engine.tick(self.state, at_ms)
                if events:
                    return Change(None, TICK, at_ms, events, "tick")
                self.deadlines.tick_changed_nothing(deadline)
                return None
            case SettleRace(now):
                # The desk decides the cell whose window closed, each claim tried with
                # ``_apply_grab``: the winner's grab is the change (``Settlement.change``).
                settled = self.races.settle(now, self._apply_grab) if self.races else None
                return None if settled is None else settled.change(self._grab_decided)
            case TimeOut(seat, action, at_ms):
                try:
                    events = self.engine.apply(self.state, seat, action, at_ms)
                except ActionError:
                    return self._forfeit(Forfeit(seat, "time", at_ms))
                return Change(seat, action, at_ms, events, "timeout")
            case Forfeit():
                return self._forfeit(intent)
            case BotMove(seat, action, at_ms):
                try:
                    events = self.engine.apply(self.state, seat, action, at_ms)
                except ActionError as refusal:
                    log.debug("bot %s refused %s: %s", seat, action, refusal.code)
                    self.deadlines.bot_refused(seat, self.clock.now())
                    return None
                return Change(seat, action, at_ms, events, "bot")

    def _forfeit(self, intent: Forfeit) -> Change | None:
        """Resign the seat for the intent's reason; a seat already out is skipped."""
        seat, at_ms = intent.seat, intent.at_ms
        try:
            events = self.engine.apply(self.state, seat, RESIGN, at_ms)
        except ActionError:
            self.turn_clocks.stop(seat, at_ms)
            return None
        self.forfeits[str(seat)] = intent.reason
        # The logged action stays a plain resign so replay feeds the engine what it accepted;
        # the reason lives in ``cause`` (and in the match's forfeits at the end).
        return Change(seat, dict(RESIGN), at_ms, events, f"forfeit_{intent.reason}")

    def _grab_decided(self, decision: Decision) -> None:
        self.replies.grab_decided(decision, self.clock.now())

    def _apply_grab(self, seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
        """One claim of a race tried on the engine (``RaceDesk.settle``)."""
        return self.engine.apply(self.state, seat, action, at_ms)

    # ----- the path of an action: check, log, advance, announce ---------------------------

    def _checked(self, command: Submit) -> Change | None:
        """``_check``, guarded: an unexpected failure (an engine bug may have half-changed
        the state) answers the sender ``server/internal`` and has the state restored from the
        log before anything else is handled; nothing of it is logged or broadcast."""
        try:
            return self._check(command)
        except Exception:
            recovery.answer_failure(self, command, restoring=True)
            self.urgently(self.restore)
            return None

    def _check(self, command: Submit) -> Change | None:
        """Check an action and apply it to the engine: the change to log, or None when it was
        answered here (a repeat, a refusal, a grab handed to the race desk)."""
        if self.replies.answered_before(command):
            return None
        if self.finished:
            self.replies.answer(command, self.clock.now(), "match/over", "the match is over")
            return None
        if command.grab and self.races is not None and command.measured is not None:
            decision = self.races.claim(command, len(self.seats), self.peers, self.bots)
            if decision is not None:
                self.replies.grab_decided(decision, self.clock.now())
            return None
        if command.version is not None and command.version != self.version:
            message = f"action based on version {command.version}, match is at {self.version}"
            self.replies.answer(command, self.clock.now(), "action/stale_version", message)
            return None
        at_ms = self.clock.now()
        try:
            events = self.engine.apply(self.state, command.seat, command.action, at_ms)
        except ActionError as refusal:
            self.replies.answer(command, at_ms, refusal.code, refusal.message)
            return None
        acknowledge = functools.partial(self.replies.acknowledge, command, at_ms)
        return Change.played(command, at_ms, events, acknowledge)

    async def _commit(self, change: Change) -> None:
        """The task's ``_log``: returns once the change is durable and announced; raises
        when its row could not be written (the task then fails, and the hub rebuilds the
        match from the log, where the unacknowledged action is absent)."""
        logged: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._log(change, logged)
        await logged

    def _log(self, change: Change, logged: asyncio.Future[None] | None = None) -> None:
        """Stage the change as the next version's row with the action log (written with
        others in one transaction), with the grab races it ends (their refused claims are
        recorded in this very row). Once it is durable, and not before, the match advances
        and everyone hears of it (``_logged``); while the database cannot be written the row
        is held, and nobody told. ``logged``: the task awaits it; without it (the fast lane)
        the session is released once announced."""
        version, arbitration = self.version + 1, change.arbitration
        decided: list[Decision] = []
        if self.races is not None:
            living = sorted(self.engine.to_act(self.state))
            decided = self.races.observe(version, change.events, self.clock.precise(), living)
            arbitration = self.races.attach(arbitration)
        accepted = time.perf_counter()

        def written(error: BaseException | None) -> None:
            try:
                if error is not None:
                    raise error
                METRICS.action_logged(self.engine.id, time.perf_counter() - accepted)
                self._logged(change, version, decided)
            except Exception as failure:
                if logged is None:
                    self.fail(failure)
                elif not logged.done():
                    logged.set_exception(failure)
                return
            if logged is None:
                self.release()
            elif not logged.done():  # the task that waited was cancelled (the hub stopping)
                logged.set_result(None)

        self.action_log.stage(change.log_row(self.match_id, version, arbitration), written)

    def _logged(self, change: Change, version: int, decided: list[Decision]) -> None:
        """The change is durable: advance, and announce; a change that ended the match is
        announced once its result is recorded (awaited: the task does it next)."""
        if self._advance(change, version):
            self.urgently(functools.partial(self._finish, change, version, decided))
        else:
            self._announce(change, version, decided)

    def _advance(self, change: Change, version: int) -> bool:
        """The change is logged: it is the match's current version now. True when it ended
        the match (its result is then recorded before anyone hears)."""
        self.version = version
        self.clock.observe(change.at_ms)
        self.history.append_json(version, change.events_json, change.at_ms)  # the row's text
        self.deadlines.moved()  # the seat views move on by themselves: ``SeatViews._built``
        return self.engine.outcome(self.state) is not None

    async def _finish(self, change: Change, version: int, decided: list[Decision]) -> None:
        """The last move is logged: record the result, then announce. While the database
        cannot be written the result (and the news) waits, tried again until written."""
        await self.record_result(retry=True)
        self._announce(change, version, decided)
        if self.ended is not None:
            self.announce.ended(self.ended)

    def _announce(self, change: Change, version: int, decided: list[Decision]) -> None:
        """Tell everyone about a logged change (``Announcer.version``); then bots and clocks
        move on."""
        self.announce.version(self, change, version, decided)
        if not self.finished:
            if self.bots:
                replan_all(self.bots, self.engine, self.state, self.clock.now(), change.events)
            self._refresh_clocks(acted=change.seat)

    async def record_result(self, *, retry: bool = False) -> None:
        """Write the match's result, ledger and race flags (``retry``: tried again while the
        database cannot be written); the match is over from here."""
        flags = self.races.flags() if self.races is not None else None
        write = write_result_retrying if retry else write_result
        self.ended = await write(self.sessionmaker, self, self.match_id, self.forfeits, flags)
        self.finished = True
        self.result_unwritten = False
        self.turn_clocks.clear()
        for bot in self.bots.values():
            bot.plan = None
        if self.on_finish is not None:
            self.on_finish(self.match_id)

    def close_intake(self) -> None:
        """This process is handing the match over (``Hub.hand_over``): from now on an action
        is refused with ``server/restarting`` (retry: send it again once reconnected; it was
        not played) and a new connection is closed with 1012."""
        self.intake_closed = True

    # ----- connections and restoring ------------------------------------------------------

    def seats_of(self, account_id: int | None) -> list[int]:
        return self.connections.seats_of(account_id)

    def _refresh_clocks(self, acted: int | None) -> None:
        """The turn clocks after a version (``acted``: the seat that moved), told if their
        deadlines changed."""
        if self.finished or not self._clocked:
            return
        if self.turn_clocks.update(self.views.awaiting(self), self.clock.now(), acted):
            self.announce.clocks()

    async def restore(self) -> None:
        """The match restored in place from its action log (``recovery.rebuilt``), its
        collaborators built on it as on loading (``_take``); connections, clocks and the
        answers to each client's last action are kept."""
        self._take(await recovery.rebuilt(self))
        self.turns.moved(self.views.awaiting(self))
        if self.races is not None and not self.finished:
            self.races.refresh_links(len(self.seats), self.peers, self.bots)

    def _take(self, match: Rebuilt) -> None:
        """The match's state as its log rebuilt it, with what derives from it: the history,
        forfeits and bots (planning now), the race desk, the deadlines; whatever the seat
        views built before is dropped (the next patches carry whole views)."""
        self.state, self.history, self.forfeits = match.state, match.history, match.forfeits
        self.bots = match.bots
        self.views.clear(self)
        if not self.finished:
            replan_all(self.bots, self.engine, self.state, self.clock.now(), None)
        self.races = RaceDesk.for_match(
            self.engine, self.state, self.seed, self.clock, self.history, self.version
        )
        self.deadlines = Deadlines.of(self)
