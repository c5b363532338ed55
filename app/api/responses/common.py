"""Parts many responses share: the base model, time controls, outcomes and skill ratings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from app.jsonenc import encode_text

# A game's table options as stored: the keys are the game's rules' (each game's README); the
# values are JSON as the request bounded them (``app.api.params.OPTIONS_SCHEMA``).
GameOptions = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "additionalProperties": True,
            "description": "the game's table options, by name (see the game's rules): an open "
            "map, its keys are the game's own",
        }
    ),
]


class Out(BaseModel):
    """A response body: exactly the fields listed (a field the server does not document is a
    bug that the tests catch, never something a client should guess at)."""

    model_config = ConfigDict(extra="forbid")


class TimeControlOut(Out):
    """The clocks of a table as set: a field left out at set-up is absent (no such clock)."""

    turn_ms: int | None = Field(
        default=None, description="each turn's clock, in ms of match time; absent: none"
    )
    match_ms: int | None = Field(
        default=None, description="each seat's bank for the whole match, in ms; absent: none"
    )
    on_timeout: Literal["pass", "forfeit"] | None = Field(
        default=None, description="what a seat out of time does: `pass` (auto-played) or `forfeit`"
    )
    grace_ms: int | None = Field(
        default=None,
        description="how long a disconnected seat keeps its place before it forfeits, in ms "
        "(0: never; absent: the server's default)",
    )
    days_per_move: int | None = Field(
        default=None,
        description="a correspondence table: days (wall clock) for each move, a seat out of "
        "time forfeits, nobody forfeits for being away; absent: a real-time table",
    )


class SeatResultOut(Out):
    """How one seat finished."""

    destroyed: bool = Field(description="its castle was destroyed")
    resigned: bool = Field(description="it resigned or forfeited (time, abandonment)")
    damage: float = Field(description="the damage its castle took, 0 (none) to 1 (destroyed)")


class OutcomeOut(Out):
    """A finished match's result."""

    placings: list[list[int]] = Field(
        description="seats from first place to last; seats that tie share a list"
    )
    seats: dict[str, SeatResultOut] = Field(description="how each seat finished, by seat number")
    reason: str = Field(
        description="how the match ended, in the game's words (e.g. `destroyed`, `resigned`)"
    )


class EmberOutcomeOut(OutcomeOut):
    """An Ember match's result, with the stones that decided it."""

    scores: list[int] = Field(description="each seat's stones at the end, by seat")


class ResultOut(OutcomeOut):
    """A finished match's result, of any game."""

    scores: list[int] | None = Field(
        default=None, description="Ember only: each seat's stones at the end, by seat"
    )


class RatingOut(Out):
    """One skill rating (``app.scoring.ratings``)."""

    system: Literal["glicko2", "openskill"] = Field(
        description="`glicko2` (duels) or `openskill` (3 or more castles)"
    )
    mu: float = Field(description="the rating (Glicko-2 r, or OpenSkill mu)")
    sigma: float = Field(description="its uncertainty (Glicko-2 RD, or OpenSkill sigma)")
    volatility: float = Field(description="Glicko-2's volatility (0 for OpenSkill)")
    games: int = Field(description="rated matches counted in this system")
    provisional: bool = Field(description="true until enough games settled the uncertainty")
    display: int = Field(
        description="the number shown beside the ledger, on the 1500-centred Glicko scale"
    )


def encoded(data: Any) -> Response:
    """``data`` as a JSON reply, encoded as it is: for the hot reads (a match's state, the
    match list, tournament standings and rounds, leaderboards) whose ``response_model``
    documents the body without running per request. Checking a body against its model costs
    tens of times what encoding it does (a 4-seat Castles state: 200-560 us against under
    15 us; a page of 50 matches: 2-10 ms against 0.1 ms, on a busy 2-core machine:
    ``bench/response_models.py``), so those bodies are checked by the tests instead
    (``tests/app/api/test_view_models.py``, ``tests/app/api/test_rest_typed.py``, and the REST fuzz
    campaign, which checks every reply against the OpenAPI document)."""
    return Response(encode_text(data), media_type="application/json")
