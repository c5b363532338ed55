"""Quick play REST: join the matchmaking queue, read a ticket, leave; offer a rematch."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import Field

from app.api.deps import CurrentPlayer, QueueDep, RematchesDep, SessionDep
from app.api.errors import declared
from app.api.params import IdPath, ShortText
from app.api.responses.quickplay import RematchOut, TicketOut
from app.api.schemas import Body, TimeControlIn

router = APIRouter(prefix="/api/queue", tags=["quick play"])

TicketPath = Annotated[
    str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="a ticket")
]


class NewTicket(Body):
    game: ShortText
    seats: int = Field(ge=2, le=16)
    rated: bool = False
    time_control: TimeControlIn = Field(default_factory=TimeControlIn)
    bots_after_s: float | None = Field(
        default=None,
        ge=0,
        le=3600,
        allow_inf_nan=False,
        description="casual only: after this many seconds without a full table, bots fill it",
    )


@router.post(
    "",
    status_code=202,
    response_model=TicketOut,
    response_model_exclude_unset=True,
    responses=declared(400, 401, 404, 409, 422, 503),
)
async def join_queue(
    body: NewTicket, player: CurrentPlayer, db: SessionDep, queue: QueueDep
) -> dict[str, Any]:
    """Wait for a fair game: ``{"ticket", "status": "waiting", ...}``. A second ticket
    replaces the first. Refusals: ``queue/unknown_game``, ``queue/bad_seats``,
    ``queue/rated_bots``, ``queue/no_bots``, ``queue/already_playing`` (409: the player holds
    a seat in a running match, the error's ``match_id``)."""
    return await queue.enqueue(
        db,
        player,
        game=body.game,
        seats=body.seats,
        rated=body.rated,
        time_control=body.time_control.model_dump(exclude_none=True),
        bots_after_s=body.bots_after_s,
    )


@router.get(
    "/{ticket}",
    response_model=TicketOut,
    response_model_exclude_unset=True,
    responses=declared(401, 404, 422, 503),
)
async def read_ticket(ticket: TicketPath, player: CurrentPlayer, queue: QueueDep) -> dict[str, Any]:
    """``{"ticket", "status": "waiting" | "matched" | "cancelled", "match_id", "waited_s",
    "estimate_s"}``; only the owner may read it (``queue/not_found`` otherwise)."""
    return await queue.status(player, ticket)


@router.delete(
    "/{ticket}",
    response_model=TicketOut,
    response_model_exclude_unset=True,
    responses=declared(401, 404, 422, 503),
)
async def cancel_ticket(
    ticket: TicketPath, player: CurrentPlayer, queue: QueueDep
) -> dict[str, Any]:
    """Leave the queue (a matched ticket stays matched)."""
    return await queue.cancel(player, ticket)


rematch_router = APIRouter(prefix="/api/matches", tags=["quick play"])


@rematch_router.post(
    "/{match_id}/rematch",
    response_model=RematchOut,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 409, 422, 503),
)
async def offer_rematch(
    match_id: IdPath, player: CurrentPlayer, rematches: RematchesDep
) -> dict[str, Any]:
    """Offer or accept a rematch of a finished match (every human seat must, within 60 s):
    ``{"match_id", "accepted": [seats], "waiting": [seats], "expires_in_s", "new_match_id"}``.
    Refusals: ``match/not_found``, ``rematch/not_finished`` (409), ``rematch/not_seated``
    (403), ``match/elsewhere`` (409: another process serves the match)."""
    return await rematches.offer(player.id, match_id)
