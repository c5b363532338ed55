"""GameSession: the single writer of one live match (receive, check, log, advance, announce).

Read this module top to bottom: how a command is received (``submit``: at once, or queued
for the task of ``app/sessions/actor.py``), then the path of an action (check, log, advance,
announce), then connections and clocks. Each collaborator has one job and its own module
(``README.md`` here): ``Replies`` answers each action once, ``SeatViews`` builds what each
seat sees, ``RaceDesk`` arbitrates grab races, ``Deadlines`` says what time has made due (an
intent, which ``_apply_due`` applies), ``Connections`` holds the sockets (each a
``MatchPeer``), ``ActionLogWriter`` makes a change durable. None of them writes the match's
state or calls back into the session: ``engine.apply`` and ``engine.tick`` are called here
only.
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
from app.db.engine import database_unavailable
from app.ops.metrics import METRICS
from app.protocol.match import Ended
from app.races.claims import Decision
from app.sessions import recovery, wire
from app.sessions.actor import Actor
from app.sessions.bots import BotSeat, replan_all
from app.sessions.clock import MatchClock
from app.sessions.commands import (
    Attach,
    Change,
    Chat,
    Command,
    Detach,
    History,
    SeatInfo,
    Submit,
    Told,
)
from app.sessions.connections import Connections
from app.sessions.deadlines import Deadlines
from app.sessions.intents import BotMove, Due, Forfeit, SettleRace, Tick, TimeOut
from app.sessions.races import RaceDesk
from app.sessions.replies import Answers, Replies, key_of
from app.sessions.results import write_result
from app.sessions.seat_views import SeatViews
from app.sessions.timecontrol import TimeControl, TurnClocks
from app.sessions.turns import TurnWatch
from app.sessions.welcome import welcome
from engines.base import ALL, ActionError, Engine, Event, State, events_for
from engines.playout import TICK

log = logging.getLogger(__name__)

RESIGN: dict[str, Any] = {"type": "resign"}

RESULT_RETRY_S = 0.5  # between tries of a result write while the database cannot be written


class GameSession(Actor[Command]):
    """Owns one match's engine state; every change goes through it, in arrival order.

    An accepted action is written to the action log before anyone hears of it; then every
    connection gets its own filtered events and view. A failure while handling one client's
    message answers that client ``server/internal`` and has the state restored in place from
    the log (``app/sessions/recovery.py``); every other seat plays on.
    """

    def __init__(
        self,
        *,
        match_id: int,
        engine: Engine,
        state: State,
        seats: list[SeatInfo],
        version: int,
        clock: MatchClock,
        time_control: TimeControl,
        sessionmaker: async_sessionmaker[AsyncSession],
        action_log: ActionLogWriter,
        history: History,
        bots: dict[int, BotSeat],
        replies: Answers,
        forfeits: dict[str, Any],
        rated: bool,
        on_finish: Callable[[int], None] | None = None,
        turn_clocks: TurnClocks | None = None,
        seed: int = 0,
        rebuild: Callable[[int], Awaitable[GameSession]] | None = None,
    ) -> None:
        super().__init__()  # the inbox and the task (``app/sessions/actor.py``)
        self.match_id = match_id
        self.engine = engine
        self.state = state
        self.seats = seats
        self.version = version
        self.finished = engine.outcome(state) is not None
        self.result_unwritten = False  # loaded from a log that ended before its result was
        self.rated = rated
        self.history = history
        self.bots = bots
        self.forfeits = forfeits
        self.clock = clock
        self.time_control = time_control
        self.turn_clocks = turn_clocks or TurnClocks(time_control)
        self.sessionmaker = sessionmaker
        self.action_log = action_log
        self.on_finish = on_finish
        # The ``ended`` message, once the result is recorded (told to every connection then,
        # and to each later one after its welcome).
        self.ended: Ended | None = None
        self.rebuild = rebuild  # the hub's: this match afresh from its log (``restore``)
        self.intake_closed = False  # handing over: nothing new is taken (``close_intake``)
        # The collaborators.
        self.connections = Connections(seats, clock.now())
        self.peers = self.connections.peers
        self.replies = Replies(replies)
        self.views = SeatViews(self)
        self.races = RaceDesk.for_match(engine, state, seed, clock, history, version)
        self.deadlines = self._new_deadlines()
        self.turns = TurnWatch(match_id, seats)  # whose turn it is, told per account on change
        self._refresh_clocks(acted=None)

    # ----- the inbox and the task ----------------------------------------------------------

    def submit(self, command: Command) -> None:
        """Receive a command (the one entry: the gateway's ``_Conversation.handle``). A plain
        action with nothing else in hand takes the fast lane: checked and applied here, its
        log row staged, and announced from the log's callback. Anything else goes through
        the inbox to the task, along the same ``_check`` and ``_log``. The fast lane is only
        for speed (no task wake-up between a move and its broadcast, and the row joins this
        loop turn's group commit): ``README.md`` here, "The path of an action"."""
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
        if type(command) is Submit and not command.grab and self.idle():
            self.take()
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
                self._attach(command)
            elif isinstance(command, Detach):
                self.connections.leave(command.peer, self.clock.now(), playing=not self.finished)
            else:
                self._chat(command)
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
                return self._settle_race(now) if self.races is not None else None
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

    def _settle_race(self, now: float) -> Change | None:
        """The race desk decides the cell whose window closed, each claim tried with
        ``_apply_grab``: the winner's grab as a change, or None (``Settlement.change``)."""
        assert self.races is not None
        settled = self.races.settle(now, self._apply_grab)
        if settled is None:
            return None
        return settled.change(self._grab_decided)

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
            self.races.refresh_links(len(self.seats), self.peers, self.bots)
            cell = command.action.get("cell")
            key, seq = key_of(command), command.client_seq
            decision = self.races.grab(command.peer, command.seat, key, seq, cell, command.measured)
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
        return Change(
            command.seat,
            command.action,
            at_ms,
            events,
            "player",
            account_id=command.peer.account_id,
            client_seq=command.client_seq,
            arbitration=command.arbitration,
            before_broadcast=functools.partial(self.replies.acknowledge, command, at_ms),
        )

    async def _commit(self, change: Change) -> None:
        """The task's ``_log``: returns once the change is durable and announced; raises
        when its row could not be written (the task then fails, and the hub rebuilds the
        match from the log, where the unacknowledged action is absent)."""
        logged: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._log(change, logged)
        await logged

    def _log(self, change: Change, logged: asyncio.Future[None] | None = None) -> None:
        """Stage the change's row with the action log (written with others in one
        transaction). Once it is durable, and not before, the match advances and everyone
        hears of it (``_logged``). While the database cannot be written the row is held, and
        nobody told, until it can. ``logged``: the task awaits it; without it (the fast lane)
        the session is released once announced."""
        row, ended = self._log_row(change)
        accepted = time.perf_counter()

        def written(error: BaseException | None) -> None:
            try:
                if error is not None:
                    raise error
                METRICS.commit_seconds.observe(time.perf_counter() - accepted)
                self._logged(change, row["version"], ended)
            except Exception as failure:
                if logged is None:
                    self.fail(failure)
                else:
                    logged.set_exception(failure)
                return
            if logged is None:
                self.release()
            else:
                logged.set_result(None)

        self.action_log.stage(row, written)

    def _logged(self, change: Change, version: int, ended: list[Decision]) -> None:
        """The change is durable: advance, and announce; a change that ended the match is
        announced once its result is recorded (awaited: the task does it next)."""
        if self._advance(change, version):
            self.urgently(functools.partial(self._finish, change, version, ended))
        else:
            self._announce(change, version, ended)

    def _log_row(self, change: Change) -> tuple[dict[str, Any], list[Decision]]:
        """The next version's log row, with the grab races this change ends (their refused
        claims are recorded in this very row)."""
        version = self.version + 1
        ended: list[Decision] = []
        arbitration = change.arbitration
        if self.races is not None:
            living = sorted(self.engine.to_act(self.state))
            ended = self.races.observe(version, change.events, self.clock.precise(), living)
            arbitration = self.races.attach(arbitration)
        row = change.log_row(self.match_id, version, arbitration)
        return row, ended

    def _advance(self, change: Change, version: int) -> bool:
        """The change is logged: it is the match's current version now. True when it ended
        the match (its result is then recorded before anyone hears)."""
        self.version = version
        METRICS.count_action(self.engine.id)
        self.clock.observe(change.at_ms)
        self.history.append(version, change.events, change.at_ms)
        self.views.clear()
        self.deadlines.moved()
        return self.engine.outcome(self.state) is not None

    async def _finish(self, change: Change, version: int, ended: list[Decision]) -> None:
        """The last move is logged: record the result, then announce. While the database
        cannot be written the result (and the news) waits, tried again until written."""
        while True:
            try:
                await self.record_result()
                break
            except Exception as error:
                if not database_unavailable(error):
                    raise
                log.warning("match %s: result not written (%r); retrying", self.match_id, error)
                await asyncio.sleep(RESULT_RETRY_S)
        self._announce(change, version, ended)
        if self.ended is not None:
            self.connections.tell_all(wire.dumps(self.ended))

    def _announce(self, change: Change, version: int, ended: list[Decision]) -> None:
        """Tell everyone about a logged change: the mover's answer first, then the decided
        grabs', then every connection's own patch; then bots and clocks move on."""
        if change.before_broadcast is not None:
            change.before_broadcast(version)
        for decision in ended:
            self.replies.grab_decided(decision, self.clock.now())
        started = time.perf_counter()
        events, at_ms = change.events, change.at_ms
        public = None
        if all(event.get("visible_to", ALL) == ALL for event in events):
            public = wire.dumps(events_for(events, None))
        for peer in list(self.peers):
            peer.send_numbered(
                self.views.patch_text(peer.seat, version, events, at_ms, public), version
            )
        METRICS.broadcast_seconds.observe(time.perf_counter() - started)
        self.turns.moved(self.views.awaiting())
        if not self.finished:
            if self.bots:
                replan_all(self.bots, self.engine, self.state, self.clock.now(), events)
            self._refresh_clocks(acted=change.seat)

    async def record_result(self) -> None:
        """Write the match's result, ledger and race flags; the match is over from here."""
        flags = self.races.flags() if self.races is not None else None
        self.ended = await write_result(
            self.sessionmaker, self, self.match_id, self.forfeits, flags
        )
        self.finished = True
        self.result_unwritten = False
        self.turn_clocks.clear()
        for peer in self.peers:
            peer.race_pings(False)
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

    def _attach(self, command: Attach) -> None:
        """A connection joins: a ``welcome`` at the current version (``welcome.py``), then
        the clocks. Nothing after the welcome is older than it: a resumed client
        never sees versions go backwards."""
        peer = command.peer
        playing = not self.finished
        if peer.seat is not None and self.races is not None and playing:
            peer.race_pings(True)  # only players race: spectators keep the idle cadence
        self.connections.join(peer, playing=playing)
        text = wire.dumps(welcome(self, peer.seat, peer.account_id, command.last_version))
        peer.send_numbered(text, self.version)
        if self.finished and self.ended is not None:
            peer.send_text(wire.dumps(self.ended))
        if self.turn_clocks.deadlines:
            peer.send_text(wire.dumps(self._clock_message()))

    def _chat(self, command: Chat) -> None:
        seat = command.peer.seat
        name = self.seats[seat].name if seat is not None else "spectator"
        text = wire.dumps({"type": "chat", "seat": seat, "name": name, "text": command.text})
        self.connections.tell_all(text)

    async def restore(self) -> None:
        """The state restored in place from the action log (``recovery.rebuilt``), with the
        history, bots, forfeits and races that derive from it; connections, clocks and the
        answers to each client's last action are kept."""
        fresh = await recovery.rebuilt(self)
        assert isinstance(fresh, GameSession)
        self.state, self.history, self.forfeits = fresh.state, fresh.history, fresh.forfeits
        self.bots, self.races = fresh.bots, fresh.races
        self.views.clear()
        self.deadlines = self._new_deadlines()
        self.turns.moved(self.views.awaiting())
        if self.races is not None and not self.finished:
            self.races.refresh_links(len(self.seats), self.peers, self.bots)

    def _new_deadlines(self) -> Deadlines:
        return Deadlines(
            self.engine,
            self.state,
            clock=self.clock,
            turn_clocks=self.turn_clocks,
            time_control=self.time_control,
            connections=self.connections,
            bots=self.bots,
            races=self.races,
            history=self.history,
        )

    # ----- the turn clocks ---------------------------------------------

    def _clock_message(self) -> dict[str, Any]:
        return self.turn_clocks.message(self.clock.now(), len(self.seats))

    def _refresh_clocks(self, acted: int | None) -> None:
        if self.finished or not self.turn_clocks.control.clocked:
            return
        if self.turn_clocks.update(self.views.awaiting(), self.clock.now(), acted):
            self.connections.tell_all(wire.dumps(self._clock_message()))
