"""Practice matches: one scripted scenario per game, played against a gentle bot."""

from __future__ import annotations

from app.practice.ambush import SCENARIO as AMBUSH
from app.practice.openings import CASTLES, EMBER, RAMPAGE
from app.practice.scenarios import Scenario

SCENARIOS: dict[str, Scenario] = {s.game: s for s in (AMBUSH, RAMPAGE, CASTLES, EMBER)}
