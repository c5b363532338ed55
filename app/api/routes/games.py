"""``GET /api/games``: the games this server plays; ``GET /api/games/{id}``: one of them with
the JSON Schema of its actions; ``GET /api/games/{id}/cards``: its card data."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema

from app.api.cards import game_cards
from app.api.errors import declared
from app.api.params import GamePath
from app.api.responses.cards import GameCards
from app.api.responses.misc import GameSummary
from app.errors import NotFound
from app.games import playable
from app.protocol.actions import GAME_ACTIONS
from app.sessions.bots import has_bots
from app.sessions.timecontrol import REALTIME_ONLY_GAMES

router = APIRouter(prefix="/api", tags=["games"])

# The value is itself a JSON Schema: an open object on purpose (its keys are JSON Schema's).
ActionsSchema = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "additionalProperties": True,
            "description": (
                "a JSON Schema (draft 2020-12) of the game's actions: `oneOf` its action types, "
                "`discriminator` on `type`, each type's fields, their meaning and allowed "
                "values under `$defs`; the same schemas as the socket protocol's "
                "`components.schemas` (`/asyncapi.json`)"
            ),
        }
    ),
]


class GameOut(BaseModel):
    """One game: its seats, whether server bots play it, and the actions a seat sends."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="the game id (`ambush`, `rampage`, `castles`, `ember`)")
    title: str = Field(description="the game's name, for people")
    min_seats: int = Field(description="the fewest seats a table of it may have")
    max_seats: int = Field(description="the most seats a table of it may have")
    bots: bool = Field(description="true: server bots can take its seats")
    correspondence: bool = Field(
        description="true: its tables may be played by correspondence (days per move); "
        "false: real-time only (Ambush!: its grab races need everyone at once)"
    )
    actions: ActionsSchema | None = Field(
        description=(
            "the JSON Schema of an action's `action` object in this game (null: a game "
            "without a published schema, such as a benchmark's)"
        )
    )


@cache
def actions_schema(game_id: str) -> dict[str, Any] | None:
    """The JSON Schema of ``game_id``'s action union (built once per game)."""
    entry = GAME_ACTIONS.get(game_id)
    if entry is None:
        return None
    schema: dict[str, Any] = TypeAdapter(entry[1]).json_schema()
    return schema


@router.get("/games", response_model=list[GameSummary])
async def list_games() -> list[dict[str, Any]]:
    games = []
    for game_id, engine in playable().items():
        games.append(
            {
                "id": game_id,
                "title": engine.title,
                "min_seats": engine.min_seats,
                "max_seats": engine.max_seats,
                "bots": has_bots(engine),
                "correspondence": game_id not in REALTIME_ONLY_GAMES,
            }
        )
    return games


@router.get(
    "/games/{game_id}",
    response_model=GameOut,
    responses=declared(404, 422),
)
async def get_game(game_id: GamePath) -> GameOut:
    """One game with the JSON Schema of its actions; refuses ``game/not_found`` (404)."""
    engine = playable().get(game_id)
    if engine is None:
        raise NotFound("game/not_found", f"no game {game_id!r}")
    return GameOut(
        id=game_id,
        title=engine.title,
        min_seats=engine.min_seats,
        max_seats=engine.max_seats,
        bots=has_bots(engine),
        correspondence=game_id not in REALTIME_ONLY_GAMES,
        actions=actions_schema(game_id),
    )


@router.get(
    "/games/{game_id}/cards",
    response_model=GameCards,
    responses=declared(404, 422),
)
async def get_game_cards(game_id: GamePath) -> Any:
    """The game's card data as its engine plays it (names, numbers, texts; Ember's heroes too):
    what the browser client draws cards from. Refuses ``game/not_found`` (404) for an unknown
    game and ``game/no_cards`` (404) for a game without card data."""
    if game_id not in playable():
        raise NotFound("game/not_found", f"no game {game_id!r}")
    cards = game_cards(game_id)
    if cards is None:
        raise NotFound("game/no_cards", f"the game {game_id!r} has no card data")
    return cards
