"""Ladder responses: ladders, leaderboard entries with ratings, and a player's rating history."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import Out, RatingOut


class LadderOut(Out):
    """A ladder."""

    id: int = Field(description="the ladder id")
    game: str = Field(description="the game id")
    name: str = Field(description="its name")
    kind: Literal["game", "custom"] = Field(
        description="`game` (every rated match of the game) or `custom`"
    )
    pool: Literal["realtime", "correspondence"] = Field(
        description="the rated matches it counts: `realtime` or `correspondence` (days per move)"
    )
    organiser_id: int | None = Field(description="a custom ladder's organiser (null: a game's)")


class LadderEntryOut(Out):
    """A player's (or a bot kind's) place on a ladder."""

    id: int = Field(description="the entry id")
    ladder_id: int = Field(description="its ladder")
    rank: int | None = Field(description="its rank in the leaderboard (null: outside one)")
    account_id: int | None = Field(description="the player's account (null: a bot)")
    bot: str | None = Field(
        description="a server bot's kind and level (`heuristic:hard`; each level its own "
        "entry), else null"
    )
    bot_account: bool = Field(description="true: the account is a bot account")
    name: str = Field(description="the name shown")
    points: int = Field(description="1500-point ledger points")
    played: int = Field(description="rated matches played")
    wins: int = Field(description="matches won")
    draws: int = Field(description="matches drawn")
    losses: int = Field(description="matches lost")
    ratings: dict[str, RatingOut] = Field(
        description="skill ratings by system: `glicko2` (duels), `openskill` (3+ castles)"
    )
    provisional: bool = Field(description="every rating is still provisional")
