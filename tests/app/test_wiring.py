"""The application's services (``app.wiring``): extra games registered at start-up, and the
services stopped in reverse order, also when a start-up fails half-way."""

from __future__ import annotations

import asyncio
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import app.wiring
from app.__main__ import migrate
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.main import create_app
from app.moderation.service import ModerationService
from app.ops.ratelimits import EdgeLimits
from app.sessions.hub import Hub
from app.tournaments.service import TournamentService
from app.wiring import BENCH_GAMES_GROUP, GameSetupError, register_extra_engines
from engines import registry


def test_the_checkout_declares_the_bench_game_as_an_entry_point() -> None:
    from importlib.metadata import entry_points

    declared = {point.name: point.value for point in entry_points(group=BENCH_GAMES_GROUP)}
    assert declared == {"tally": "bench.tally.engine:TallyEngine"}


def test_bench_games_are_the_entry_points_games(monkeypatch: pytest.MonkeyPatch) -> None:
    point = EntryPoint("tally", "bench.tally.engine:TallyEngine", BENCH_GAMES_GROUP)
    asked: list[str] = []

    def declared(group: str) -> list[EntryPoint]:
        asked.append(group)
        return [point]

    monkeypatch.setattr(app.wiring, "entry_points", declared)
    register_extra_engines(Settings(bench_games=False))
    assert asked == []
    register_extra_engines(Settings(bench_games=True))
    assert asked == [BENCH_GAMES_GROUP] and "tally" in registry.ids()


def test_bench_games_without_a_declared_game_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(app.wiring, "entry_points", lambda group: [])
    with pytest.raises(GameSetupError, match=r"rampart\.bench_games entry point"):
        register_extra_engines(Settings(bench_games=True))


def test_an_extra_engine_must_name_module_and_class() -> None:
    with pytest.raises(GameSetupError, match="module:Class"):
        register_extra_engines(Settings(extra_engines="bench.tally.engine"))


async def test_a_start_up_that_fails_half_way_stops_what_it_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/rampart.db"
    await asyncio.to_thread(migrate, url)
    stopped: list[str] = []

    def spy(name: str, real: Any) -> Any:
        async def stop(self: Any, *args: Any) -> None:
            stopped.append(name)
            await real(self, *args)

        return stop

    async def broken(self: ModerationService) -> None:
        raise RuntimeError("the bans could not be read")

    monkeypatch.setattr(ModerationService, "load", broken)
    monkeypatch.setattr(TournamentService, "stop", spy("tournaments", TournamentService.stop))
    monkeypatch.setattr(Hub, "stop", spy("hub", Hub.stop))
    monkeypatch.setattr(EdgeLimits, "close", spy("limits", EdgeLimits.close))
    monkeypatch.setattr(ActionLogWriter, "stop", spy("action log", ActionLogWriter.stop))
    application = create_app(Settings(database_url=url))
    with pytest.raises(RuntimeError, match="bans"):
        async with application.router.lifespan_context(application):
            pass
    assert stopped == ["tournaments", "hub", "limits", "action log"]
