"""Repositories: every query and every transaction of the server lives here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import flag_modified

from app.accounts.names import name_key, name_skeleton
from app.db.models import Account, Lobby, Match, MatchAction, MatchSeat, utcnow
from app.errors import Conflict, NotFound


def name_taken(name: str) -> Conflict:
    """``account/name_taken``: ``name``, or one that looks like it, belongs to someone."""
    return Conflict(
        "account/name_taken", f"the name {name!r} is taken or looks like one that is; pick another"
    )


class AccountRepository:
    """Accounts; ``create`` commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def create(self, name: str, password_hash: str | None, *, bot: bool = False) -> Account:
        """A guest (no hash) or a registered account named ``name`` (already checked by
        ``app.accounts.names.player_name``); raises ``Conflict`` ``account/name_taken`` when
        any account, guest or registered, already has the same name key, or a name that looks
        like it (the same ``name_skeleton``)."""
        account = Account(name=name, password_hash=password_hash, bot=bot)
        self.session.add(account)
        try:
            await self.session.commit()
        except IntegrityError as exc:
            await self.session.rollback()
            raise name_taken(name) from exc
        return account

    async def taken(self, name: str) -> bool:
        """Whether an account holds ``name`` or a name that looks like it: one query on the
        two unique (so indexed) keys."""
        query = select(Account.id).where(
            or_(Account.name_key == name_key(name), Account.name_skeleton == name_skeleton(name))
        )
        found = await self.session.scalar(query.limit(1))
        return found is not None

    async def get(self, account_id: int) -> Account | None:
        return await self.session.get(Account, account_id)

    async def by_key(self, key: str) -> Account | None:
        result = await self.session.execute(select(Account).where(Account.name_key == key))
        return result.scalar_one_or_none()

    async def names(self, ids: Sequence[int]) -> dict[int, str]:
        if not ids:
            return {}
        rows = await self.session.execute(
            select(Account.id, Account.name).where(Account.id.in_(ids))
        )
        return {row.id: row.name for row in rows}


