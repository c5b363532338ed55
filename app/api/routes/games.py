"""``GET /api/games``: the games this server plays."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.games import playable
from app.sessions.bots import has_bots

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
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
            }
        )
    return games
