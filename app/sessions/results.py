"""Writing a finished match's result: the outcome, the ledger of the 1500-point scoring, flags."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.engine import database_unavailable
from app.db.repositories import MatchRepository
from app.protocol.match import Ended
from app.protocol.match import Outcome as OutcomeJson
from app.scoring.ledger import settle
from app.sessions.position import Position
from engines.base import Outcome

log = logging.getLogger(__name__)

RESULT_RETRY_S = 0.5  # between tries of a result write while the database cannot be written


async def write_result(
    sessionmaker: async_sessionmaker[AsyncSession],
    match: Position,
    match_id: int,
    forfeits: dict[str, Any],
    flags: dict[str, Any] | None,
) -> Ended:
    """Record the match's outcome at its current version, with the ledger settled by the
    rulebook's scoring (forfeited seats counted as such) and the grab races' suspicion flags.
    A casual match moves no ledger: it records none (null, and no seat's ``ledger_delta``).
    Returns the ``ended`` message that tells the players."""
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
    return ended_message(match_id, match.version, outcome, ledger, rated=match.rated)


async def write_result_retrying(
    sessionmaker: async_sessionmaker[AsyncSession],
    match: Position,
    match_id: int,
    forfeits: dict[str, Any],
    flags: dict[str, Any] | None,
) -> Ended:
    """``write_result``, tried again every ``RESULT_RETRY_S`` while the database cannot be
    written (the news of a match's last move waits for its result); any other failure
    raises."""
    while True:
        try:
            return await write_result(sessionmaker, match, match_id, forfeits, flags)
        except Exception as error:
            if not database_unavailable(error):
                raise
            log.warning("match %s: result not written (%r); retrying", match_id, error)
            await asyncio.sleep(RESULT_RETRY_S)


def ended_message(
    match_id: int, version: int, outcome: Outcome, ledger: dict[int, int] | None, *, rated: bool
) -> Ended:
    """The ``ended`` message of a finished match."""
    return {
        "type": "ended",
        "match_id": match_id,
        "version": version,
        "outcome": cast(OutcomeJson, outcome.to_json()),
        "rated": rated,
        "ledger": None if ledger is None else {str(seat): delta for seat, delta in ledger.items()},
    }
