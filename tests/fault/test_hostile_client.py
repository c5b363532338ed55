"""A hostile or broken client cannot hurt anyone, against a real server: each
message that once crashed a match's session is answered with a coded error while both seats
play on; a finished match answers ``hello`` after a restart; bad frames close cleanly."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bench.floods import FloodSize, flood
from tests.app.matchmaking.test_queue import LobbyListener
from tests.app.moderation.test_moderation import admin_token, me
from tests.app.support import Api, Client, Server
from tests.fault.chaos_support import Duo, no_tracebacks, serving

BIG = 10**30
# Small limits, so that a small flood from one address meets every one of them.
HOSTILE_LIMITS = {
    "RAMPART_ACCOUNT_ADDRESS_LIMIT": "20/minute",
    "RAMPART_READ_ADDRESS_LIMIT": "30/minute",
    "RAMPART_SOCKETS_PER_ADDRESS": "20",
    "RAMPART_HELLO_TIMEOUT_S": "1",
    "RAMPART_HEADER_TIMEOUT_S": "1",
}

# Each of these crashed the whole session of its match (every socket closed 1011).
CRASHERS: dict[str, tuple[str, str]] = {
    "grab_cell_beyond_64_bits": (
        f'{{"type":"grab","client_seq":5,"cell":{BIG}}}',
        "message/invalid",
    ),
    "grab_dt_nan": ('{"type":"grab","client_seq":5,"cell":[0,0],"dt":NaN}', "message/bad_json"),
    "action_type_a_list": (
        '{"type":"action","client_seq":7,"action":{"type":[0,-3]}}',
        "message/invalid",
    ),
    "action_type_a_dict": (
        '{"type":"action","client_seq":7,"action":{"type":{"a":1}}}',
        "message/invalid",
    ),
    "client_seq_beyond_64_bits": (
        f'{{"type":"action","client_seq":{BIG},"action":{{"type":"pass"}}}}',
        "message/invalid",
    ),
    "grab_ref_beyond_64_bits": (
        f'{{"type":"grab","client_seq":5,"cell":[0,0],"ref":{BIG},"dt":0}}',
        "message/invalid",
    ),
    "message_type_a_list": ('{"type":["action"],"client_seq":1}', "message/unknown_type"),
}


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests that do not restart it."""
    folder = tmp_path_factory.mktemp("hostile")
    server = Server(f"sqlite+aiosqlite:///{folder}/rampart.db")
    server.start(folder)
    yield server
    server.stop()


@pytest.fixture
async def served(hostile_server: Server) -> AsyncIterator[tuple[Server, Api]]:
    api = Api(hostile_server)
    yield hostile_server, api
    await api.close()


@pytest.fixture(autouse=True)
async def _sockets_closed() -> AsyncIterator[None]:
    yield
    await Client.close_all()


def still_open(duo: Duo) -> None:
    for client in duo.clients:
        assert client.ws.close_code is None, f"seat {client.seat} closed {client.ws.close_code}"


@pytest.mark.parametrize("name", sorted(CRASHERS))
async def test_a_message_that_crashed_the_session_gets_a_coded_error_and_play_goes_on(
    served: tuple[Server, Api], name: str
) -> None:
    server, api = served
    duo = await Duo.start(server, api, ("ann", "bob"))
    await duo.play(1)
    text, code = CRASHERS[name]
    sender = duo.clients[0]
    start = len(sender.messages)
    await sender.send_raw(text)
    await sender.wait_for("error", start=start, code=code)
    await duo.play(3)  # a later logged move is where a bad grab ``ref`` used to crash
    still_open(duo)
    no_tracebacks(server)


async def test_a_client_seq_past_the_databases_integers_is_refused_not_logged(
    served: tuple[Server, Api],
) -> None:
    server, api = served
    duo = await Duo.start(server, api, ("cat", "dan"))
    mover = duo.on_turn()
    legal = mover.legal[0]
    start = len(mover.messages)
    await mover.send({"type": "action", "client_seq": 2**63, "action": legal})
    await mover.wait_for("error", start=start, code="message/invalid")
    await duo.play(2)
    still_open(duo)
    no_tracebacks(server)


