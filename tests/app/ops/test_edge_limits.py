"""Limits per client address and per account against a real server: new accounts, new tables,
open public tables, anonymous reads, open sockets, sockets that never say hello, and request
heads that never finish (raw TCP).

One server with small limits serves the module; each test speaks from its own address through
``X-Forwarded-For`` (uvicorn believes it from 127.0.0.1, the default ``FORWARDED_ALLOW_IPS``),
so the tests do not share a count.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.app.conftest import ServerFactory
from tests.app.support import Server

LIMITS = {
    "RAMPART_ACCOUNT_ADDRESS_LIMIT": "4/minute",
    "RAMPART_TABLE_ACCOUNT_LIMIT": "3/minute",
    "RAMPART_TABLE_ADDRESS_LIMIT": "5/minute",
    "RAMPART_OPEN_TABLES_PER_ACCOUNT": "2",
    "RAMPART_READ_ADDRESS_LIMIT": "5/minute",
    "RAMPART_SOCKETS_PER_ADDRESS": "3",
    "RAMPART_HELLO_TIMEOUT_S": "1",
    "RAMPART_HEADER_TIMEOUT_S": "1",
    "RAMPART_REPORT_ACCOUNT_LIMIT": "2/minute",
}
_addresses = itertools.count(1)


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("limited")
    server = Server(f"sqlite+aiosqlite:///{tmp}/rampart.db", dict(LIMITS))
    server.start(tmp)
    yield server
    server.stop()


def new_address() -> str:
    return f"203.0.113.{next(_addresses)}"


class From:
    """REST calls from one client address."""

    def __init__(self, server: Server, address: str | None = None) -> None:
        self.address = address or new_address()
        self.client = httpx.AsyncClient(
            base_url=server.http, timeout=10, headers={"x-forwarded-for": self.address}
        )
        self.names = itertools.count()

    async def account(self, password: str | None = None) -> httpx.Response:
        body: dict[str, Any] = {"name": f"p{self.address.split('.')[-1]}-{next(self.names)}"}
        if password is not None:
            body["password"] = password
        return await self.client.post("/api/accounts", json=body)

    async def token(self) -> str:
        made = await self.account()
        assert made.status_code == 201, made.text
        return str(made.json()["token"])

    async def table(self, token: str, public: bool = True) -> httpx.Response:
        body = {"game": "tally", "seats": 2, "public": public}
        return await self.client.post(
            "/api/lobbies", json=body, headers={"authorization": f"Bearer {token}"}
        )

    async def close(self) -> None:
        await self.client.aclose()


def refused(reply: httpx.Response, code: str = "rate/limited") -> None:
    assert reply.status_code == 429, reply.text
    assert reply.json()["error"]["code"] == code
    assert int(reply.headers["retry-after"]) >= 1


async def test_new_accounts_are_limited_per_address(limited: Server) -> None:
    one, other = From(limited), From(limited)
    for _ in range(4):
        assert (await one.account()).status_code == 201
    refused(await one.account())  # a guest
    refused(await one.account(password="a long enough password"))  # registered alike
    assert (await other.account()).status_code == 201  # another address has its own count
    await one.close()
    await other.close()


async def test_new_tables_are_limited_per_account_and_per_address(limited: Server) -> None:
    here = From(limited)
    first, second = await here.token(), await here.token()
    for _ in range(3):
        assert (await here.table(first, public=False)).status_code == 201
    refused(await here.table(first, public=False))  # this account's 3 a minute
    for _ in range(2):
        assert (await here.table(second, public=False)).status_code == 201
    refused(await here.table(second, public=False))  # the address's 5 a minute
    await here.close()


async def test_practice_matches_count_as_new_tables(limited: Server) -> None:
    here = From(limited)
    player = {"authorization": f"Bearer {await here.token()}"}

    async def practice(game: str) -> httpx.Response:
        return await here.client.post("/api/practice", json={"game": game}, headers=player)

    assert (await practice("no such game")).status_code == 404  # refused before it counts
    assert [(await practice("ambush")).status_code for _ in range(3)] == [201] * 3
    refused(await practice("ambush"))
    await here.close()


async def test_open_public_tables_are_capped_per_account(limited: Server) -> None:
    here = From(limited)
    host = await here.token()
    for _ in range(2):
        assert (await here.table(host)).status_code == 201
    refused(await here.table(host), "lobby/too_many_open")
    assert (await here.table(host, public=False)).status_code == 201  # private: not capped
    await here.close()


async def test_anonymous_reads_are_limited_per_address_and_players_are_not(
    limited: Server,
) -> None:
    here = From(limited)
    token = await here.token()
    for _ in range(5):
        assert (await here.client.get("/api/matches")).status_code == 200
    refused(await here.client.get("/api/matches"))
    refused(await here.client.get("/api/matches/1/state"))
    refused(await here.client.get("/api/matches/1/events"))
    refused(await here.client.get("/api/tournaments/1/standings"))
    refused(await here.client.get("/api/ladders/1/entries"))
    # A forged token is anonymous; a real one is not counted.
    forged = {"authorization": "Bearer not-a-token"}
    refused(await here.client.get("/api/matches", headers=forged))
    signed = {"authorization": f"Bearer {token}"}
    for _ in range(8):
        assert (await here.client.get("/api/matches", headers=signed)).status_code == 200
    await here.close()


async def open_socket(server: Server, path: str, address: str) -> Any:
    return await websockets.connect(
        f"{server.ws}{path}", additional_headers={"x-forwarded-for": address}
    )


async def closed_with(ws: Any, timeout: float = 5.0) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes; its close code and what it said."""
    said: list[dict[str, Any]] = []
    with pytest.raises(websockets.ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                said.append(json.loads(await ws.recv()))
    return ws.close_code, said


async def a_match(server: Server) -> int:
    here = From(server)
    host, guest = await here.token(), await here.token()
    lobby = (await here.table(host, public=False)).json()
    bearer = {"authorization": f"Bearer {guest}"}
    body = {"invite_code": lobby["invite_code"]}
    joined = await here.client.post(f"/api/lobbies/{lobby['id']}/join", json=body, headers=bearer)
    assert joined.status_code == 200, joined.text
    bearer = {"authorization": f"Bearer {host}"}
    started = await here.client.post(f"/api/lobbies/{lobby['id']}/start", headers=bearer)
    assert started.status_code == 200, started.text
    await here.close()
    return int(started.json()["match_id"])


async def test_open_sockets_are_limited_per_address(limited: Server) -> None:
    address = new_address()
    match = f"/ws/matches/{await a_match(limited)}"
    held = [await open_socket(limited, "/ws/lobby", address) for _ in range(2)]
    held.append(await open_socket(limited, match, address))
    for ws in held:
        await ws.send(json.dumps({"type": "hello"}))
    for path in ("/ws/lobby", match):
        extra = await open_socket(limited, path, address)
        code, said = await closed_with(extra)
        assert code == 4429 and said[-1]["code"] == "rate/limited"
    assert all(ws.close_code is None for ws in held)
    # Another address may still open one; a closed socket gives its place back.
    other = await open_socket(limited, "/ws/lobby", new_address())
    await held.pop().close()
    for _ in range(20):
        again = await open_socket(limited, "/ws/lobby", address)
        if json.loads(await again.recv())["type"] == "lobbies":
            break
        await asyncio.sleep(0.1)  # the server has not seen the close yet
    else:
        pytest.fail("the place of a closed socket never came back")
    for ws in [*held, other, again]:
        await ws.close()


async def test_reports_are_limited_per_account(limited: Server) -> None:
    match_id = await a_match(limited)
    here = From(limited)
    reporter, other = await here.token(), await here.token()

    async def report(token: str) -> httpx.Response:
        body = {"match_id": match_id, "reason": "spam"}
        bearer = {"authorization": f"Bearer {token}"}
        return await here.client.post("/api/reports", json=body, headers=bearer)

    assert [(await report(reporter)).status_code for _ in range(2)] == [201, 201]
    refused(await report(reporter), "report/rate_limited")
    assert (await report(other)).status_code == 201
    await here.close()


@pytest.mark.parametrize("where", ["lobby", "match"])
async def test_a_socket_that_never_says_hello_is_closed_4408(limited: Server, where: str) -> None:
    path = "/ws/lobby" if where == "lobby" else f"/ws/matches/{await a_match(limited)}"
    ws = await open_socket(limited, path, new_address())
    started = time.monotonic()
    # Messages other than hello (pongs, garbage) do not keep it open.
    await ws.send(json.dumps({"type": "pong", "nonce": 1}))
    code, said = await closed_with(ws)
    assert code == 4408 and said[-1]["code"] == "hello/timeout"
    assert time.monotonic() - started < 3


async def test_a_lobby_socket_that_says_hello_stays(limited: Server) -> None:
    ws = await open_socket(limited, "/ws/lobby", new_address())
    await ws.send(json.dumps({"type": "hello"}))
    await asyncio.sleep(1.5)
    assert ws.close_code is None
    await ws.close()


def raw(server: Server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    return sock


def closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closed ``sock`` (reading until EOF), at most ``seconds``."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        pytest.fail(f"still open after {seconds} s")
    finally:
        sock.close()
    return time.monotonic() - started


def test_a_connection_that_sends_nothing_is_closed(limited: Server) -> None:
    assert closed_within(raw(limited), 4) >= 0.8


def test_a_request_head_that_stalls_is_closed(limited: Server) -> None:
    sock = raw(limited)
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
    time.sleep(0.5)
    sock.sendall(b"X-Slow: 1\r\n")  # trickling headers do not push the deadline back
    assert closed_within(sock, 4) < 2.5


def test_a_later_request_head_on_a_kept_alive_connection_is_timed_too(limited: Server) -> None:
    sock = raw(limited)
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    sock.sendall(b"GET /api/games HTTP/1.1\r\n")
    assert closed_within(sock, 4) < 2.5


def test_a_whole_request_is_served(limited: Server) -> None:
    assert httpx.get(f"{limited.http}/api/games").status_code == 200


async def test_a_forwarded_address_from_an_untrusted_peer_is_ignored(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = make_server(FORWARDED_ALLOW_IPS="192.0.2.1", RAMPART_ACCOUNT_ADDRESS_LIMIT="2/minute")
    async with httpx.AsyncClient(base_url=server.http) as client:
        for n in range(3):
            spoofed = {"x-forwarded-for": f"198.51.100.{n}"}
            reply = await client.post("/api/accounts", json={"name": f"s{n}"}, headers=spoofed)
            assert reply.status_code == (201 if n < 2 else 429)
