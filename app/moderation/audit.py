"""The audit log: one row per admin action (who, when, what, on whom, why, what it changed)."""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Account, AuditRecord

# Every action an audit row records (the admin API's ``action`` filter takes these only).
AuditAction = Literal[
    "ban",
    "unban",
    "mute",
    "unmute",
    "void",
    "abort",
    "close_report",
    "grant_admin",
    "revoke_admin",
]


def record(
    session: Session,
    admin: Account | None,
    action: AuditAction,
    *,
    reason: str = "",
    account_id: int | None = None,
    match_id: int | None = None,
    report_id: int | None = None,
    detail: dict[str, Any] | None = None,
) -> AuditRecord:
    """Add the action's audit row (``admin`` None: the operator's command line)."""
    row = AuditRecord(
        admin_id=admin.id if admin is not None else None,
        actor=admin.name if admin is not None else "cli",
        action=action,
        account_id=account_id,
        match_id=match_id,
        report_id=report_id,
        reason=reason,
        detail=detail or {},
    )
    session.add(row)
    session.flush()
    return row


def listing(
    session: Session, action: str | None, limit: int, offset: int
) -> tuple[int, list[AuditRecord]]:
    query = select(AuditRecord)
    if action:
        query = query.where(AuditRecord.action == action)
    rows = session.execute(
        query.order_by(AuditRecord.id.desc()).limit(limit).offset(offset)
    ).scalars()
    total = session.execute(select(func.count()).select_from(query.subquery())).scalar_one()
    return int(total), list(rows)


def audit_json(row: AuditRecord) -> dict[str, Any]:
    return {
        "id": row.id,
        "admin_id": row.admin_id,
        "actor": row.actor,
        "action": row.action,
        "account_id": row.account_id,
        "match_id": row.match_id,
        "report_id": row.report_id,
        "reason": row.reason,
        "detail": row.detail,
        "at": row.created_at.isoformat(),
    }
