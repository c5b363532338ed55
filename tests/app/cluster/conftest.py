"""Fixtures: a throwaway ``redis-server``, and nodes of one cluster on one PostgreSQL database."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from bench.loadgen.servers import redis_running
from tests.app.support import PG_URL, Server, new_pg_database

needs_redis = pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")
needs_cluster = [
    needs_redis,
    pytest.mark.postgres,
    pytest.mark.skipif(not PG_URL, reason="RAMPART_TEST_PG_URL is not set"),
]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A fresh ``redis-server`` (no persistence) for one test."""
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    with redis_running(tmp_path) as url:
        yield url


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    """A client of that server."""
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


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
