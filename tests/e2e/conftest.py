"""E2E fixtures: the app (with the client mounted) as a subprocess, and headless Chromium."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.support import Server

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (make sysdeps installs it)")
    pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    return CHROMIUM


@contextlib.contextmanager
def running_server(tmp: Path, **env_extra: str) -> Iterator[str]:
    """``python -m app`` (migrated, client mounted) on a temp SQLite file and a free port, at
    real time and without the bench games; yields its base URL and stops it afterwards."""
    env = {"RAMPART_CLOCK_RATE": "1", "RAMPART_BENCH_GAMES": "0", **env_extra}
    server = Server(f"sqlite+aiosqlite:///{tmp}/rampart.db", env)
    try:
        server.start(tmp)
        yield server.http
    finally:
        server.stop()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    """One server for the e2e session."""
    with running_server(tmp_path_factory.mktemp("e2e-server")) as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    """Chromium for one test module. Module scope on purpose: Playwright's sync API keeps an
    event loop running while it is open, which would break asyncio tests collected later."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def two_people(browser: Any) -> Iterator[tuple[Any, Any, list[str]]]:
    """Two pages at 1280x800, each in a browser context of its own (two people apart), and the
    list their uncaught page errors go to; the contexts close after the test."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    first, second = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for page in (first, second):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield first, second, errors
    for ctx in contexts:
        ctx.close()
