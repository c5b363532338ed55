"""Helpers of the notification tests: registered players with verified addresses, and
correspondence matches between them on a real server."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any
from urllib.parse import urlsplit

import httpx

from tests.app.notify.mailbox import Mailbox, links
from tests.app.support import Api, Server

PUBLIC_URL = "https://play.example"


def database(server: Server) -> sqlite3.Connection:
    path = server.database_url.split("///", 1)[1]
    connection = sqlite3.connect(path, timeout=10)
    connection.row_factory = sqlite3.Row
    return connection


def rows(server: Server, query: str, *args: Any) -> list[sqlite3.Row]:
    with database(server) as db:
        return list(db.execute(query, args))


def execute(server: Server, query: str, *args: Any) -> None:
    with database(server) as db:
        db.execute(query, args)


def local(url: str, server: Server) -> str:
    """A mailed link (under ``PUBLIC_URL``) made to reach the test server."""
    assert url.startswith(PUBLIC_URL + "/"), url
    parts = urlsplit(url)
    return f"{server.http}{parts.path}?{parts.query}"


async def register(api: Api, name: str) -> tuple[str, str]:
    """A registered player (a unique name from ``name``) and his token."""
    for attempt in range(1, 50):
        wanted = name if attempt == 1 else f"{name} {attempt}"
        body = {"name": wanted, "password": "correct horse battery"}
        reply = await api.client.post("/api/accounts", json=body)
        if reply.status_code != 409:
            break
    assert reply.status_code == 201, reply.text
    return wanted, str(reply.json()["token"])


async def put_email(api: Api, token: str, address: str) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"}
    return await api.client.put(
        "/api/accounts/me/email", json={"address": address}, headers=headers
    )


async def verified(api: Api, mailbox: Mailbox, name: str, address: str) -> tuple[str, str]:
    """A registered player whose address is verified (through the mailed link)."""
    wanted, token = await register(api, name)
    before = len(mailbox.to(address))
    reply = await put_email(api, token, address)
    assert reply.status_code == 200, reply.text
    mail = (await mailbox.wait_for(address, before + 1))[-1]
    (link,) = links(mail)
    opened = await api.client.get(local(link, api.server))
    assert opened.status_code == 200, opened.text
    return wanted, token


async def correspondence_match(api: Api, tokens: list[str], days: int = 3) -> int:
    """A tally match between ``tokens``' players, ``days`` days a move."""
    control = {"days_per_move": days}
    return await api.table("tally", tokens, options={"target": 50}, time_control=control)


async def awaited(api: Api, token: str, match_id: int) -> bool:
    reply = await api.get("/api/accounts/me/matches", token)
    assert reply.status_code == 200, reply.text
    return any(m["awaiting_you"] for m in reply.json()["matches"] if m["match_id"] == match_id)


async def queued(server: Server, account_kind: str, timeout: float = 10) -> None:
    """Wait until the outbox holds an unsent row of ``account_kind`` (``kind``)."""
    async with asyncio.timeout(timeout):
        while not rows(
            server, "SELECT id FROM mail_outbox WHERE kind = ? AND sent_at IS NULL", account_kind
        ):
            await asyncio.sleep(0.05)