async def test_a_finished_match_answers_hello_with_its_final_view_after_a_restart(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path) as (server, api):
        duo = await Duo.start(server, api, ("eve", "fay"))
        await duo.play(2)
        resigner = duo.clients[0]
        seq = await resigner.act({"type": "resign"})
        await resigner.wait_for("ack", client_seq=seq)
        await duo.clients[1].wait_for("patch", version=3)
        outcome = duo.clients[1].view["outcome"]  # type: ignore[index]
        assert outcome is not None
        await Client.close_all()
        await asyncio.to_thread(server.stop)
        await asyncio.to_thread(server.start, tmp_path)
        for token in (*duo.tokens, None):
            client = await Client(server, duo.match_id, token).connect(hello=False)
            await client.send({"type": "hello", "token": token})
            try:
                welcome = await client.wait_for("welcome", timeout=20)
            except AssertionError as missing:
                raise AssertionError(f"{missing}\n{server.log_text()[-4000:]}") from None
            assert welcome["status"] == "finished" and welcome["version"] == 3
            assert welcome["view"]["outcome"] == outcome
            assert welcome["legal"] == [] and welcome["awaiting"] == []
            client.seq = 1000  # past every client_seq of the match
            seq = await client.act({"type": "move", "cell": 0})
            refusal = await client.wait_for("error", client_seq=seq)
            assert refusal["code"] == ("match/over" if token else "action/not_seated")
        no_tracebacks(server)


async def test_side_doors_around_moderation_and_quick_play_stay_shut(
    served: tuple[Server, Api],
) -> None:
    """A spectator's chat (a banned or muted player would watch and talk on without a token),
    a banned account's lobby hello, a ticket while seated: each refused with its code while
    the match plays on."""
    server, api = served
    duo = await Duo.start(server, api, ("kim", "lou"))
    watcher = await Client(server, duo.match_id, None).connect()
    for n in range(30):
        await watcher.send({"type": "chat", "text": f"psst {n}"})
    await duo.play(2)
    await watcher.wait_for("error", code="chat/spectator")
    assert {m["code"] for m in watcher.of_type("error")} <= {"chat/spectator", "rate/limited"}
    assert not any(client.of_type("chat") for client in (*duo.clients, watcher))
    seated = await api.post("/api/queue", duo.tokens[0], {"game": "ambush", "seats": 2})
    assert seated.status_code == 409, seated.text
    assert seated.json()["error"]["match_id"] == duo.match_id
    admin = await admin_token(api, server)
    banned = await api.guest("mal")
    banned_id = (await me(api, banned))["id"]
    await api.ok(f"/api/admin/players/{banned_id}/ban", admin, {"reason": "abuse"})
    lobby = await LobbyListener().open(server, banned)
    try:
        assert (await lobby.wait_for("error"))["code"] == "auth/banned"
    finally:
        await lobby.close()
    await duo.play(2)
    still_open(duo)
    no_tracebacks(server)


async def test_floods_from_one_address_are_refused_and_play_goes_on(tmp_path: Path) -> None:
    """Accounts, public tables, anonymous reads, silent sockets and stalled request heads
    from one address, all at once, while an honest match plays from another."""
    size = FloodSize(
        accounts=40, tables=15, reads=40, silent_sockets=30, slowloris=20, deadline_s=4.0
    )
    async with serving(tmp_path, **HOSTILE_LIMITS) as (server, api):
        duo = await Duo.start(server, api, ("ivy", "jo"))
        flooding = asyncio.create_task(flood(server.http, "192.0.2.66", size))
        while not flooding.done():
            await duo.play(1)
            await asyncio.sleep(0.05)  # a player's pace, inside the socket's message rate
        report = flooding.result()
        await duo.play(2)
        still_open(duo)
        no_tracebacks(server)
    summary = "\n".join(report.lines())
    assert not report.problems, summary
    assert report.answers["tables"]["429 lobby/too_many_open"] >= 5, summary
    assert report.socket_closes["4429"] >= 10 and report.socket_closes["4408"] >= 1, summary
    assert len(report.slowloris_closed_s) == 20, summary