class LobbyRepository:
    """Lobbies; ``add`` and ``save`` commit."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, lobby: Lobby) -> Lobby:
        self.session.add(lobby)
        await self.session.commit()
        return lobby

    async def get(self, lobby_id: int) -> Lobby:
        """The lobby; raises ``NotFound`` ``lobby/not_found``."""
        lobby = await self.session.get(Lobby, lobby_id, populate_existing=True)
        if lobby is None:
            raise NotFound("lobby/not_found", f"no lobby {lobby_id}")
        return lobby

    async def save(self, lobby: Lobby) -> None:
        """Commit a change, one revision later (callers hold the lobby's lock)."""
        lobby.revision += 1
        # JSON columns do not track in-place mutation: say explicitly that they changed.
        flag_modified(lobby, "members")
        await self.session.commit()

    async def open_public_count(self, host_id: int) -> int:
        """How many open public tables ``host_id`` has raised."""
        query = select(func.count(Lobby.id)).where(
            Lobby.status == "open", Lobby.public.is_(True), Lobby.host_id == host_id
        )
        return int((await self.session.execute(query)).scalar_one())

    async def list_open(self, game: str | None = None) -> list[Lobby]:
        query = select(Lobby).where(Lobby.status == "open", Lobby.public.is_(True))
        if game:
            query = query.where(Lobby.game == game)
        result = await self.session.execute(query.order_by(Lobby.id))
        return list(result.scalars())


@dataclass
class SeatSpec:
    account_id: int | None
    bot: str | None
    name: str


# ``search`` counts at most this many matches: a count walks every row that matches, on the
# event loop (SQLite), and a count of a million rows would stall every live match.
MATCH_COUNT_CAP = 10_000


@dataclass
class MatchFilter:
    game: str | None = None
    player: int | None = None
    status: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    limit: int = 50
    offset: int = 0


class MatchRepository:
    """Matches, their seats and their action log; every write commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def create(
        self,
        *,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[SeatSpec],
        rated: bool,
        time_control: dict[str, Any],
        lobby_id: int | None,
        started_wall_ms: int,
    ) -> Match:
        match = Match(
            game=game,
            seat_count=len(seats),
            options=options,
            seed=seed,
            rated=rated,
            time_control=time_control,
            lobby_id=lobby_id,
            started_wall_ms=started_wall_ms,
            status="running",
            version=0,
            forfeits={},
        )
        self.session.add(match)
        await self.session.flush()
        for index, spec in enumerate(seats):
            self.session.add(
                MatchSeat(
                    match_id=match.id,
                    seat=index,
                    account_id=spec.account_id,
                    bot=spec.bot,
                    name=spec.name,
                )
            )
        await self.session.commit()
        return match

    async def finish(
        self,
        match_id: int,
        *,
        status: str,
        version: int,
        result: dict[str, Any] | None,
        ledger: dict[int, int] | None,
        forfeits: dict[str, Any],
        flags: dict[str, Any] | None = None,
    ) -> None:
        await self.session.execute(
            update(Match)
            .where(Match.id == match_id)
            .values(
                status=status,
                version=version,
                result=result,
                ledger=None
                if ledger is None
                else {str(seat): delta for seat, delta in ledger.items()},
                forfeits=forfeits,
                flags=flags,
                ended_at=utcnow(),
            )
        )
        for seat, delta in (ledger or {}).items():
            await self.session.execute(
                update(MatchSeat)
                .where(MatchSeat.match_id == match_id, MatchSeat.seat == seat)
                .values(ledger_delta=delta)
            )
        await self.session.commit()

    async def get(self, match_id: int) -> Match:
        """The match; raises ``NotFound`` ``match/not_found``."""
        match = await self.session.get(Match, match_id, populate_existing=True)
        if match is None:
            raise NotFound("match/not_found", f"no match {match_id}")
        return match

    async def seats(self, match_id: int) -> list[MatchSeat]:
        result = await self.session.execute(
            select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
        )
        return list(result.scalars())

    async def actions(self, match_id: int, upto: int | None = None) -> list[MatchAction]:
        query = select(MatchAction).where(MatchAction.match_id == match_id)
        if upto is not None:
            query = query.where(MatchAction.version <= upto)
        result = await self.session.execute(query.order_by(MatchAction.version))
        return list(result.scalars())

    async def actions_page(self, match_id: int, after: int, limit: int) -> list[MatchAction]:
        """Up to ``limit`` log rows of the match after version ``after``, in order."""
        query = (
            select(MatchAction)
            .where(MatchAction.match_id == match_id, MatchAction.version > after)
            .order_by(MatchAction.version)
            .limit(limit)
        )
        result = await self.session.execute(query)
        return list(result.scalars())

    async def latest_version(self, match_id: int) -> int:
        """The match's last logged version (0: nothing logged yet), read from the log's key."""
        query = select(func.max(MatchAction.version)).where(MatchAction.match_id == match_id)
        return int(await self.session.scalar(query) or 0)

    async def entries(
        self, match_id: int, after: int, upto: int
    ) -> list[tuple[int | None, dict[str, Any], int]]:
        """The log entries ``(seat, action, at_ms)`` of versions ``after + 1`` to ``upto``
        in order: what a replay applies, without the events."""
        query = (
            select(MatchAction.seat, MatchAction.action, MatchAction.at_ms)
            .where(
                MatchAction.match_id == match_id,
                MatchAction.version > after,
                MatchAction.version <= upto,
            )
            .order_by(MatchAction.version)
        )
        result = await self.session.execute(query)
        return [(seat, action, at_ms) for seat, action, at_ms in result.all()]

    async def running(self) -> list[tuple[int, int]]:
        """Every unfinished match as ``(id, started_wall_ms)``, oldest first."""
        query = select(Match.id, Match.started_wall_ms).where(Match.status == "running")
        result = await self.session.execute(query.order_by(Match.id))
        return [(match_id, started) for match_id, started in result.all()]

    async def search(self, spec: MatchFilter) -> tuple[int, list[Match]]:
        """The matches of ``spec``'s page, newest first, and how many match, counted up to
        ``MATCH_COUNT_CAP`` (from the ids alone)."""
        wanted: list[ColumnElement[bool]] = []
        if spec.game:
            wanted.append(Match.game == spec.game)
        if spec.status:
            wanted.append(Match.status == spec.status)
        if spec.since:
            wanted.append(Match.started_at >= spec.since)
        if spec.until:
            wanted.append(Match.started_at < spec.until)
        if spec.player is not None:
            seated = select(MatchSeat.match_id).where(MatchSeat.account_id == spec.player)
            wanted.append(Match.id.in_(seated))
        ids = select(Match.id).where(*wanted).limit(MATCH_COUNT_CAP).subquery()
        total = await self.session.scalar(select(func.count()).select_from(ids))
        rows = await self.session.execute(
            select(Match)
            .where(*wanted)
            .order_by(Match.id.desc())
            .limit(spec.limit)
            .offset(spec.offset)
        )
        return int(total or 0), list(rows.scalars())

    async def seats_of(self, match_ids: Sequence[int]) -> dict[int, list[MatchSeat]]:
        if not match_ids:
            return {}
        result = await self.session.execute(
            select(MatchSeat)
            .where(MatchSeat.match_id.in_(match_ids))
            .order_by(MatchSeat.match_id, MatchSeat.seat)
        )
        grouped: dict[int, list[MatchSeat]] = {}
        for seat in result.scalars():
            grouped.setdefault(seat.match_id, []).append(seat)
        return grouped
