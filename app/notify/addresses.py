"""Players' e-mail addresses: set (a verification mail is queued), verified, removed, and
notifications turned off by an unsubscribe link or on again."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.mail import EmailAddress, OutboxMail
from app.errors import AppError, Conflict
from app.notify import outbox

# One verification mail a minute per account at most: giving addresses is no way to send mail
# to strangers by the hundred.
VERIFY_EVERY = timedelta(minutes=1)


class TooSoon(AppError):
    """429: a verification mail went to this account less than ``VERIFY_EVERY`` ago."""

    status = 429

    def __init__(self, wait: timedelta) -> None:
        super().__init__("email/too_soon", "a verification mail was sent a moment ago: wait")
        self.headers = {"Retry-After": str(max(1, math.ceil(wait.total_seconds())))}


@dataclass(frozen=True)
class AddressState:
    """What a player's account shows of his address."""

    address: str
    verified: bool
    notifications: bool


def normalised(address: str) -> str:
    """The address as it is kept (domain lower-cased, internationalised domains in Unicode);
    ``email/invalid`` (422) if it is not one. No DNS lookup is made."""
    try:
        checked = validate_email(address, check_deliverability=False)
    except EmailNotValidError as error:
        raise AppError("email/invalid", f"not an e-mail address: {error}", status=422) from error
    return str(checked.normalized)


def state_of(row: EmailAddress | None) -> AddressState | None:
    if row is None:
        return None
    return AddressState(row.address, row.verified_at is not None, row.notifications)


async def set_address(db: AsyncSession, account_id: int, address: str) -> AddressState:
    """Give the account ``address`` (unverified, notifications on) and queue the mail that
    verifies it; the same address again only queues that mail again while unverified.
    ``email/too_soon`` (429, ``Retry-After``) within ``VERIFY_EVERY`` of the last one. Commits."""
    row = await db.get(EmailAddress, account_id)
    if row is not None and row.address == address and row.verified_at is not None:
        return AddressState(address, True, row.notifications)
    now = datetime.now(UTC)
    last = await db.scalar(
        select(func.max(OutboxMail.created_at)).where(
            OutboxMail.account_id == account_id, OutboxMail.kind == "verify"
        )
    )
    if last is not None:
        wait = (last if last.tzinfo else last.replace(tzinfo=UTC)) + VERIFY_EVERY - now
        if wait > timedelta(0):
            raise TooSoon(wait)
    if row is None:
        row = EmailAddress(account_id=account_id, address=address, notifications=True)
        db.add(row)
    else:
        row.address, row.verified_at, row.notifications = address, None, True
    detail = {"address": address}
    await outbox.queue(db, account_id, "verify", now, detail=detail)
    await db.commit()
    return AddressState(address, False, True)


async def remove_address(db: AsyncSession, account_id: int) -> None:
    """Forget the account's address and every mail not sent to it yet. Commits."""
    await db.execute(
        delete(OutboxMail).where(
            OutboxMail.account_id == account_id, OutboxMail.claimed_at.is_(None)
        )
    )
    await db.execute(delete(EmailAddress).where(EmailAddress.account_id == account_id))
    await db.commit()


async def verify(db: AsyncSession, account_id: int, address: str) -> AddressState:
    """Mark the address verified if it is still the account's; ``email/changed`` (409)
    otherwise (the player gave another address, or removed it, since). Commits."""
    row = await db.get(EmailAddress, account_id)
    if row is None or row.address != address:
        raise Conflict("email/changed", "this address is no longer the account's")
    if row.verified_at is None:
        row.verified_at = datetime.now(UTC)
    state = AddressState(row.address, True, row.notifications)
    await db.commit()
    return state


async def set_notifications(db: AsyncSession, account_id: int, on: bool) -> AddressState | None:
    """Turn the account's notifications on or off (None: it has no address). Off, every mail
    not sent yet is cancelled. Commits."""
    row = await db.get(EmailAddress, account_id)
    if row is None:
        await db.commit()
        return None
    row.notifications = on
    if not on:
        await outbox.cancel(db, account_id, outbox.DIGEST_KINDS, match_id=None)
    state = state_of(row)
    await db.commit()
    return state
