"""Players' reports of a match or a chat line, and the admins' queue of them.

Filing is limited per account (``RAMPART_REPORT_ACCOUNT_LIMIT``, counted by
``app.ops.ratelimits`` for the whole cluster): a report is cheap to send and costs an admin's
attention to read.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Account, Match, Report, utcnow
from app.errors import AppError, Conflict, NotFound
from app.moderation import audit


def file_report(
    session: Session,
    reporter: Account,
    match_id: int,
    reason: str,
    seat: int | None,
    chat_text: str | None,
) -> Report:
    """Refuses ``match/not_found`` (404) and ``report/bad_seat`` (422)."""
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound("match/not_found", f"no match {match_id}")
    if seat is not None and seat >= match.seat_count:
        raise AppError("report/bad_seat", f"match {match_id} has no seat {seat}", status=422)
    row = Report(
        reporter_id=reporter.id,
        match_id=match_id,
        seat=seat,
        chat_text=chat_text,
        reason=reason.strip(),
        status="open",
    )
    session.add(row)
    session.flush()
    return row


def listing(
    session: Session, status: str | None, limit: int, offset: int
) -> tuple[int, list[Report]]:
    query = select(Report)
    if status:
        query = query.where(Report.status == status)
    total = session.execute(select(func.count()).select_from(query.subquery())).scalar_one()
    rows = session.execute(query.order_by(Report.id.desc()).limit(limit).offset(offset))
    return int(total), list(rows.scalars())


def close_report(session: Session, admin: Account, report_id: int, resolution: str) -> Report:
    """Refuses ``report/not_found`` (404) and ``report/closed`` (409)."""
    row = session.get(Report, report_id)
    if row is None:
        raise NotFound("report/not_found", f"no report {report_id}")
    if row.status == "closed":
        raise Conflict("report/closed", f"report {report_id} is closed already")
    row.status = "closed"
    row.closed_by = admin.id
    row.closed_at = utcnow()
    row.resolution = resolution
    audit.record(
        session,
        admin,
        "close_report",
        reason=resolution,
        report_id=report_id,
        match_id=row.match_id,
    )
    return row


def report_json(row: Report) -> dict[str, Any]:
    return {
        "id": row.id,
        "reporter_id": row.reporter_id,
        "match_id": row.match_id,
        "seat": row.seat,
        "chat_text": row.chat_text,
        "reason": row.reason,
        "status": row.status,
        "created_at": row.created_at.isoformat(),
        "closed_by": row.closed_by,
        "closed_at": row.closed_at.isoformat() if row.closed_at else None,
        "resolution": row.resolution,
    }
