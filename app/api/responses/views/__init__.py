"""The per-game views a match shows a seat (or a spectator), one schema per game, told apart by
their ``game`` field. The engines build them (``engines/<game>/view.py``); these models
describe them for clients and are kept honest by tests that validate real views of all four
games (``tests/app/api/test_view_models.py``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from app.api.responses.views.ambush import AmbushView
from app.api.responses.views.castles import CastlesView
from app.api.responses.views.ember import EmberView
from app.api.responses.views.rampage import RampageView

GameView = Annotated[
    AmbushView | RampageView | CastlesView | EmberView, Field(discriminator="game")
]

VIEWS = {"ambush": AmbushView, "rampage": RampageView, "castles": CastlesView, "ember": EmberView}
