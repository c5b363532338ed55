"""Practice REST: the scenarios (steps and hints) and starting a practice match at once."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from app.api.deps import CurrentPlayer, HubDep, LimitsDep, SessionDep
from app.api.errors import declared
from app.api.params import GamePath
from app.api.responses.misc import PracticeScenario, PracticeStarted
from app.api.schemas import Body
from app.api.throttles import count_new_table
from app.practice import SCENARIOS
from app.practice.service import scenario_for, start_practice

router = APIRouter(prefix="/api/practice", tags=["practice"])


class NewPractice(Body):
    game: str = Field(min_length=1, max_length=40)


@router.get("", response_model=list[PracticeScenario])
async def list_practice() -> list[dict[str, Any]]:
    """Every game's practice: title, introduction and steps."""
    return [scenario.to_json() for scenario in SCENARIOS.values()]


@router.get(
    "/{game}",
    response_model=PracticeScenario,
    response_model_exclude_unset=True,
    responses=declared(404, 422),
)
async def get_practice(game: GamePath) -> dict[str, Any]:
    """One game's practice steps with their hints; refuses ``practice/unknown_game``."""
    return scenario_for(game).to_json()


@router.post(
    "",
    status_code=201,
    response_model=PracticeStarted,
    response_model_exclude_unset=True,
    responses=declared(400, 401, 404, 422, 429, 503),
)
async def new_practice(
    body: NewPractice,
    request: Request,
    player: CurrentPlayer,
    db: SessionDep,
    hub: HubDep,
    limits: LimitsDep,
) -> dict[str, Any]:
    """Start a practice match for the signed-in player (a guest too) against the practice
    bot: casual, unclocked, never on a ladder. Returns ``match_id``, the seat and the steps.
    Refuses ``auth/required`` and ``practice/unknown_game``; a practice match is a new table
    (``rate/limited``, 429 with ``Retry-After``, as ``POST /api/lobbies``)."""
    scenario_for(body.game)  # an unknown game is refused before it counts
    await count_new_table(request, limits, player.id)
    match_id = await start_practice(db, hub, player, body.game)
    return {"match_id": match_id, "seat": 0, **scenario_for(body.game).to_json()}
