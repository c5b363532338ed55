"""Player responses: a profile and the rating history."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.filters import MatchStatus
from app.api.responses.common import Out, RatingOut
from app.api.responses.ladders import LadderEntryOut, LadderOut
from app.api.responses.matches import MatchSeatOut
from app.api.responses.tournaments import TournamentOut


class RecentMatch(Out):
    """One of a player's recent matches."""

    id: int = Field(description="the match id")
    game: str = Field(description="the game id")
    status: MatchStatus = Field(description="`running`, `finished`, `aborted` or `voided`")
    rated: bool = Field(description="the match was rated")
    started_at: str = Field(description="when it started, ISO 8601 (UTC)")
    seat: int | None = Field(description="the player's seat")
    ledger_delta: int | None = Field(
        description="the player's ledger change (null: running, casual or voided)"
    )
    opponents: list[str | None] = Field(description="the other seats' castle names")
    against: list[MatchSeatOut] = Field(
        description="the other seats as the matches API shows them (players' names, a bot's "
        "kind and level)"
    )


class ProfileLadder(LadderEntryOut):
    """The player's place on one ladder."""

    ladder: LadderOut = Field(description="the ladder")


class ProfileTournament(TournamentOut):
    """A tournament the player entered."""

    entry_status: Literal["active", "withdrawn"] = Field(
        description="the player's entry: `active` or `withdrawn`"
    )


class ProfileOut(Out):
    """A player's profile."""

    id: int = Field(description="the account id")
    name: str = Field(description="the player's name")
    guest: bool = Field(description="a guest (no password)")
    bot: bool = Field(description="a bot account (a program playing through the API)")
    matches_total: int = Field(description="the player's matches, counted up to 10,000")
    matches: list[RecentMatch] = Field(description="the 20 most recent, newest first")
    ladders: list[ProfileLadder] = Field(description="the ladders the player is on")
    tournaments: list[ProfileTournament] = Field(description="the tournaments entered")


class RatingHistoryOut(Out):
    """What one rated match did to the player on one ladder."""

    ladder_id: int = Field(description="the ladder")
    ladder: str = Field(description="its name")
    game: str = Field(description="its game")
    match_id: int = Field(description="the rated match")
    tournament_id: int | None = Field(description="its tournament (null: none)")
    system: str = Field(description="`glicko2` or `openskill`")
    points_before: int = Field(description="ledger points before")
    points_change: int = Field(description="ledger points gained (negative: lost)")
    points_after: int = Field(description="ledger points after")
    rating_before: RatingOut = Field(description="the skill rating before")
    rating_after: RatingOut = Field(description="the skill rating after")
    at: str = Field(description="when, ISO 8601 (UTC)")
