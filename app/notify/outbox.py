"""The outbox of mails in SQL: queued, cancelled, claimed by one sender, marked sent.

Each row is one thing to tell a player. A sender claims the due rows in one transaction (on
PostgreSQL ``FOR UPDATE SKIP LOCKED``, so two processes of a cluster never take the same row;
SQLite runs one process) and marks them sent once the SMTP server took the mail. A claim older
than ``LEASE`` is a sender that died mid-way: its rows are taken again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from app.db.mail import EmailAddress, OutboxMail

LEASE = timedelta(minutes=10)
CLAIMED_AT_ONCE = 200  # rows one pass of the sender claims at most
# Kinds the sender folds into one digest per account (the rest are mailed one by one).
DIGEST_KINDS = ("turn", "reminder", "over")


@dataclass(frozen=True)
class Claimed:
    """A claimed row, detached from its session."""

    id: int
    account_id: int
    kind: str
    match_id: int | None
    detail: dict[str, Any]


async def recipient(db: AsyncSession, account_id: int) -> EmailAddress | None:
    """The account's address if it is verified and takes notifications, else None."""
    row = await db.get(EmailAddress, account_id)
    if row is None or row.verified_at is None or not row.notifications:
        return None
    return row


async def queue(
    db: AsyncSession,
    account_id: int,
    kind: str,
    due_at: datetime,
    *,
    match_id: int | None = None,
    detail: dict[str, Any] | None = None,
) -> None:
    """Queue one mail; an unclaimed row of the same account, kind and match is replaced (a
    player is told once that a match awaits him, whatever happened meanwhile)."""
    await cancel(db, account_id, (kind,), match_id=match_id)
    row = OutboxMail(
        account_id=account_id, kind=kind, match_id=match_id, detail=detail or {}, due_at=due_at
    )
    db.add(row)


async def cancel(
    db: AsyncSession, account_id: int | None, kinds: Iterable[str], *, match_id: int | None
) -> None:
    """Delete the unclaimed rows of these kinds (of one account, or of everyone with
    ``account_id`` None) about ``match_id``."""
    conditions: list[ColumnElement[bool]] = [
        OutboxMail.kind.in_(list(kinds)),
        OutboxMail.sent_at.is_(None),
        OutboxMail.claimed_at.is_(None),
    ]
    if account_id is not None:
        conditions.append(OutboxMail.account_id == account_id)
    if match_id is not None:
        conditions.append(OutboxMail.match_id == match_id)
    await db.execute(delete(OutboxMail).where(*conditions))


def _claimable(now: datetime) -> Any:
    return and_(
        OutboxMail.sent_at.is_(None),
        or_(OutboxMail.claimed_at.is_(None), OutboxMail.claimed_at < now - LEASE),
    )


async def claim(db: AsyncSession, now: datetime) -> list[Claimed]:
    """Claim the due rows and, with them, every pending digest row of the same accounts (a
    turn whose batching delay has not run out goes in the same mail as one that has);
    commits. Returns them in order of creation."""
    locking = db.get_bind().dialect.name == "postgresql"

    def locked(query: Any) -> Any:
        return query.with_for_update(skip_locked=True) if locking else query

    due = locked(
        select(OutboxMail.id, OutboxMail.account_id)
        .where(_claimable(now), OutboxMail.due_at <= now)
        .order_by(OutboxMail.due_at, OutboxMail.id)
        .limit(CLAIMED_AT_ONCE)
    )
    found = (await db.execute(due)).all()
    ids = {row.id for row in found}
    accounts = sorted({row.account_id for row in found})
    if accounts:
        pending = locked(
            select(OutboxMail.id).where(
                _claimable(now),
                OutboxMail.account_id.in_(accounts),
                OutboxMail.kind.in_(DIGEST_KINDS),
                OutboxMail.kind != "reminder",  # a reminder waits for its own moment
            )
        )
        ids.update((await db.execute(pending)).scalars())
    if not ids:
        await db.commit()
        return []
    await db.execute(update(OutboxMail).where(OutboxMail.id.in_(ids)).values(claimed_at=now))
    rows = (
        await db.execute(select(OutboxMail).where(OutboxMail.id.in_(ids)).order_by(OutboxMail.id))
    ).scalars()
    claimed = [Claimed(r.id, r.account_id, r.kind, r.match_id, dict(r.detail)) for r in rows]
    await db.commit()
    return claimed


async def mark_sent(db: AsyncSession, ids: Iterable[int], now: datetime) -> None:
    await db.execute(update(OutboxMail).where(OutboxMail.id.in_(list(ids))).values(sent_at=now))
    await db.commit()


async def drop(db: AsyncSession, ids: Iterable[int]) -> None:
    """Delete claimed rows nobody is to be told of any more (the address went away)."""
    await db.execute(delete(OutboxMail).where(OutboxMail.id.in_(list(ids))))
    await db.commit()


async def retry(db: AsyncSession, ids: Iterable[int], at: datetime) -> None:
    """Give claimed rows back, due again at ``at`` (the SMTP server refused or was away)."""
    values = {"claimed_at": None, "due_at": at}
    await db.execute(update(OutboxMail).where(OutboxMail.id.in_(list(ids))).values(**values))
    await db.commit()


async def next_due(db: AsyncSession) -> datetime | None:
    """When the earliest unsent, unclaimed row falls due."""
    query = select(OutboxMail.due_at).where(
        OutboxMail.sent_at.is_(None), OutboxMail.claimed_at.is_(None)
    )
    return (await db.execute(query.order_by(OutboxMail.due_at).limit(1))).scalar()
