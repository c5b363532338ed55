"""The side doors around moderation and quick play, probed by the websocket fuzz campaign
(``bench/fuzz_ws.py``) on its fuzzed matches: a spectator's chat (a banned or muted player
would watch without a token and talk on), a banned account's lobby hello, and a quick-play
ticket for each seated player. Each must be refused with its code: a spectator's chat line
that reaches anyone, an unanswered one, a banned hello taken or a seated player queued is a
leak."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

from tests.app.support import Api, Server, app_command

WAIT_S = 5.0


@dataclass
class SideDoors:
    codes: Counter[str] = field(default_factory=Counter)
    leaks: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"side doors refused: {dict(self.codes.most_common())}",
            f"side doors open: {len(self.leaks)} {self.leaks[:3]}",
        ]


async def probe(
    server: Server, api: Api, matches: list[tuple[int, list[str]]], chats: int
) -> SideDoors:
    """On each match (its id and its players' tokens): ``chats`` lines from a spectator
    without a token, and a ticket for each player; then one banned account's lobby hello."""
    doors = SideDoors()
    for match_id, tokens in matches:
        await spectator_chat(server, match_id, chats, doors)
        for token in tokens:
            await queue_while_seated(api, match_id, token, doors)
    await banned_lobby_hello(server, api, doors)
    return doors


async def spectator_chat(server: Server, match_id: int, chats: int, doors: SideDoors) -> None:
    async with websockets.connect(f"{server.ws}/ws/matches/{match_id}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        for n in range(chats):
            await ws.send(json.dumps({"type": "chat", "text": f"side door {n}"}))
        refused = 0
        deadline = time.monotonic() + WAIT_S
        with contextlib.suppress(TimeoutError, websockets.ConnectionClosed):
            while refused < chats:
                message = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
                kind = message.get("type")
                if kind == "ping":
                    await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                elif kind == "chat" and message.get("seat") is None:
                    doors.leaks.append(f"match {match_id}: a spectator's chat was sent: {message}")
                elif kind == "error":
                    doors.codes[f"spectator chat: {message.get('code')}"] += 1
                    refused += int(message.get("code") == "chat/spectator")
        if refused < chats:
            doors.leaks.append(f"match {match_id}: {chats - refused} spectator chats unanswered")


async def queue_while_seated(api: Api, match_id: int, token: str, doors: SideDoors) -> None:
    reply = await api.post("/api/queue", token, {"game": "ambush", "seats": 2})
    if reply.status_code == 409:
        error = reply.json()["error"]
        doors.codes[f"ticket while seated: {error['code']}"] += 1
        if error.get("match_id") is None:
            doors.leaks.append(f"match {match_id}: {error['code']} without the match to rejoin")
        return
    if reply.status_code == 202:
        ticket = reply.json()["ticket"]
        headers = {"authorization": f"Bearer {token}"}
        await api.client.delete(f"/api/queue/{ticket}", headers=headers)
        shown: dict[str, Any] = (await api.get(f"/api/matches/{match_id}")).json()
        if shown.get("status") == "running":
            doors.leaks.append(f"match {match_id}: a seated player was queued")
        return
    doors.codes[f"ticket while seated: {reply.status_code}"] += 1


async def banned_lobby_hello(server: Server, api: Api, doors: SideDoors) -> None:
    admin = await api.guest("side door warden")
    name = (await api.get("/api/accounts/me", admin)).json()["name"]
    granted = await asyncio.to_thread(app_command, server.database_url, "admin", "grant", name)
    if granted.returncode != 0:
        doors.leaks.append(f"could not make an admin: {granted.stderr[-300:]}")
        return
    banned = await api.guest("side door banned")
    banned_id = (await api.get("/api/accounts/me", banned)).json()["id"]
    await api.post(f"/api/admin/players/{banned_id}/ban", admin, {"reason": "side door probe"})
    async with websockets.connect(f"{server.ws}/ws/lobby") as ws:
        await ws.send(json.dumps({"type": "hello", "token": banned}))
        code = None
        with contextlib.suppress(TimeoutError, websockets.ConnectionClosed):
            async with asyncio.timeout(WAIT_S):
                while code is None:
                    message = json.loads(await ws.recv())
                    if message.get("type") == "error":
                        code = message.get("code")
    doors.codes[f"banned lobby hello: {code}"] += 1
    if code != "auth/banned":
        doors.leaks.append(f"a banned account's lobby hello was answered {code}")
