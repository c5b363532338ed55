"""Fixtures: a throwaway ``redis-server``, and nodes of one cluster on one PostgreSQL database."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.app.support import PG_URL, Server, free_port, new_pg_database

needs_redis = pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")
needs_cluster = [
    needs_redis,
    pytest.mark.postgres,
    pytest.mark.skipif(not PG_URL, reason="RAMPART_TEST_PG_URL is not set"),
]


def _wait_for_port(port: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A fresh ``redis-server`` (no persistence) for one test."""
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    with redis_running(tmp_path) as url:
        yield url


@contextlib.contextmanager
def redis_running(folder: Path) -> Iterator[str]:
    """``redis-server`` on a free port for the ``with`` block; yields its URL."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    command += ["--save", "", "--appendonly", "no", "--dir", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        _wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


NodeFactory = Callable[..., Server]


@pytest.fixture
def cluster(redis_url: str, tmp_path: Path) -> Iterator[NodeFactory]:
    """``cluster()`` starts one more node of the same cluster (one database, one Redis)."""
    database_url = new_pg_database()
    nodes: list[Server] = []

    def start(**env: str) -> Server:
        node = Server(
            database_url,
            {"RAMPART_REDIS_URL": redis_url, "RAMPART_NODE_TTL_S": "1", **env},
        )
        node.start(tmp_path)
        nodes.append(node)
        return node

    yield start
    for node in nodes:
        node.stop()
