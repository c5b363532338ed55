"""``POST /api/reports``: any signed-in player reports a match or a chat line in it."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import Field

from app.api.deps import CurrentPlayer, LimitsDep, ModerationDep
from app.api.errors import declared
from app.api.params import BodyId, BodySeat
from app.api.responses.admin import ReportOut
from app.api.schemas import Body
from app.moderation.reports import file_report, report_json

router = APIRouter(prefix="/api", tags=["reports"])


class NewReport(Body):
    match_id: BodyId
    reason: Annotated[str, Field(min_length=1, max_length=500)]
    # A chat line: its text as the reporter saw it, and the seat that said it.
    seat: BodySeat | None = None
    chat_text: Annotated[str | None, Field(max_length=500)] = None


@router.post(
    "/reports",
    status_code=201,
    response_model=ReportOut,
    response_model_exclude_unset=True,
    responses=declared(401, 404, 422, 429, 503),
)
async def report(
    body: NewReport, player: CurrentPlayer, limits: LimitsDep, moderation: ModerationDep
) -> dict[str, Any]:
    """File a report for the admins (``GET /api/admin/reports``). Refuses
    ``match/not_found`` (404), ``report/bad_seat`` (422) and, past a few reports in ten
    minutes (``RAMPART_REPORT_ACCOUNT_LIMIT``), ``report/rate_limited`` (429,
    ``Retry-After``)."""
    await limits.rates.hit(limits.reports, str(player.id))
    work = partial(
        file_report,
        reporter=player,
        match_id=body.match_id,
        reason=body.reason,
        seat=body.seat,
        chat_text=body.chat_text,
    )
    return report_json(await moderation.writer.run(work))
