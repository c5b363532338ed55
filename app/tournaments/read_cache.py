"""Tournament reads that walk every round and table (standings, rounds), kept until the
tournament changes.

A tournament of 256 players over 32 rounds has 4,096 tables: reading them and computing the
standings' tiebreaks takes the event loop for half a second or more, and a page polls it. So
each answer is kept with the tournament's *fingerprint*: counts that every change of its
standings or rounds moves (entries, their accounts, seeds and withdrawals; rounds, tables
and finished tables; voided matches; the tournament's status and round). Tables are made
with their match and only ever finish or are voided; an entry only withdraws, is seeded at
the start or on joining late, or leaves before the start. A read costs one small aggregate query
while nothing changed, and one computation per change however many read it: readers of a
tournament that changed share one computation.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.db.models import Match, Pairing, Tournament, TournamentEntry, TournamentRound
from app.errors import NotFound
from app.tournaments import store

KEPT = 64  # answers kept, all tournaments and kinds together


def fingerprint(session: Session, tournament_id: int) -> tuple[Hashable, ...]:
    """What moves whenever the tournament's standings or rounds change; raises ``NotFound``
    ``tournament/not_found``."""
    head = session.execute(
        select(Tournament.status, Tournament.current_round).where(Tournament.id == tournament_id)
    ).first()
    if head is None:
        raise NotFound("tournament/not_found", f"no tournament {tournament_id}")
    entries = session.execute(
        select(
            func.count(),
            func.count(case((TournamentEntry.status == "withdrawn", 1))),
            func.max(TournamentEntry.id),
            func.sum(TournamentEntry.account_id),
            func.count(TournamentEntry.seed),
        ).where(TournamentEntry.tournament_id == tournament_id)
    ).one()
    rounds = session.execute(
        select(func.count(), func.count(case((TournamentRound.status == "finished", 1)))).where(
            TournamentRound.tournament_id == tournament_id
        )
    ).one()
    voided = select(Match.id).where(Match.status == "voided")  # few: read off its index
    tables = session.execute(
        select(
            func.count(),
            func.count(case((Pairing.status == "finished", 1))),
            func.count(case((Pairing.match_id.in_(voided), 1))),
        ).where(Pairing.tournament_id == tournament_id)
    ).one()
    return (*head, *entries, *rounds, *tables)


class TournamentReads:
    """Standings and rounds per tournament, kept with the fingerprint they were computed at."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._kept: OrderedDict[tuple[int, str], tuple[Hashable, Any]] = OrderedDict()
        self._computing: dict[tuple[int, str, Hashable], asyncio.Future[Any]] = {}
        self.computed = 0  # computations made, all told (tests)

    async def standings(self, db: AsyncSession, tournament_id: int) -> list[dict[str, Any]]:
        """``store.standings``, kept until the tournament changes."""
        work = partial(store.standings, tournament_id=tournament_id)
        found: list[dict[str, Any]] = await self._read(db, tournament_id, "standings", work)
        return found

    async def rounds(self, db: AsyncSession, tournament_id: int) -> list[dict[str, Any]]:
        """``store.rounds_json``, kept until the tournament changes."""
        work = partial(store.rounds_json, tournament_id=tournament_id)
        found: list[dict[str, Any]] = await self._read(db, tournament_id, "rounds", work)
        return found

    async def _read(
        self, db: AsyncSession, tournament_id: int, kind: str, work: Callable[[Session], Any]
    ) -> Any:
        now = await db.run_sync(partial(fingerprint, tournament_id=tournament_id))
        key = (tournament_id, kind)
        kept = self._kept.get(key)
        if kept is not None and kept[0] == now:
            self._kept.move_to_end(key)
            return kept[1]
        flight = (tournament_id, kind, now)
        computing = self._computing.get(flight)
        if computing is not None:
            await asyncio.wait([computing])
            if not computing.cancelled() and computing.exception() is None:
                return computing.result()
            # Its reader went away or failed: compute here instead.
        computing = self._computing[flight] = asyncio.get_running_loop().create_future()
        try:
            answer = await db.run_sync(work)
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError):
                computing.cancel()
            else:
                computing.set_exception(error)
                computing.exception()  # retrieved: nobody else may be waiting for it
            raise
        finally:
            if self._computing.get(flight) is computing:
                del self._computing[flight]
        self.computed += 1
        computing.set_result(answer)
        self._kept[key] = (now, answer)
        self._kept.move_to_end(key)
        while len(self._kept) > self.kept:
            self._kept.popitem(last=False)
        return answer
