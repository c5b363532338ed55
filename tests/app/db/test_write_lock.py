"""Requests that write wait for SQLite's write lock instead of failing, and say so if they
cannot get it in time (``server/busy``, 503)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import httpx
from fastapi import FastAPI
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from app.api.errors import install_error_handlers
from tests.app.support import Api, Server


def hold_write_lock(database: str, seconds: float, started: threading.Event) -> None:
    """Another writer: take the lock, commit a row (the snapshot of any reader that began
    before is stale from then on), keep writing for ``seconds``."""
    connection = sqlite3.connect(database, timeout=10, isolation_level=None)
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("INSERT INTO accounts (name, created_at) VALUES ('x', '2026-01-01')")
    started.set()
    time.sleep(seconds)
    connection.execute("COMMIT")
    connection.close()


async def test_requests_that_write_wait_for_another_writer_then_succeed(
    shared_server: Server, api: Api
) -> None:
    """Players join lobbies and new guests arrive while another connection holds the write
    lock for 0.5 s: every request waits for the lock and succeeds."""
    hosts = [await api.guest(f"host{i}") for i in range(3)]
    lobbies = [
        (await api.ok("/api/lobbies", host, {"game": "ambush", "seats": 4}))["id"] for host in hosts
    ]
    joiners = [await api.guest(f"joiner{i}") for i in range(9)]
    database = str(make_url(shared_server.database_url).database)
    started = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(database, 0.5, started))
    holder.start()
    started.wait(5)
    replies = await asyncio.gather(
        *(
            api.post(f"/api/lobbies/{lobbies[i % 3]}/join", token, {})
            for i, token in enumerate(joiners)
        ),
        *(api.post("/api/accounts", None, {"name": f"late{i}"}) for i in range(4)),
    )
    holder.join()
    codes = [reply.status_code for reply in replies]
    assert all(code in (200, 201) for code in codes), [r.text for r in replies]


async def test_a_lock_that_outlasts_the_wait_is_a_503_with_a_stable_code() -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/locked")
    async def locked() -> None:
        raise OperationalError(
            "BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked")
        )

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as web:
        reply = await web.get("/locked")
    assert reply.status_code == 503
    assert reply.json()["error"]["code"] == "server/busy"
    assert reply.headers["retry-after"] == "1"
