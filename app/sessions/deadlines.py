"""What falls due in a match as time passes: one intent at a time, for the session to apply.

Five things fall due: the engine's own deadline (Ambush!'s reveal timers, say: a ``Tick``), a
seat's turn clock or match bank (a ``TimeOut`` pass or a ``Forfeit``), a disconnected seat's
grace (a ``Forfeit``), a server bot's planned action (a ``BotMove``), and a grab race's window
closing (``SettleRace``: ``app/races/arbiter.py``). The intents are ``app/sessions/intents.py``.
The session sleeps until ``next_due`` and then asks ``due`` again and again, applying each
intent it gets, until nothing more is due. Nothing here changes the engine's state, writes the
log or tells anyone: it reads the match, keeps its own timers (the turn clocks it stops, the
abandonment it counts, a bot's retry) and hands bots' due grabs to the race desk, which
decides them with the players' grabs.
"""

from __future__ import annotations

from typing import Protocol

from app.sessions.bots import BOT_RETRY_MS, BotSeat, replan_all
from app.sessions.clock import MatchClock
from app.sessions.commands import History
from app.sessions.connections import Connections
from app.sessions.intents import BotMove, Due, Forfeit, SettleRace, Tick, TimeOut
from app.sessions.races import RaceDesk
from app.sessions.timecontrol import TimeControl, TurnClocks
from engines.base import Engine, State


class Timed(Protocol):
    """What of a match its deadlines read (``GameSession`` is one)."""

    engine: Engine
    state: State
    clock: MatchClock
    turn_clocks: TurnClocks
    time_control: TimeControl
    connections: Connections
    bots: dict[int, BotSeat]
    races: RaceDesk | None
    history: History


class Deadlines:
    """The match's timed work, while the match is not over. Built again whenever the
    session's state is replaced (a restore): it reads the state, bots, races and history it
    was built with, and never changes the state."""

    @classmethod
    def of(cls, match: Timed) -> Deadlines:
        """The deadlines of the match's state, bots, races and history as they are now."""
        return cls(
            match.engine,
            match.state,
            clock=match.clock,
            turn_clocks=match.turn_clocks,
            time_control=match.time_control,
            connections=match.connections,
            bots=match.bots,
            races=match.races,
            history=match.history,
        )

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
        history: History,
    ) -> None:
        self.engine = engine
        self.state = state
        self.clock = clock
        self.turn_clocks = turn_clocks
        self.time_control = time_control
        self.connections = connections
        self.bots = bots
        self.races = races
        self.history = history
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
        return min(candidates) if candidates else None  # no keyword: ``TurnClocks.next_due``

    def due(self, now: int) -> Due | None:
        """The earliest thing due at ``now``, for the session to apply; None when nothing is.
        Bots' due grabs go to the race desk first (a bot is timed exactly, so its claim must
        not miss a settlement it belongs to)."""
        races = self.races
        if races is not None:
            self._bot_grabs_to_arbiter(races, now)
            races.refresh_links(len(self.connections.seats), self.connections.peers, self.bots)
            precise = self.clock.precise()
            if races.window_closed(precise):
                return SettleRace(precise)
        deadline = self.engine.deadline(self.state)
        held = races is not None and races.blocks(deadline or 0, self.clock.precise())
        if deadline is not None and deadline <= now and deadline != self.stale and not held:
            return Tick(deadline, now)
        timed_out = self.turn_clocks.due(now)
        if timed_out:
            return self._time_out(timed_out[0], now)
        abandoned = self.connections.abandoned(self.time_control.grace_ms, now)
        if abandoned is not None:
            return Forfeit(abandoned, "abandoned", now)
        ready = [
            (due, seat)
            for seat, bot in self.bots.items()
            if (due := bot.due_at()) is not None and due <= now
        ]
        if not ready:
            return None
        bot = self.bots[min(ready)[1]]
        assert bot.plan is not None
        # A bot acts at the time it planned (its reaction time), never before the last version.
        at_ms = max(min(bot.plan.at_ms, now), self.history.last_at_ms)
        return BotMove(bot.seat, bot.plan.action, at_ms)

    # ----- what the session tells back -----------------------------------------------------

    def tick_changed_nothing(self, deadline: int) -> None:
        """The engine's tick at ``deadline`` changed nothing: not fired again until the match
        moves (``moved``)."""
        self.stale = deadline

    def bot_refused(self, seat: int, now: int) -> None:
        """The engine refused the bot's planned action: it plans again, a while later."""
        bot = self.bots[seat]
        bot.retry_at = now + BOT_RETRY_MS
        replan_all({seat: bot}, self.engine, self.state, now + 1, None)

    # ----- each kind of due work -----------------------------------------------------------

    def _bot_grabs_to_arbiter(self, races: RaceDesk, now: int) -> None:
        """Bots' due grabs reach the arbiter before any window closes."""
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
            self.bot_refused(bot.seat, now)

    def _time_out(self, seat: int, now: int) -> TimeOut | Forfeit:
        """The seat's clock ran out: its first legal action other than resigning (a pass), or
        a forfeit when the table says so or there is none."""
        self.turn_clocks.stop(seat, now)
        if self.time_control.on_timeout != "forfeit":
            legal = self.engine.legal_actions(self.state, seat)
            for action in legal:
                if action.get("type") != "resign":
                    return TimeOut(seat, action, now)
        return Forfeit(seat, "time", now)