# ----- raw frames ---------------------------------------------------------------------------


def frame(opcode: int, payload: bytes, *, final: bool = True) -> bytes:
    """A masked client frame (RFC 6455 sec. 5.2); payloads under 126 bytes."""
    mask = b"\x11\x22\x33\x44"
    head = bytes(((0x80 if final else 0) | opcode, 0x80 | len(payload)))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def close_frame(code: int) -> bytes:
    return frame(8, struct.pack("!H", code))


def raw_exchange(
    server: Server, path: str, first: bytes, then: bytes, after_error: bytes = b""
) -> list[tuple[int, bytes]]:
    """Upgrade, send ``first`` (a hello, say), then ``then`` in one write, and once an error
    has come back, ``after_error``; every frame the server sent until it closed."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(4096)
        data = data.split(b"\r\n\r\n", 1)[1]
        if first:
            sock.sendall(first)
        sock.sendall(then)
        if after_error:
            while b'"type":"error"' not in data:
                data += sock.recv(65536)
            sock.sendall(after_error)
        while chunk := sock.recv(65536):
            data += chunk
    frames, at = [], 0
    while at + 2 <= len(data):
        size, header = data[at + 1] & 0x7F, 2
        if size == 126:
            size, header = int.from_bytes(data[at + 2 : at + 4], "big"), 4
        frames.append((data[at] & 0x0F, data[at + header : at + header + size]))
        at += header + size
    return frames


def close_code(frames: list[tuple[int, bytes]]) -> int | None:
    closes = [payload for opcode, payload in frames if opcode == 8]
    assert len(closes) == 1, frames
    return int.from_bytes(closes[0][:2], "big") if closes[0] else None


@pytest.mark.parametrize("greeted", [False, True], ids=["before_hello", "after_hello"])
async def test_bad_frames_close_cleanly_and_log_no_traceback(
    served: tuple[Server, Api], greeted: bool
) -> None:
    server, api = served
    tokens = [await api.guest("gil"), await api.guest("hal")]
    match_id = await api.table("tally", tokens)
    path = f"/ws/matches/{match_id}"
    hello = frame(1, json.dumps({"type": "hello", "token": tokens[0]}).encode())
    first = hello if greeted else b""

    def exchange(then: bytes, after_error: bytes = b"") -> list[tuple[int, bytes]]:
        return raw_exchange(server, path, first, then, after_error)

    # Not UTF-8, with the client's Close in the same write: the Close is answered.
    assert close_code(await asyncio.to_thread(exchange, frame(1, b"\xff\xfe") + close_frame(1000)))
    # Not UTF-8 alone: 1007 (RFC 6455 sec. 8.1).
    assert close_code(await asyncio.to_thread(exchange, frame(1, b"\xff\xfe"))) == 1007
    # A Close between the fragments of a message: a normal close (sec. 5.4), not 1002.
    mid = frame(1, b'{"type":', final=False) + close_frame(1000)
    assert close_code(await asyncio.to_thread(exchange, mid)) == 1000
    # A binary frame is answered with a coded error; the connection stays.
    binary = await asyncio.to_thread(exchange, frame(2, b"\x00\x01"), close_frame(1000))
    errors = [json.loads(p) for op, p in binary if op == 1 and b'"error"' in p]
    assert [e["code"] for e in errors] == ["message/bad_json"]
    assert close_code(binary) == 1000
    log = server.log_text()
    assert "Fatal error" not in log and "Traceback" not in log, log[-3000:]
