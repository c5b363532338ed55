"""Admin REST (``/api/admin``): ban, mute, void, abort, the reports queue and the audit log.

Every route needs an admin's token: none is ``auth/required`` (401), a player's is
``admin/required`` (403). The role is granted from the command line (``python -m app admin
grant NAME``). Each action is written to the audit log (``GET /api/admin/audit``).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import Field
from sqlalchemy import select

from app.accounts.names import name_key
from app.api.deps import CurrentPlayer, ModerationDep, SessionDep
from app.api.errors import declared
from app.api.params import IdPath, Offset
from app.api.responses.admin import (
    AbortedOut,
    AdminPlayer,
    AuditList,
    ReportList,
    ReportOut,
    VoidedOut,
)
from app.api.schemas import Body
from app.db.models import Account
from app.errors import Forbidden, NotFound
from app.moderation import audit, reports
from app.moderation.state import aware

router = APIRouter(prefix="/api/admin", tags=["admin"])

REASON_MAX = 500
MUTE_MINUTES_MAX = 525_600  # a year


async def current_admin(player: CurrentPlayer) -> Account:
    """The signed-in account, which must hold the admin role (``admin/required``, 403)."""
    if not player.is_admin:
        raise Forbidden("admin/required", "only an admin may do this")
    return player


Admin = Annotated[Account, Depends(current_admin)]
Reason = Annotated[str, Field(max_length=REASON_MAX)]


class Because(Body):
    reason: Reason = ""


class MuteIn(Body):
    # None: until unmuted.
    minutes: int | None = Field(default=None, ge=1, le=MUTE_MINUTES_MAX)
    reason: Reason = ""


class VoidIn(Body):
    reason: Annotated[str, Field(min_length=1, max_length=REASON_MAX)]


class CloseIn(Body):
    resolution: Reason = ""


def player_json(account: Account) -> dict[str, Any]:
    muted = aware(account.muted_until).isoformat() if account.muted_until else None
    return {
        "id": account.id,
        "name": account.name,
        "guest": account.is_guest,
        "is_admin": account.is_admin,
        "banned": account.banned,
        "muted_until": muted,
    }


@router.get(
    "/players",
    response_model=AdminPlayer,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 422, 503),
)
async def find_player(
    admin: Admin, db: SessionDep, name: Annotated[str, Query(min_length=1, max_length=60)]
) -> dict[str, Any]:
    """The account of that name (matched as logins match it); ``player/not_found``."""
    found = await db.execute(select(Account).where(Account.name_key == name_key(name)))
    account = found.scalars().first()
    if account is None:
        raise NotFound("player/not_found", f"no player named {name!r}")
    return player_json(account)


async def _player(db: SessionDep, account_id: int) -> dict[str, Any]:
    account = await db.get(Account, account_id, populate_existing=True)
    if account is None:
        raise NotFound("player/not_found", f"no player {account_id}")
    return player_json(account)


@router.post(
    "/players/{account_id}/ban",
    response_model=AdminPlayer,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 409, 422, 503),
)
async def ban(
    account_id: IdPath, body: Because, admin: Admin, service: ModerationDep, db: SessionDep
) -> dict[str, Any]:
    """Ban: the account's tokens are refused (``auth/banned``) on every call and socket from
    now on, its seats in live matches are resigned, it cannot log in. An admin cannot be
    banned (``admin/target_admin``, 409): revoke the role first."""
    resigned = await service.ban(admin, account_id, body.reason)
    return {**await _player(db, account_id), "resigned_in": resigned}


@router.post(
    "/players/{account_id}/unban",
    response_model=AdminPlayer,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 422, 503),
)
async def unban(
    account_id: IdPath, body: Because, admin: Admin, service: ModerationDep, db: SessionDep
) -> dict[str, Any]:
    await service.unban(admin, account_id, body.reason)
    return await _player(db, account_id)


@router.post(
    "/players/{account_id}/mute",
    response_model=AdminPlayer,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 422, 503),
)
async def mute(
    account_id: IdPath, body: MuteIn, admin: Admin, service: ModerationDep, db: SessionDep
) -> dict[str, Any]:
    """Mute the player's chat for ``minutes`` (omitted: until unmuted): its chat messages
    are refused ``chat/muted``."""
    await service.mute(admin, account_id, body.minutes, body.reason)
    return await _player(db, account_id)


@router.post(
    "/players/{account_id}/unmute",
    response_model=AdminPlayer,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 422, 503),
)
async def unmute(
    account_id: IdPath, body: Because, admin: Admin, service: ModerationDep, db: SessionDep
) -> dict[str, Any]:
    await service.mute(admin, account_id, 0, body.reason)
    return await _player(db, account_id)


@router.post(
    "/matches/{match_id}/void",
    response_model=VoidedOut,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 409, 422, 503),
)
async def void(
    match_id: IdPath, body: VoidIn, admin: Admin, service: ModerationDep
) -> dict[str, Any]:
    """Void a finished rated match: its ledger, ladder points, skill ratings and tournament
    standings changes are reversed (``app.moderation.voiding``); it shows ``voided``.
    Refuses ``match/not_rated``, ``match/not_finished``, ``match/already_voided``,
    ``match/not_recorded`` (409)."""
    reversed_ = await service.void(admin, match_id, body.reason)
    return {"match_id": match_id, "status": "voided", "reversed": reversed_}


@router.post(
    "/matches/{match_id}/abort",
    response_model=AbortedOut,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 409, 422, 503),
)
async def abort(
    match_id: IdPath, body: Because, admin: Admin, service: ModerationDep
) -> dict[str, Any]:
    """End a live match with no result (status ``aborted``): every socket gets an error
    ``match/aborted`` and is closed normally. Refuses ``match/over`` and
    ``match/in_tournament`` (409)."""
    outcome = await service.abort(admin, match_id, body.reason)
    return {"match_id": match_id, "status": outcome}


@router.get(
    "/reports",
    response_model=ReportList,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 422, 503),
)
async def list_reports(
    admin: Admin,
    db: SessionDep,
    status: Literal["open", "closed"] | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Players' reports, newest first, optionally only ``open`` or ``closed`` ones."""
    work = partial(reports.listing, status=status, limit=limit, offset=offset)
    total, rows = await db.run_sync(work)
    return {"total": total, "reports": [reports.report_json(r) for r in rows]}


@router.post(
    "/reports/{report_id}/close",
    response_model=ReportOut,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 409, 422, 503),
)
async def close_report(
    report_id: IdPath, body: CloseIn, admin: Admin, service: ModerationDep
) -> dict[str, Any]:
    """Close a report (``report/not_found``, ``report/closed``)."""
    work = partial(
        reports.close_report, admin=admin, report_id=report_id, resolution=body.resolution
    )
    return reports.report_json(await service.writer.run(work))


@router.get(
    "/audit",
    response_model=AuditList,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 422, 503),
)
async def audit_log(
    admin: Admin,
    db: SessionDep,
    action: Annotated[audit.AuditAction | None, Query(description="only this action's")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Offset = 0,
) -> dict[str, Any]:
    """Every admin action, newest first: who, what, on whom, why, what it changed."""
    total, rows = await db.run_sync(
        partial(audit.listing, action=action, limit=limit, offset=offset)
    )
    return {"total": total, "actions": [audit.audit_json(r) for r in rows]}
