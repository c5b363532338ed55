"""Writing a finished match's result: the outcome, the ledger of the 1500-point scoring, flags."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.repositories import MatchRepository
from app.scoring.ledger import settle
from app.sessions.position import Position


async def write_result(
    sessionmaker: async_sessionmaker[AsyncSession],
    match: Position,
    match_id: int,
    forfeits: dict[str, Any],
    flags: dict[str, Any] | None,
) -> None:
    """Record the match's outcome at its current version, with the ledger settled by the
    rulebook's scoring (forfeited seats counted as such) and the grab races' suspicion flags.
    A casual match moves no ledger: it records none (null, and no seat's ``ledger_delta``)."""
    outcome = match.engine.outcome(match.state)
    assert outcome is not None, "only a decided match has a result"
    ledger = settle(outcome, forfeited=[int(seat) for seat in forfeits]) if match.rated else None
    async with sessionmaker() as db:
        await MatchRepository(db).finish(
            match_id,
            status="finished",
            version=match.version,
            result=outcome.to_json(),
            ledger=ledger,
            forfeits=forfeits,
            flags=flags,
        )
