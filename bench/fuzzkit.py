"""What the fuzz campaigns share: seeded hypothesis draws and a run against a throwaway server."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol

from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.app.support import Server


class CampaignReport(Protocol):
    """What a campaign hands back: its printed lines and whether the run is ok."""

    @property
    def ok(self) -> bool: ...

    def lines(self) -> list[str]: ...


def draw(strategy: Any, count: int, seed_value: int) -> list[Any]:
    """``count`` examples of ``strategy``, drawn by hypothesis with a fixed seed (as one
    property's examples, outside any test)."""
    drawn: list[Any] = []

    @seed(seed_value)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(example: Any) -> None:
        drawn.append(example)

    collect()
    return drawn[:count]


def run_on_server(
    prefix: str,
    env: dict[str, str],
    campaign: Callable[[Server], Coroutine[Any, Any, CampaignReport]],
) -> None:
    """Start a server on a fresh SQLite file in a new ``prefix`` folder with ``env``, run
    ``campaign`` against it, print its report and the server log's path, and exit 0 when the
    run is ok, else 1."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    server = Server(f"sqlite+aiosqlite:///{folder}/rampart.db", dict(env))
    server.start(folder)
    try:
        report = asyncio.run(campaign(server))
    finally:
        server.stop()
    for line in report.lines():
        print(line)
    print(f"server log: {server.log_path}")
    raise SystemExit(0 if report.ok else 1)
