"""Who is banned and who is muted, held in memory per process so a socket's hello and every
chat line are checked without touching the database.

Loaded from the database at start-up and reloaded whenever an admin changes it: in this
process directly, in the others on the cluster bus's ``moderation`` notice
(``app.moderation.service``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from app.db.models import Account, utcnow


class ModerationState:
    """The banned account ids and each muted account's end of mute (POSIX seconds)."""

    def __init__(self) -> None:
        self.banned: frozenset[int] = frozenset()
        self.muted: dict[int, float] = {}

    def is_banned(self, account_id: int | None) -> bool:
        return account_id is not None and account_id in self.banned

    def is_muted(self, account_id: int | None, now: datetime | None = None) -> bool:
        if account_id is None:
            return False
        until = self.muted.get(account_id)
        return until is not None and until > (now or utcnow()).timestamp()

    def load(self, session: Session) -> None:
        """Replace the sets with what the database holds now."""
        query = select(Account.id, Account.banned, Account.muted_until).where(
            or_(Account.banned.is_(True), Account.muted_until > utcnow())
        )
        banned: set[int] = set()
        muted: dict[int, float] = {}
        for account_id, is_banned, muted_until in session.execute(query):
            if is_banned:
                banned.add(account_id)
            if muted_until is not None:
                muted[account_id] = aware(muted_until).timestamp()
        self.banned = frozenset(banned)
        self.muted = muted


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes for timezone-aware columns: they are UTC."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment
