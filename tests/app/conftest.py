"""Fixtures: real server processes on temp databases (SQLite, and PostgreSQL when available)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from tests.app.support import PG_URL, Api, Client, Server, new_pg_database

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgres",
        id="postgres",
        marks=[
            pytest.mark.postgres,
            pytest.mark.skipif(not PG_URL, reason="RAMPART_TEST_PG_URL is not set"),
        ],
    ),
]

ServerFactory = Callable[..., Server]


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[ServerFactory]:
    """Start servers (``backend`` sqlite or postgres, extra env); all stopped at the end."""
    started: list[Server] = []

    def start(backend: str = "sqlite", **env: str) -> Server:
        if backend == "postgres":
            url = new_pg_database()
        else:
            url = f"sqlite+aiosqlite:///{tmp_path}/rampart-{len(started)}.db"
        server = Server(url, env)
        server.start(tmp_path)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def module_server(
    tmp_path_factory: pytest.TempPathFactory, folder: str, env: dict[str, str] | None = None
) -> Iterator[Server]:
    """A server on a fresh SQLite file in a new ``folder`` for the ``yield from`` of a
    module's fixture; stopped after the module."""
    tmp = tmp_path_factory.mktemp(folder)
    server = Server(f"sqlite+aiosqlite:///{tmp}/rampart.db", env or {})
    server.start(tmp)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module for tests that do not restart it."""
    yield from module_server(tmp_path_factory, "server")


@pytest.fixture
async def api(shared_server: Server) -> AsyncIterator[Api]:
    client = Api(shared_server)
    yield client
    await client.close()


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module whose match time runs 1000x: a bot duel takes well under a
    second of wall time."""
    yield from module_server(tmp_path_factory, "fast", {"RAMPART_CLOCK_RATE": "1000"})


@pytest.fixture
async def rest(fast_server: Server) -> AsyncIterator[Api]:
    client = Api(fast_server)
    yield client
    await client.close()


@pytest.fixture(autouse=True)
async def _close_clients() -> AsyncIterator[None]:
    """Every websocket a test opened is closed, even when the test fails."""
    yield
    await Client.close_all()
