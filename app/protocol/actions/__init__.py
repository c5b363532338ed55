"""Each game's actions as types: one ``TypedDict`` per action ``type`` and a union per game,
discriminated on ``type``; what a match socket's ``action`` message carries."""

from __future__ import annotations

from typing import Any

from app.protocol.actions.ambush import AmbushAction
from app.protocol.actions.castles import CastlesAction
from app.protocol.actions.ember import EmberAction
from app.protocol.actions.rampage import RampageAction

# Game id -> (the union's schema name, the union).
GAME_ACTIONS: dict[str, tuple[str, Any]] = {
    "ambush": ("AmbushAction", AmbushAction),
    "rampage": ("RampageAction", RampageAction),
    "castles": ("CastlesAction", CastlesAction),
    "ember": ("EmberAction", EmberAction),
}

__all__ = ["GAME_ACTIONS", "AmbushAction", "CastlesAction", "EmberAction", "RampageAction"]
