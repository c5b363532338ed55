"""The mails a hard crash may have missed, looked up at start-up (``Notifier.catch_up``).

A "your move" or "match over" row is written a few ms after the move (or the result) is
durable; a process killed in between loses that row. At start, two queries find, among the
correspondence matches whose last move (or end) is younger than ``RECENT``, each seat of a
verified, subscribed player with no "your move" row since his own last move (the notifier
then mails him if the match awaits him), and each player of a finished one with no "match
over" row. Older matches are left alone: a restart does not mail old news.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.db.mail import EmailAddress, OutboxMail
from app.db.models import Match, MatchAction, MatchSeat, MatchWakeup
from app.notify.matches import move_days
from app.sessions.clock import MatchClock
from app.sessions.timecontrol import TimeControl, TurnClocks
from app.sessions.turns import wall_ms

RECENT = timedelta(days=1)


@dataclass(frozen=True)
class Untold:
    """A seat of a running correspondence match whose player has had no "your move" row
    since his last move there. ``running``: the seats whose turn clocks a sleeping match
    kept running (the seats it awaits); None: the match is not asleep. ``deadline_ms``: when
    the seat's turn runs out (epoch ms) by the clocks a sleeping match kept, if it runs."""

    match_id: int
    account_id: int
    seat: int
    running: frozenset[int] | None
    deadline_ms: int | None = None


def _subscribed() -> Any:
    return and_(
        EmailAddress.account_id == MatchSeat.account_id,
        EmailAddress.verified_at.is_not(None),
        EmailAddress.notifications.is_(True),
    )


def _asleep_deadline(
    carry: dict[str, Any], control: TimeControl, started_wall_ms: int, seat: int, rate: float
) -> int | None:
    """When ``seat``'s turn runs out (epoch ms) by a sleeping match's kept clocks."""
    running = {int(s): int(at) for s, at in carry.get("running_since", {}).items()}
    banks = {int(s): int(left) for s, left in carry.get("banks", {}).items()}
    end = TurnClocks.resumed(control, running, banks).deadlines.get(seat)
    # Match time follows the wall clock from the match's start (``MatchClock``).
    return None if end is None else wall_ms(MatchClock(started_wall_ms, 0, rate), end)


async def untold_turns(db: AsyncSession, since: datetime, rate: float = 1.0) -> list[Untold]:
    """One query: the seats of verified, subscribed players at running correspondence
    matches last moved (or, with no move yet, started) at ``since`` or later, with no "your
    move" row (pending, claimed or sent) made after that seat's own last move. ``rate``:
    match time per wall time (``RAMPART_CLOCK_RATE``)."""
    last_version = (
        select(func.max(MatchAction.version))
        .where(MatchAction.match_id == Match.id)
        .correlate(Match)
        .scalar_subquery()
    )
    last = aliased(MatchAction)
    own_last = (
        select(func.max(MatchAction.created_at))
        .where(MatchAction.match_id == Match.id, MatchAction.seat == MatchSeat.seat)
        .correlate(Match, MatchSeat)
        .scalar_subquery()
    )
    told = exists().where(
        OutboxMail.account_id == MatchSeat.account_id,
        OutboxMail.match_id == Match.id,
        OutboxMail.kind == "turn",
        OutboxMail.created_at >= func.coalesce(own_last, Match.started_at),
    )
    query = (
        select(Match.id, Match.time_control, Match.started_wall_ms)
        .add_columns(MatchSeat.account_id, MatchSeat.seat, MatchWakeup.carry)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .join(EmailAddress, _subscribed())
        .outerjoin(last, and_(last.match_id == Match.id, last.version == last_version))
        .outerjoin(MatchWakeup, MatchWakeup.match_id == Match.id)
        .where(Match.status == "running")
        .where(func.coalesce(last.created_at, Match.started_at) >= since)
        .where(~told)
        .order_by(Match.id, MatchSeat.seat)
    )
    found = []
    for match_id, control, started, account_id, seat, carry in (await db.execute(query)).all():
        if move_days(control) is None:
            continue
        if carry is None:
            found.append(Untold(match_id, account_id, seat, None))
            continue
        running = frozenset(int(s) for s in carry.get("running_since", {}))
        deadline = None
        if seat in running:  # the clocks are read only for a seat the match awaits
            clocks = TimeControl.from_json(control, 0)
            deadline = _asleep_deadline(carry, clocks, started, seat, rate)
        found.append(Untold(match_id, account_id, seat, running, deadline))
    return found


async def untold_results(db: AsyncSession, since: datetime) -> list[tuple[int, int]]:
    """One query: (match, account) for each verified, subscribed player of a correspondence
    match finished at ``since`` or later with no "match over" row for him."""
    over = exists().where(
        OutboxMail.account_id == MatchSeat.account_id,
        OutboxMail.match_id == Match.id,
        OutboxMail.kind == "over",
    )
    query = (
        select(Match.id, Match.time_control, MatchSeat.account_id)
        .join(MatchSeat, MatchSeat.match_id == Match.id)
        .join(EmailAddress, _subscribed())
        .where(Match.status == "finished", Match.ended_at >= since)
        .where(~over)
        .order_by(Match.id, MatchSeat.account_id)
    )
    rows = (await db.execute(query)).all()
    return sorted({(m, a) for m, control, a in rows if move_days(control) is not None})
