"""``RampartApp``: a match socket goes straight to the gateway, outside the middleware stack;
everything else, and a match socket the entry does not recognise, takes the whole stack."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from app.realtime.entry import match_socket_id
from tests.app.support import open_tally_match, served_in_process


class SeenScopes:
    """A pure ASGI middleware that notes every websocket path it passes on."""

    paths: list[str] = []

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            SeenScopes.paths.append(scope["path"])
        await self.app(scope, receive, send)


def with_probe(app: FastAPI) -> None:
    SeenScopes.paths = []
    app.add_middleware(SeenScopes)


async def first_message(url: str, hello: dict[str, Any] | None) -> dict[str, Any]:
    async with websockets.connect(url) as ws:
        if hello is not None:
            await ws.send(json.dumps(hello))
        reply: dict[str, Any] = json.loads(await ws.recv())
        return reply


async def test_a_match_socket_skips_the_middleware_and_a_lobby_socket_does_not(
    tmp_path: Path,
) -> None:
    async with served_in_process(tmp_path, prepare=with_probe) as base:
        async with httpx.AsyncClient(base_url=base) as http:
            match_id, token = await open_tally_match(http)
        ws_base = base.replace("http://", "ws://")
        hello = {"type": "hello", "token": token, "last_version": None}
        welcome = await first_message(f"{ws_base}/ws/matches/{match_id}", hello)
        assert welcome["type"] == "welcome"
        lobbies = await first_message(f"{ws_base}/ws/lobby", None)
        assert lobbies["type"] == "lobbies"
        # A match that does not exist: the same refusal as through the route.
        missing = await first_message(f"{ws_base}/ws/matches/999999", hello)
        assert missing["type"] == "error"
        assert missing["code"] == "match/not_found"
    assert SeenScopes.paths == ["/ws/lobby"]


@pytest.mark.parametrize(
    ("path", "root_path", "expected"),
    [
        ("/ws/matches/12", "", 12),
        ("/ws/matches/007", "", 7),
        ("/game/ws/matches/12", "/game", 12),
        ("/ws/matches/12/", "", None),
        ("/ws/matches/x12", "", None),
        ("/ws/matches/", "", None),
        ("/ws/matches/" + "9" * 19, "", None),  # longer than a row id: left to the route
        ("/ws/matches/١٢", "", None),  # digits of another script: left to the route
        ("/ws/lobby", "", None),
    ],
)
def test_which_paths_the_entry_takes(path: str, root_path: str, expected: int | None) -> None:
    scope = {"type": "websocket", "path": path, "root_path": root_path}
    assert match_socket_id(scope) == expected
