"""GameSession: the single writer of one live match (apply, persist, then broadcast)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.action_log import ActionLogWriter
from app.db.repositories import MatchRepository
from app.scoring.ledger import settle
from app.sessions import changes, deadlines, recovery, wire
from app.sessions import races as race_steps
from app.sessions.bots import BotSeat
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
)
from app.sessions.races import RaceDesk, race_pings
from app.sessions.seat_views import SeatViews
from app.sessions.timecontrol import TimeControl, TurnClocks
from engines.base import (
    ActionError,
    Engine,
    Event,
    State,
    awaiting_seats,
    events_for,
)

log = logging.getLogger(__name__)


class GameSession:
    """Owns one match's engine state; every change goes through its inbox, in order.

    Accepted actions are persisted (one ``match_actions`` row per version) before anyone
    hears of them; then every attached connection gets its own filtered events and view.

    Defence in depth (``app/sessions/recovery.py`` says how and why): a failure while
    handling one client's message answers that client ``server/internal``, the match's state
    is restored in place from its action log, and every other seat plays on.
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
        replies: dict[tuple[int | None, int], tuple[int, dict[str, Any]]],
        forfeits: dict[str, Any],
        rated: bool,
        on_finish: Callable[[int], None] | None = None,
        turn_clocks: TurnClocks | None = None,
        seed: int = 0,
        rebuild: Callable[[int], Awaitable[GameSession]] | None = None,
    ) -> None:
        self.match_id = match_id
        self.engine = engine
        self.state = state
        self.seats = seats
        self.version = version
        self.clock = clock
        self.time_control = time_control
        self.sessionmaker = sessionmaker
        self.action_log = action_log
        self.history = history
        self.bots = bots
        self.replies = replies
        self.forfeits = forfeits
        self.rated = rated
        self.on_finish = on_finish
        # Builds this match afresh from its action log (the hub's), for ``restore``.
        self.rebuild = rebuild
        self.intake_closed = False  # handing over: nothing new is taken (close_intake)
        self.peers: set[wire.Listener] = set()
        self.finished = engine.outcome(state) is not None
        # Loaded from a log whose last move ended the match before its result was written.
        self.result_unwritten = False
        self.turn_clocks = turn_clocks or TurnClocks(time_control)
        self.disconnected: dict[int, int] = {}
        self._inbox: deque[Command] = deque()
        self._wake = asyncio.Event()
        # True while a command is being handled, by the task or by the fast lane (a plain
        # action handled inside ``submit``, its commit still in flight): others queue.
        self._busy = False
        self._armed_due: int | None = None  # what the sleeping task's timer is set for
        self._crash: BaseException | None = None  # a fast-lane failure, raised by the task
        # The rest of a fast-lane commit that ended the match (recording the result is
        # awaited, so the task runs it).
        self._ending: Callable[[], Awaitable[None]] | None = None
        self._stale_deadline: int | None = None
        # Set when handling a message failed: the state is restored from the log first.
        self._restore_due = False
        self._running = False  # the session task is running (not for a finished match)
        self.views = SeatViews(self)
        # Grab races (Ambush!): the arbiter of DESIGN.md sec. 5 decides who touched first.
        self.races = RaceDesk.for_match(engine, state, seed, clock.rate)
        if self.races is not None and engine.view(state, None).get("phase") == "ambush":
            called = [v for v, raw, _ in history.entries if b'"ambush_called"' in raw]
            self.races.resume(
                called[-1] if called else version, clock.precise(), race_steps.living(self)
            )
        now = clock.now()
        for seat, info in enumerate(seats):
            if info.account_id is not None:
                self.disconnected[seat] = now
        self._refresh_clocks(acted=None)

    # ----- the inbox ---------------------------------------------------------------------

    def submit(self, command: Command) -> None:
        """Handle a command in arrival order: a plain action at once when nothing else is in
        hand (the fast lane: checked, applied and staged for the action log right here, and
        broadcast from the log's callback, with no task wake-up on the way); anything else,
        or anything arriving while a command is in hand, through the inbox and the task."""
        if self.intake_closed:
            self._refuse_restarting(command)
            return
        if type(command) is Submit and changes.refused_while_down(self, command):
            return  # the database cannot be written: refused at once, retryable
        if (
            not self._busy
            and not self._inbox
            and type(command) is Submit
            and not command.grab
            and self._crash is None
            and not self._restore_due
        ):
            self._busy = True
            try:
                self._submit_now(command)
            except Exception as error:
                self._fail(error)
            return
        if self.finished and not self._running and not self._busy and not self._inbox:
            # A finished match has no task (loaded finished, or its task ended): nothing it
            # does awaits, so it answers here.
            self._handle_guarded(command)
            return
        self._inbox.append(command)
        self._wake.set()

    def close_intake(self) -> None:
        """This process is handing the match over (``Hub.hand_over``): from now on an action
        is refused with ``server/restarting`` (retry: send it again once reconnected; it was
        not played) and a new connection is closed with 1012."""
        self.intake_closed = True

    def _refuse_restarting(self, command: Command) -> None:
        if isinstance(command, Attach):
            command.peer.close(1012)
        elif isinstance(command, Submit):
            message = "the server is restarting; your action was not played, send it again"
            reply = wire.error("server/restarting", message, command.client_seq)
            command.peer.send_text(wire.dumps({**reply, "retry": True}))

    def seats_of(self, account_id: int | None) -> list[int]:
        if account_id is None:
            return []
        return [seat for seat, info in enumerate(self.seats) if info.account_id == account_id]

    async def run(self) -> None:
        """The session task: handle commands, fire due deadlines, sleep until the next one.
        It ends once the match is over and nothing is left to handle (``submit`` then
        answers a finished match's commands itself)."""
        self._running = True
        try:
            await self._run()
        finally:
            self._running = False

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self._crash is not None:
                raise self._crash
            if self._ending is not None:
                ending, self._ending = self._ending, None
                await ending()
                self._busy = False
            if not self._busy:
                self._busy = True
                try:
                    while self._inbox or self._restore_due:
                        if self._restore_due:
                            await self.restore()
                        if self._inbox:
                            await self._handle(self._inbox.popleft())
                    if not self.finished:
                        await deadlines.fire_due(self)
                finally:
                    self._busy = False
                if self._inbox or self._restore_due:
                    continue
                if self.finished and self._ending is None and self._crash is None:
                    return
            # While the fast lane has a commit in flight, nothing is due: its end wakes us.
            due = None if self.finished or self._busy else deadlines.next_due(self)
            self._armed_due = due
            self._wake.clear()
            timer = None
            if due is not None:
                timer = loop.call_at(max(loop.time(), self._loop_time(due)), self._wake.set)
            try:
                await self._wake.wait()
            finally:
                if timer is not None:
                    timer.cancel()

    def _release(self) -> None:
        """The fast lane is done with its command: wake the task if it has work, or if the
        change moved what it sleeps until (a deadline, a bot's turn)."""
        self._busy = False
        if self._inbox or (not self.finished and deadlines.next_due(self) != self._armed_due):
            self._wake.set()

    def _fail(self, error: BaseException) -> None:
        """A fast-lane failure ends the session as a failure in the task would: the hub
        rebuilds the match from its log."""
        self._crash = error
        self._wake.set()

    def _loop_time(self, match_ms: int) -> float:
        # The event loop's clock is time.monotonic() on every platform we run on.
        return self.clock.monotonic_at(match_ms) + 0.0005

    async def _handle(self, command: Command) -> None:
        if isinstance(command, Submit):
            await self._submit(command)
        else:
            self._handle_guarded(command)

    def _handle_guarded(self, command: Command) -> None:
        """Handle a command that writes nothing to the log; a failure answers its sender."""
        try:
            if isinstance(command, Submit):
                self._check_and_apply(command)  # only for a finished match: answered here
            elif isinstance(command, Attach):
                self._attach(command)
            elif isinstance(command, Detach):
                self._detach(command.peer)
            else:
                self._chat(command)
        except Exception:
            recovery.answer_failure(self, command, restoring=False)

    async def restore(self) -> None:
        """The state restored from the action log, connections kept (``recovery.restore``)."""
        self._restore_due = False
        await recovery.restore(self)
        self._stale_deadline = None

    # ----- connections -------------------------------------------------------------------

    def _attach(self, command: Attach) -> None:
        peer = command.peer
        self.peers.add(peer)
        if peer.seat is not None:
            if self.races is not None and not self.finished:
                # Only players race: a spectator's link is never measured (DESIGN.md sec. 5).
                race_pings(peer, on=True)
            back = [s for s in self.seats_of(peer.account_id) if s in self.disconnected]
            for seat in self.seats_of(peer.account_id):
                self.disconnected.pop(seat, None)
            self._announce_presence(back, connected=True, skip=peer)
        missed = None
        if command.last_version is not None and command.last_version <= self.version:
            missed = self.history.since(command.last_version)
        welcome = {
            "type": "welcome",
            "match_id": self.match_id,
            "seat": peer.seat,
            "seats": self.seats_of(peer.account_id),
            "version": self.version,
            # Through the seat views: kept as the base of the next patch's diff.
            "view": self.views.view_for(peer.seat),
            "legal": self.views.legal_for(peer.seat),
            "awaiting": self.views.awaiting(),
            "at_ms": self.clock.now(),
            "clock_rate": self.clock.rate,
            "status": "finished" if self.finished else "running",
            "resumed": missed is not None,
            "names": [info.name for info in self.seats],
        }
        race_steps.broadcast(peer, wire.dumps(welcome), self.version)
        for version, events, at_ms in missed or []:
            text = self.views.patch_text(peer.seat, version, events, at_ms, whole=True)
            race_steps.broadcast(peer, text, version)
        if self.turn_clocks.deadlines:
            peer.send_text(wire.dumps(self._clock_message()))

    def _detach(self, peer: wire.Listener) -> None:
        self.peers.discard(peer)
        if peer.seat is None or self.finished:
            return
        still_here = any(other.account_id == peer.account_id for other in self.peers)
        if not still_here:
            now = self.clock.now()
            for seat in self.seats_of(peer.account_id):
                self.disconnected[seat] = now
            self._announce_presence(self.seats_of(peer.account_id), connected=False)

    def _announce_presence(
        self, seats: list[int], *, connected: bool, skip: wire.Listener | None = None
    ) -> None:
        """Tell the other connections that these seats' player came back or went (README:
        ``presence``), so they can show "X is disconnected"."""
        if self.finished:
            return
        for seat in seats:
            text = wire.dumps({"type": "presence", "seat": seat, "connected": connected})
            for other in list(self.peers):
                if other is not skip:
                    other.send_text(text)

    def _chat(self, command: Chat) -> None:
        seat = command.peer.seat
        name = self.seats[seat].name if seat is not None else "spectator"
        text = wire.dumps({"type": "chat", "seat": seat, "name": name, "text": command.text})
        for peer in list(self.peers):
            peer.send_text(text)

    # ----- actions -----------------------------------------------------------------------

    async def _submit(self, command: Submit) -> None:
        change = self._checked(command)
        if change is not None:
            await changes.commit(self, change)

    def _submit_now(self, command: Submit) -> None:
        """The fast lane's ``_submit``: the same checks; the commit is staged, not awaited."""
        change = self._checked(command)
        if change is None:
            self._release()
            return
        changes.commit_soon(self, change)

    def _checked(self, command: Submit) -> Change | None:
        """``_check_and_apply``, guarded: an unexpected failure answers the sender
        ``server/internal`` and has the state restored from the log (see the class
        docstring); nothing of it is logged or broadcast."""
        try:
            return self._check_and_apply(command)
        except Exception:
            recovery.answer_failure(self, command, restoring=True)
            self._restore_due = True  # before anything else is handled
            self._wake.set()
            return None

    def _check_and_apply(self, command: Submit) -> Change | None:
        """Check and apply a submitted action; None when it was answered here (a refusal, a
        duplicate, a grab handed to the race desk), else the change to commit."""
        peer, seq = command.peer, command.client_seq
        key = (peer.account_id, command.seat)
        previous = self.replies.get(key)
        if previous is not None and seq == previous[0]:
            peer.send_text(wire.dumps({**previous[1], "duplicate": True}))
            return None
        if previous is not None and seq < previous[0]:
            reply = wire.error("action/stale_seq", f"client_seq {seq} is older than {previous[0]}")
            peer.send_text(wire.dumps({**reply, "client_seq": seq}))
            return None
        if self.finished:
            self._reply(command, key, None, "match/over", "the match is over")
            return None
        if command.grab and self.races is not None and command.measured is not None:
            race_steps.race_grab(self, command, key, command.measured)
            return None
        if command.version is not None and command.version != self.version:
            message = f"action based on version {command.version}, match is at {self.version}"
            self._reply(command, key, None, "action/stale_version", message)
            return None
        at_ms = self.clock.now()
        try:
            events = self.engine.apply(self.state, command.seat, command.action, at_ms)
        except ActionError as refusal:
            self._reply(command, key, at_ms, refusal.code, refusal.message)
            return None
        # Any other failure (an engine bug: its state may be half-changed) goes to
        # ``_checked``: the sender hears server/internal and the state is restored from the log.

        def acknowledge(version: int) -> None:
            self._reply(command, key, at_ms, None, "", version)

        return Change(
            command.seat,
            command.action,
            at_ms,
            events,
            "player",
            account_id=peer.account_id,
            client_seq=seq,
            arbitration=command.arbitration,
            before_broadcast=acknowledge,
        )

    def _reply(
        self,
        command: Submit,
        key: tuple[int | None, int],
        at_ms: int | None,
        code: str | None,
        message: str,
        version: int | None = None,
    ) -> None:
        seq = command.client_seq
        if command.grab:
            cell = command.action.get("cell")
            reply = wire.grab_result(seq, cell, code is None, at_ms or self.clock.now(), code)
        elif code is None:
            reply = wire.ack(seq, version or self.version)
        else:
            reply = wire.error(code, message, seq)
        self.replies[key] = (seq, reply)
        command.peer.send_text(wire.dumps(reply))

    async def _commit(
        self,
        seat: int | None,
        action: dict[str, Any],
        at_ms: int,
        events: list[Event],
        cause: str,
        *,
        account_id: int | None = None,
        client_seq: int | None = None,
        arbitration: dict[str, Any] | None = None,
        before_broadcast: Callable[[int], None] | None = None,
    ) -> None:
        """Persist the new version, then tell everyone (``changes.commit``)."""
        change = Change(
            seat,
            action,
            at_ms,
            events,
            cause,
            account_id=account_id,
            client_seq=client_seq,
            arbitration=arbitration,
            before_broadcast=before_broadcast,
        )
        await changes.commit(self, change)

    async def record_result(self) -> None:
        outcome = self.engine.outcome(self.state)
        assert outcome is not None
        forfeited = [int(seat) for seat in self.forfeits]
        ledger = settle(outcome, forfeited=forfeited)
        async with self.sessionmaker() as db:
            await MatchRepository(db).finish(
                self.match_id,
                status="finished",
                version=self.version,
                result=outcome.to_json(),
                ledger=ledger,
                forfeits=self.forfeits,
                flags=self.races.flags() if self.races is not None else None,
            )
        self.finished = True
        self.result_unwritten = False
        self.turn_clocks.clear()
        for peer in self.peers:
            race_pings(peer, on=False)
        for bot in self.bots.values():
            bot.plan = None
        if self.on_finish is not None:
            self.on_finish(self.match_id)

    # ----- what each seat sees -----------------------------------------------------------

    def _awaiting(self) -> frozenset[int]:
        return frozenset() if self.finished else awaiting_seats(self.engine, self.state)

    def _legal(self, seat: int | None) -> list[dict[str, Any]]:
        if seat is None or self.finished or seat not in self.engine.to_act(self.state):
            return []
        return self.engine.legal_actions(self.state, seat)

    def _clock_message(self) -> dict[str, Any]:
        return self.turn_clocks.message(self.clock.now(), len(self.seats))

    # ----- bots, clocks and deadlines ----------------------------------------------------

    def _after_change(self, events: list[Event], acted: int | None) -> None:
        now = self.clock.now()
        to_act = self.engine.to_act(self.state)
        for seat, bot in self.bots.items():
            view = self.engine.view(self.state, seat)
            bot.observe(events_for(events, seat), view)
            bot.retry_at = None
            legal = self.engine.legal_actions(self.state, seat) if seat in to_act else []
            bot.replan(view, legal, now)
        self._refresh_clocks(acted)

    def _refresh_clocks(self, acted: int | None) -> None:
        if self.finished:
            return
        if self.turn_clocks.update(self._awaiting(), self.clock.now(), acted):
            text = wire.dumps(self._clock_message())
            for peer in list(self.peers):
                peer.send_text(text)
