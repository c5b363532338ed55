"""Who is seated in a running match, read from the database every process shares: quick play
queues nobody who is, and pairs nobody into a second live match."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, MatchSeat
from app.errors import Conflict


class AlreadyPlaying(Conflict):
    """``queue/already_playing`` (409): the player holds a seat in a running match, named in
    the error body (``match_id``) so the client can offer to rejoin it."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            "queue/already_playing",
            f"you are playing match {match_id}: rejoin it, or finish it first",
        )
        self.match_id = match_id
        self.extra = {"match_id": match_id}


async def live_seats(db: AsyncSession, account_ids: Collection[int]) -> dict[int, int]:
    """Each of ``account_ids`` seated in a running match, and that match (the oldest if
    several)."""
    if not account_ids:
        return {}
    query = (
        select(MatchSeat.account_id, func.min(Match.id))
        .join(Match, Match.id == MatchSeat.match_id)
        .where(Match.status == "running", MatchSeat.account_id.in_(list(account_ids)))
        .group_by(MatchSeat.account_id)
    )
    rows = await db.execute(query)
    return {account: match for account, match in rows if account is not None}


async def refuse_if_playing(db: AsyncSession, account_id: int) -> None:
    """Raise ``AlreadyPlaying`` if the account holds a seat in a running match."""
    seated = await live_seats(db, [account_id])
    if account_id in seated:
        raise AlreadyPlaying(seated[account_id])
