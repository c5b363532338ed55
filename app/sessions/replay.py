"""A match rebuilt from its action log: the engine state, version, history, bots, turn clocks
and the answer to each client's last action (``Rebuilt``, what a session is built from)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.repositories import MatchRepository
from app.sessions.bots import BotSeat, make_bot
from app.sessions.clock import MatchClock
from app.sessions.commands import History
from app.sessions.rebuilt import Rebuilt
from app.sessions.replies import Answers
from app.sessions.results import ended_message
from app.sessions.seat_names import seat_infos
from app.sessions.timecontrol import TimeControl, TurnClocks
from app.sessions.wire import ack
from engines import registry
from engines.base import awaiting_seats, events_for
from engines.playout import apply_entry


def bot_seed(match_seed: int, seat: int) -> int:
    """Each bot's own seed, derived from the match seed so a rebuilt bot is the same bot."""
    return (match_seed * 1_000_003 + seat * 7919 + 17) & ((1 << 63) - 1)


async def replayed(
    match_id: int, *, settings: Settings, sessionmaker: async_sessionmaker[AsyncSession]
) -> Rebuilt:
    """The match as its log has it."""
    async with sessionmaker() as db:
        repo = MatchRepository(db)
        match = await repo.get(match_id)
        seat_rows = await repo.seats(match_id)
        seats = await seat_infos(db, seat_rows)
        rows = await repo.actions(match_id)
    engine = registry.get(match.game)
    options: dict[str, Any] = dict(match.options or {})
    state = engine.setup(match.seat_count, match.seed, options)
    bots = {
        seat: BotSeat(seat, make_bot(engine, info.bot, seat, bot_seed(match.seed, seat)))
        for seat, info in enumerate(seats)
        if info.bot is not None
    }
    for seat, bot in bots.items():
        bot.observe([], engine.view(state, seat))
    control = TimeControl.from_json(match.time_control, settings.disconnect_grace_ms)
    # The clocks are rebuilt by replaying whose turn it was at each logged time.
    clocks = TurnClocks(control)
    clocks.update(awaiting_seats(engine, state), 0, None)
    history = History(settings.resume_buffer)
    replies: Answers = {}
    forfeits: dict[str, Any] = {}
    last_at = 0
    for row in rows:
        events = apply_entry(engine, state, (row.seat, row.action, row.at_ms))
        history.append(row.version, events, row.at_ms)
        # Arbitrated grabs are logged at their V, which may precede the row before.
        last_at = max(last_at, row.at_ms)
        if row.client_seq is not None and row.seat is not None:
            replies[(row.account_id, row.seat)] = (
                row.client_seq,
                ack(row.client_seq, row.version),
            )
        if row.cause.startswith("forfeit_") and row.seat is not None:
            forfeits[str(row.seat)] = row.cause.removeprefix("forfeit_")
        for seat, bot in bots.items():
            bot.observe(events_for(events, seat), engine.view(state, seat))
        over = engine.outcome(state) is not None
        clocks.update(() if over else awaiting_seats(engine, state), row.at_ms, row.seat)
    clock = MatchClock(match.started_wall_ms, last_at, settings.clock_rate)
    clocks.restart(clock.now())
    version = rows[-1].version if rows else 0
    outcome = engine.outcome(state)
    ended = None
    if match.status == "finished" and outcome is not None:
        ledger = {int(seat): int(delta) for seat, delta in (match.ledger or {}).items()}
        rated_ledger = ledger if match.rated else None
        ended = ended_message(match_id, version, outcome, rated_ledger, rated=match.rated)
    return Rebuilt(
        match_id=match_id,
        engine=engine,
        seats=seats,
        seed=match.seed,
        rated=match.rated,
        time_control=control,
        clock=clock,
        state=state,
        version=version,
        history=history,
        bots=bots,
        forfeits=forfeits,
        replies=replies,
        turn_clocks=clocks,
        ended=ended,
        result_unwritten=outcome is not None and match.status == "running",
        aborted=match.status == "aborted",
    )
