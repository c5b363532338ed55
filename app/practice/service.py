"""Starting a practice match at once: the player in seat 0, the practice bot, casual."""

from __future__ import annotations

import contextlib
import secrets
import time

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account
from app.db.repositories import MatchRepository, SeatSpec
from app.errors import NotFound
from app.practice import SCENARIOS
from app.practice.bots import PRACTICE_KIND, practice_bot
from app.practice.scenarios import Scenario
from app.sessions.bots import EXTRA_BOT_KINDS, bot_spec, make_bot
from app.sessions.hub import Hub, OwnedElsewhere
from engines import registry
from engines.base import Bot, Engine


def install_practice_bots() -> None:
    """Let sessions seat ``"practice"`` bots (also when a practice match is rebuilt)."""

    def factory(engine: Engine, seat: int, seed: int) -> Bot:
        return practice_bot(engine, seat, seed, gentlest_heuristic(engine, seat, seed))

    EXTRA_BOT_KINDS[PRACTICE_KIND] = factory


def gentlest_heuristic(engine: Engine, seat: int, seed: int) -> Bot:
    """The engine's heuristic bot at its easy level."""
    return make_bot(engine, bot_spec("heuristic", "easy"), seat, seed)


def scenario_for(game: str) -> Scenario:
    """The game's practice scenario; refuses ``practice/unknown_game`` (404)."""
    scenario = SCENARIOS.get(game)
    if scenario is None or game not in registry.ids():
        raise NotFound("practice/unknown_game", f"no practice for {game!r}")
    return scenario


async def start_practice(db: AsyncSession, hub: Hub, player: Account, game: str) -> int:
    """Create and start a casual match of ``game``'s scenario: ``player`` in seat 0 and the
    practice bot in the others, no clock, never rated. Returns the match id."""
    scenario = scenario_for(game)
    seed = secrets.randbits(62)
    names = [player.name] + [scenario.castle] * (scenario.seats - 1)
    options = scenario.options(seed, names)
    registry.get(game).setup(scenario.seats, seed, options)  # a broken script fails here
    seats = [SeatSpec(player.id, None, player.name)]
    seats += [SeatSpec(None, PRACTICE_KIND, scenario.bot_name)] * (scenario.seats - 1)
    match = await MatchRepository(db).create(
        game=game,
        options=options,
        seed=seed,
        seats=seats,
        rated=False,
        time_control={},
        lobby_id=None,
        started_wall_ms=int(time.time() * 1000),
    )
    with contextlib.suppress(OwnedElsewhere):  # the player's socket reached another process
        await hub.get(match.id)
    return match.id
