"""ORM models of e-mail notifications: each player's address, and the outbox of mails to send."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class EmailAddress(Base):
    """A registered player's e-mail address: verified once he opened the link mailed to it;
    ``notifications`` off after an unsubscribe link (or his own choice)."""

    __tablename__ = "account_emails"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))
    verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    notifications: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OutboxMail(Base):
    """One mail to send (``app.notify.outbox``): to whom, what about (``kind``: ``verify``,
    ``turn``, ``reminder``, ``over``), for which match, from when. A sender claims due rows
    (``claimed_at``) and marks them ``sent_at``; a row cancelled before it is sent is deleted."""

    __tablename__ = "mail_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    match_id: Mapped[int | None] = mapped_column(Integer)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# The sender's scan: the unsent rows in due order.
Index("ix_mail_outbox_due", OutboxMail.sent_at, OutboxMail.due_at)
