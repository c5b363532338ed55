"""What a session does when time passes: engine deadlines, turn clocks, disconnect grace,
server-side bots, in the order they fall due (the session task calls ``fire_due``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from app.sessions import races as race_steps
from app.sessions.races import BOT_RETRY_MS
from engines.base import ActionError
from engines.playout import TICK

if TYPE_CHECKING:
    from app.sessions.session import GameSession

log = logging.getLogger(__name__)

RESIGN: dict[str, Any] = {"type": "resign"}


def next_due(session: GameSession) -> int | None:
    """The match time of the next thing due (None: nothing is), for the session to sleep on."""
    candidates: list[int] = []
    deadline = session.engine.deadline(session.state)
    if deadline is not None and deadline != session._stale_deadline:
        if session.races is None:
            candidates.append(deadline)
        elif not session.races.holds_before(deadline):
            # Held grabs before the deadline are decided first (their own due time).
            candidates.append(session.races.tick_at(deadline))
    if session.races is not None and (held := session.races.due_at()) is not None:
        candidates.append(held)
    turn_due = session.turn_clocks.next_due()
    if turn_due is not None:
        candidates.append(turn_due)
    grace = session.time_control.grace_ms
    if grace > 0:
        candidates.extend(since + grace for since in session.disconnected.values())
    candidates.extend(due for bot in session.bots.values() if (due := bot.due_at()) is not None)
    return min(candidates, default=None)


async def fire_due(session: GameSession) -> None:
    """Fire everything due now, one change at a time, earliest first."""
    for _ in range(64):
        if session.finished:
            return
        now = session.clock.now()
        if session.races is not None:
            race_steps.due_bot_grabs(session, now)
            if await race_steps.settle_grabs(session):
                continue
        deadline = session.engine.deadline(session.state)
        races = session.races
        held = races is not None and races.blocks(deadline or 0, session.clock.precise())
        if (
            deadline is not None
            and deadline <= now
            and deadline != session._stale_deadline
            and not held
        ):
            events = session.engine.tick(session.state, now)
            if events:
                await session._commit(None, TICK, now, events, "tick")
            else:
                session._stale_deadline = deadline
            continue
        timed_out = session.turn_clocks.due(now)
        if timed_out:
            await time_out(session, timed_out[0], now)
            continue
        grace = session.time_control.grace_ms
        abandoned = [
            s for s, since in session.disconnected.items() if grace and since + grace <= now
        ]
        if abandoned:
            session.disconnected.pop(abandoned[0])
            await forfeit(session, abandoned[0], now, "abandoned")
            continue
        ready = [
            (due, seat)
            for seat, bot in session.bots.items()
            if (due := bot.due_at()) is not None and due <= now
        ]
        if not ready:
            return
        await bot_act(session, min(ready)[1], now)


async def bot_act(session: GameSession, seat: int, now: int) -> None:
    bot = session.bots[seat]
    assert bot.plan is not None
    action = bot.plan.action
    if session.races is not None and action.get("type") == "grab":
        race_steps.race_bot_grab(session, bot, now)
        return
    # A bot acts at the time it planned (its reaction time), never before the last version.
    at_ms = max(min(bot.plan.at_ms, now), session.history.last_at_ms)
    try:
        events = session.engine.apply(session.state, seat, action, at_ms)
    except ActionError as refusal:
        log.debug("match %s bot %s refused %s: %s", session.match_id, seat, action, refusal.code)
        bot.retry_at = now + BOT_RETRY_MS
        bot.replan(session.engine.view(session.state, seat), session._legal(seat), now + 1)
        return
    await session._commit(seat, action, at_ms, events, "bot")


async def time_out(session: GameSession, seat: int, now: int) -> None:
    session.turn_clocks.stop(seat, now)
    if session.time_control.on_timeout == "forfeit":
        await forfeit(session, seat, now, "time")
        return
    legal = [
        a for a in session.engine.legal_actions(session.state, seat) if a.get("type") != "resign"
    ]
    for action in legal[:1]:
        try:
            events = session.engine.apply(session.state, seat, action, now)
        except ActionError:
            break
        await session._commit(seat, action, now, events, "timeout")
        return
    await forfeit(session, seat, now, "time")


async def forfeit(session: GameSession, seat: int, now: int, reason: str) -> None:
    """Resign ``seat`` for ``reason`` (time or abandoned); a seat already out is skipped."""
    try:
        events = session.engine.apply(session.state, seat, RESIGN, now)
    except ActionError:
        session.turn_clocks.stop(seat, now)
        return
    session.forfeits[str(seat)] = reason
    # The logged action stays a plain resign so replay feeds the engine what it accepted;
    # the reason lives in ``cause`` (and in the match's forfeits at the end).
    await session._commit(seat, dict(RESIGN), now, events, f"forfeit_{reason}")
