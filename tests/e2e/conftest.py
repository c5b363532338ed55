"""E2E fixtures: the app (with the client mounted) as a subprocess, and headless Chromium."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-gpu",
    "--disable-component-update",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (make sysdeps installs it)")
    pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    return CHROMIUM


@contextlib.contextmanager
def running_server(tmp: Path, **env_extra: str) -> Iterator[str]:
    """``python -m app`` (migrated, client mounted) on a temp SQLite file and a free port;
    yields its base URL and stops it afterwards."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/rampart.db",
        "PYTHONPATH": str(ROOT),
        **env_extra,
    }
    log_path = tmp / "server.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited:\n{log_path.read_text()}")
            try:
                if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not start:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


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
