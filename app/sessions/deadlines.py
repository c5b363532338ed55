"""What falls due in a match as time passes, and the change each makes.

Five things fall due: the engine's own deadline (Ambush!'s reveal timers, say: a ``tick``),
a seat's turn clock or match bank (a pass or a forfeit), a disconnected seat's grace (a
forfeit), a server bot's planned action, and a grab race's window closing
(``app/races/arbiter.py``).
The session sleeps until ``next_due`` and then asks ``next_change`` again and again, committing
each change it gets, until nothing more is due. Nothing here writes the log or tells anyone
but grab senders: changes go back to the session, the match's one writer.
"""

from __future__ import annotations

import logging
from typing import Any

from app.sessions.bots import BOT_RETRY_MS, BotSeat, replan_all
from app.sessions.clock import MatchClock
from app.sessions.commands import Change, History
from app.sessions.connections import Connections
from app.sessions.races import RaceDesk
from app.sessions.replies import Replies
from app.sessions.timecontrol import TimeControl, TurnClocks
from engines.base import ActionError, Engine, State
from engines.playout import TICK

log = logging.getLogger(__name__)

RESIGN: dict[str, Any] = {"type": "resign"}


class Deadlines:
    """The match's timed work, while the match is not over. Built again whenever the
    session's state is replaced (a restore): it reads the state, bots, races and history it
    was built with."""

    def __init__(
        self,
        engine: Engine,
        state: State,
        *,
        clock: MatchClock,
        turn_clocks: TurnClocks,
        time_control: TimeControl,
        connections: Connections,
        bots: dict[int, BotSeat],
        races: RaceDesk | None,
        replies: Replies,
        history: History,
        forfeits: dict[str, Any],
    ) -> None:
        self.engine = engine
        self.state = state
        self.clock = clock
        self.turn_clocks = turn_clocks
        self.time_control = time_control
        self.connections = connections
        self.bots = bots
        self.races = races
        self.replies = replies
        self.history = history
        self.forfeits = forfeits
        # An engine deadline whose tick changed nothing: not fired again until the match moves.
        self.stale: int | None = None

    def moved(self) -> None:
        """A new version: the engine's deadline is worth firing again."""
        self.stale = None

    def next_due(self) -> int | None:
        """The match time of the next thing due (None: nothing is), for the session to sleep on."""
        candidates: list[int] = []
        races = self.races
        deadline = self.engine.deadline(self.state)
        if deadline is not None and deadline != self.stale:
            if races is None:
                candidates.append(deadline)
            elif not races.holds_before(deadline):
                # Held grabs before the deadline are decided first (their own due time).
                candidates.append(races.tick_at(deadline))
        if races is not None and (held := races.due_at()) is not None:
            candidates.append(held)
        if (turn_due := self.turn_clocks.next_due()) is not None:
            candidates.append(turn_due)
        if (abandon := self.connections.next_abandonment(self.time_control.grace_ms)) is not None:
            candidates.append(abandon)
        candidates.extend(due for bot in self.bots.values() if (due := bot.due_at()) is not None)
        return min(candidates, default=None)

    def next_change(self, now: int) -> Change | bool:
        """The earliest thing due at ``now``: a change for the session to commit, True when it
        was handled with no change (a race decided with no winner, a tick that changed
        nothing, a bot's refused or raced action), False when nothing is due."""
        races = self.races
        if races is not None:
            self._bot_grabs_to_arbiter(races, now)
            decided = self._settle_race(races)
            if decided is not False:
                return decided
        deadline = self.engine.deadline(self.state)
        held = races is not None and races.blocks(deadline or 0, self.clock.precise())
        if deadline is not None and deadline <= now and deadline != self.stale and not held:
            events = self.engine.tick(self.state, now)
            if events:
                return Change(None, TICK, now, events, "tick")
            self.stale = deadline
            return True
        timed_out = self.turn_clocks.due(now)
        if timed_out:
            return self._time_out(timed_out[0], now)
        abandoned = self.connections.abandoned(self.time_control.grace_ms, now)
        if abandoned is not None:
            return self._forfeit(abandoned, now, "abandoned")
        ready = [
            (due, seat)
            for seat, bot in self.bots.items()
            if (due := bot.due_at()) is not None and due <= now
        ]
        if not ready:
            return False
        return self._bot_acts(self.bots[min(ready)[1]], now)

    # ----- each kind of due work -----------------------------------------------------------

    def _settle_race(self, races: RaceDesk) -> Change | bool:
        """The next cell whose window closed: its winner's grab as a change (every grab on it
        answered once that is logged), or its refusals answered now; False: none closed."""
        races.refresh_links(len(self.connections.seats), self.connections.peers, self.bots)
        settled = races.settle(self.clock.precise(), self.engine, self.state)
        if settled is None:
            return False

        def answer_all(version: int = 0) -> None:
            for decision in settled.decisions:
                self.replies.grab_decided(decision, self.clock.now())

        winner = settled.winner
        if winner is None:
            answer_all()
            return True
        claim = winner.claim
        sender = claim.token[0] if isinstance(claim.token, tuple) else None
        return Change(
            claim.seat,
            {"type": "grab", "cell": claim.cell},
            claim.v,
            settled.events,
            "player" if sender is not None else "bot",
            account_id=sender.account_id if sender is not None else None,
            client_seq=claim.client_seq,
            arbitration={"mode": "arbiter", "decisions": [winner.record]},
            before_broadcast=answer_all,
        )

    def _bot_grabs_to_arbiter(self, races: RaceDesk, now: int) -> None:
        """Bots' due grabs reach the arbiter before any window closes: a bot is timed
        exactly, so its claim must not miss a settlement it belongs to."""
        for bot in list(self.bots.values()):
            due = bot.due_at()
            is_grab = bot.plan is not None and bot.plan.action.get("type") == "grab"
            if is_grab and due is not None and due <= now:
                self._bot_grab(races, bot, now)

    def _bot_grab(self, races: RaceDesk, bot: BotSeat, now: int) -> None:
        """A server bot's grab, timed exactly at its planned moment (its reaction)."""
        assert bot.plan is not None
        at_ms = max(min(bot.plan.at_ms, now), 0)
        refused = races.bot_grab(bot.seat, bot.plan.action.get("cell"), at_ms, self.clock.precise())
        bot.plan = None
        if refused is not None:
            self._retry_later(bot, now)

    def _bot_acts(self, bot: BotSeat, now: int) -> Change | bool:
        assert bot.plan is not None
        action = bot.plan.action
        if self.races is not None and action.get("type") == "grab":
            self._bot_grab(self.races, bot, now)
            return True
        # A bot acts at the time it planned (its reaction time), never before the last version.
        at_ms = max(min(bot.plan.at_ms, now), self.history.last_at_ms)
        try:
            events = self.engine.apply(self.state, bot.seat, action, at_ms)
        except ActionError as refusal:
            log.debug("bot %s refused %s: %s", bot.seat, action, refusal.code)
            self._retry_later(bot, now)
            return True
        return Change(bot.seat, action, at_ms, events, "bot")

    def _retry_later(self, bot: BotSeat, now: int) -> None:
        bot.retry_at = now + BOT_RETRY_MS
        replan_all({bot.seat: bot}, self.engine, self.state, now + 1, None)

    def _time_out(self, seat: int, now: int) -> Change | bool:
        """The seat's clock ran out: its first legal action other than resigning (a pass), or
        a forfeit when the table says so or there is none."""
        self.turn_clocks.stop(seat, now)
        if self.time_control.on_timeout != "forfeit":
            legal = self.engine.legal_actions(self.state, seat)
            for action in [a for a in legal if a.get("type") != "resign"][:1]:
                try:
                    events = self.engine.apply(self.state, seat, action, now)
                except ActionError:
                    break
                return Change(seat, action, now, events, "timeout")
        return self._forfeit(seat, now, "time")

    def _forfeit(self, seat: int, now: int, reason: str) -> Change | bool:
        """Resign ``seat`` for ``reason`` (time or abandoned); a seat already out is skipped."""
        try:
            events = self.engine.apply(self.state, seat, RESIGN, now)
        except ActionError:
            self.turn_clocks.stop(seat, now)
            return True
        self.forfeits[str(seat)] = reason
        # The logged action stays a plain resign so replay feeds the engine what it accepted;
        # the reason lives in ``cause`` (and in the match's forfeits at the end).
        return Change(seat, dict(RESIGN), now, events, f"forfeit_{reason}")
