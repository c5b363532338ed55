"""Your unfinished matches (``GET /api/accounts/me/matches``): whether each awaits you, and
until when."""

from __future__ import annotations

from pydantic import Field

from app.api.responses.common import Out
from app.api.responses.matches import MatchSeatOut


class MyMatchOut(Out):
    """One running match you hold a seat in."""

    match_id: int = Field(description="the match id (its table: `/match.html?id=<match_id>`)")
    game: str = Field(description="the game id")
    seats: list[MatchSeatOut] = Field(description="every seat in seat order, as the match shows")
    your_seats: list[int] = Field(description="the seats you hold (several at a hot seat)")
    awaiting_you: bool = Field(description="true: the match waits for one of your seats now")
    deadline: str | None = Field(
        description="when your turn clock runs out, ISO 8601 (UTC); null: not your turn, no "
        "turn clock, or the match is served by another process of a cluster"
    )
    deadline_ms: int | None = Field(description="the same moment in ms since the epoch")
    last_move_at: str = Field(
        description="when the latest action was written, ISO 8601 (UTC); the match's start "
        "while nothing has been played"
    )
    last_move_ms: int = Field(description="the same moment in ms since the epoch")


class MyMatches(Out):
    """Your running matches, the latest move first."""

    awaiting_count: int = Field(description="how many of them await you now")
    matches: list[MyMatchOut] = Field(description="newest move first (at most 200)")
