"""Malformed bearer tokens (not ASCII, lone surrogates, wrong shape) are a clean
``auth/bad_token``: a 401 over REST, an ``error`` on the match and lobby sockets, which stay
up, and never a traceback in the server's log."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from app.errors import Unauthorized
from app.security import issue_token, read_token
from bench.fuzz_names_tokens import handshake
from tests.app.support import Api, Client, Server

SECRET = "s" * 32
# Each was a TypeError or UnicodeEncodeError inside the signature check, not a refusal.
MALFORMED = [
    "v1.1.1.\xe9",
    "v1.1.1.\u00e9\u00e9\u00e9",
    "v1.\u0661.1.sig",  # an Arabic-Indic digit, which int() would read as 1
    "v1.1.1.\ud800",  # a lone surrogate: JSON can carry one
    "v1.\ud800.1.sig",
    "v1.1.1.sig\u200b",
    "\u0475" * 40,
    "v1.1.1.",
    "v1...",
    "v1.1.1.sig.extra",
    "",
]

# A hello's token and the refusal: a lone surrogate is not valid JSON text, so the socket's
# parser refuses the message before the token is read.
SOCKET_HELLOS = [
    ("v1.1.1.\xe9", "auth/bad_token"),
    ("\u0475" * 40, "auth/bad_token"),
    ("v1.1.1.\ud800", "message/bad_json"),
]


@pytest.mark.parametrize("token", MALFORMED)
def test_malformed_tokens_are_refused_as_bad_tokens(token: str) -> None:
    with pytest.raises(Unauthorized) as refused:
        read_token(SECRET, token, 3600)
    assert refused.value.code == "auth/bad_token" and refused.value.status == 401


def test_a_good_token_still_reads_and_a_swapped_character_does_not() -> None:
    token = issue_token(SECRET, 42)
    assert read_token(SECRET, token, 3600) == 42
    forged = token[:-1] + ("\xe9" if token[-1] != "\xe9" else "a")
    with pytest.raises(Unauthorized):
        read_token(SECRET, forged, 3600)


async def test_rest_answers_a_non_ascii_bearer_token_with_401(
    api: Api, shared_server: Server
) -> None:
    for raw in (b"Bearer v1.1.1.\xe9", b"Bearer \xff\xfe", b"Bearer v1.\xc3\xa9.1.x"):
        reply = await api.client.get("/api/accounts/me", headers={"authorization": raw})
        assert reply.status_code == 401, raw
        assert reply.json()["error"]["code"] == "auth/bad_token", raw
    # A route where the token is optional refuses it the same way.
    reply = await api.client.get("/api/lobbies/1", headers={"authorization": b"Bearer v1.\xe9"})
    assert reply.status_code == 401 and reply.json()["error"]["code"] == "auth/bad_token"
    assert "Traceback" not in shared_server.log_text()


async def test_the_match_socket_refuses_a_non_ascii_token_and_stays_up(
    api: Api, shared_server: Server
) -> None:
    host = await api.guest("token host")
    other = await api.guest("token other")
    match_id = await api.table("tally", [host, other])
    raw = await Client(shared_server, match_id, None).connect(hello=False)
    for token, refusal in SOCKET_HELLOS:
        seen = len(raw.messages)
        await raw.send_raw(json.dumps({"type": "hello", "token": token}))
        assert await raw.wait_for("error", start=seen, code=refusal)
    # The same connection can still say a good hello afterwards.
    await raw.send({"type": "hello", "token": host})
    assert await raw.wait_for("welcome")
    await raw.close()
    assert "Traceback" not in shared_server.log_text()


async def test_the_lobby_socket_refuses_a_non_ascii_token_and_stays_up(
    api: Api, shared_server: Server
) -> None:
    host = await api.guest("lobby token host")
    async with websockets.connect(f"{shared_server.ws}/ws/lobby") as feed:
        assert json.loads(await feed.recv())["type"] == "lobbies"
        for token, refusal in SOCKET_HELLOS:
            await feed.send(json.dumps({"type": "hello", "token": token}))
            refused = json.loads(await asyncio.wait_for(feed.recv(), 5))
            assert refused["type"] == "error" and refused["code"] == refusal
        # Still subscribed: a new public table reaches it.
        lobby = await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2})
        created = json.loads(await asyncio.wait_for(feed.recv(), 5))
        assert created["type"] == "lobby" and created["lobby"]["id"] == lobby["id"]
    assert "Traceback" not in shared_server.log_text()


async def test_rest_refuses_raw_token_bytes_without_a_500(shared_server: Server) -> None:
    async with httpx.AsyncClient(base_url=shared_server.http, timeout=10) as client:
        reply = await client.get(
            "/api/accounts/me", headers={"authorization": b"Bearer v1.1.1.\x80\x81"}
        )
    assert reply.status_code == 401 and reply.json()["error"]["code"] == "auth/bad_token"


async def test_a_non_ascii_relay_token_is_no_relay_and_no_traceback(shared_server: Server) -> None:
    # The header one process shows another when it relays a socket is a token too.
    for path in ("/ws/lobby", "/ws/matches/1"):
        reply = await handshake(shared_server, path, b"x-rampart-relay: v1.\xe9\xe9")
        assert reply.startswith(b"HTTP/1.1 101"), reply
    await asyncio.sleep(0.2)
    assert "Traceback" not in shared_server.log_text()
