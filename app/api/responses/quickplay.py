"""Quick play responses: a queue ticket and a rematch offer."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import Out


class TicketOut(Out):
    """A quick play ticket, as its owner sees it."""

    ticket: str = Field(description="the ticket id (read it at `GET /api/queue/{ticket}`)")
    status: Literal["waiting", "matched", "cancelled"] = Field(
        description="`waiting`, `matched` or `cancelled`"
    )
    match_id: int | None = Field(description="the match once `matched`, else null")
    game: str = Field(description="the game id")
    seats: int = Field(description="the table size asked for")
    rated: bool = Field(description="a rated match was asked for")
    waited_s: float = Field(description="seconds waited so far (until matched or cancelled)")
    estimate_s: float = Field(description="the expected wait for this pool, in seconds")


class RematchOut(Out):
    """A rematch offer of a finished match."""

    type: Literal["rematch"] = Field(
        description="always `rematch` (the same body as the socket message)"
    )
    match_id: int = Field(description="the finished match")
    accepted: list[int] = Field(description="seats that offered or accepted")
    waiting: list[int] = Field(description="human seats still to accept")
    expires_in_s: float = Field(description="seconds left to accept (60 s from the offer)")
    new_match_id: int | None = Field(description="the new match once all accepted, else null")
