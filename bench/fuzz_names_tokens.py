"""Names and tokens fuzz against a real server: impostor names (invisible characters and
look-alike letters) and malformed bearer tokens on REST and on both sockets.

    .venv/bin/python bench/fuzz_names_tokens.py [--names 3000] [--tokens 3000] [--seed 1]

**Names.** A few Latin names are held first. Hypothesis then draws impostors of them: a held
name with characters that draw nothing put anywhere (every default-ignorable code point, the
invisible stackers, the Tifinagh joiner, the blank-looking letters), with letters swapped for
look-alikes (any letter whose TR39 confusable key, in ``app.accounts.lookalikes``, is the
swapped letter's, Cyrillic and Greek among them), with its case changed, or several of
these. Each is posted as a guest or as a registration and must be refused: 409
``account/name_taken`` or 422 ``account/name_invalid``, never accepted, never a 5xx. A held
castle name with invisible characters put in must be refused ``lobby/bad_castle_name``.

**Tokens.** Drawn: non-ASCII text, lone surrogates, ``v1.`` tokens with non-ASCII parts, and
real tokens with one character swapped for a non-ASCII one. Each goes as the bytes of an
``Authorization: Bearer`` header (Latin-1, as HTTP carries them) to ``/api/accounts/me``
(401 with an ``auth/`` code), and as the token of a ``hello`` on a match socket and on the
lobby socket (an ``error`` with a code; the socket stays open, and a match socket still
welcomes a good hello afterwards). Some also go as the relay header one process shows another
(``x-rampart-relay``) on a socket upgrade, which must still be upgraded (101).

Printed: the answers by code, and the failures (an impostor accepted, a 5xx, an answer with
no code, a socket closed, a good hello not welcomed) and the server log's tracebacks. The
run is ok when there are none. ``tests/fault/test_names_tokens_fuzz.py`` runs it at CI size.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import asyncio
import functools
import json
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from hypothesis import strategies as st

from app.accounts.lookalikes import (
    DEFAULT_IGNORABLE,
    INVISIBLE_STACKER,
    UNDRAWN_JOINERS,
    lookalike_key,
    prototypes,
)
from app.accounts.names import BLANK_LOOKING, VARIATION_SELECTORS
from bench.fuzzkit import draw, run_on_server
from bench.raw_frames import upgrade_request
from tests.app.support import Api, Server

# Address limits are already lifted for test servers; registrations are throttled apart.
SERVER_ENV = {
    "RAMPART_REGISTER_ADDRESS_BURST": "1000000",
    "RAMPART_REGISTER_ADDRESS_PER_MIN": "1000000",
    "RAMPART_RATE_PER_S": "100000",
    "RAMPART_RATE_BURST": "100000",
    "RAMPART_HELLO_TIMEOUT_S": "300",
}
# Held names: every letter of each has look-alikes in Cyrillic or Greek.
HELD = ("Kate Hope", "cape", "Oscar", "Paco", "Xena 42", "Moe")
HELD_CASTLE = "Owl Tower"
# What each impostor may be refused with, and each malformed token.
NAME_REFUSALS = {(409, "account/name_taken"), (422, "account/name_invalid")}
TOKEN_SOCKET_CODES = frozenset({"auth/bad_token", "message/bad_json", "message/invalid"})
SOCKET_BATCH = 40  # malformed hellos a match socket takes before a good one
RELAY_HEADERS = 30  # tokens also sent as a relay header on an upgrade


@functools.cache
def invisible_pool() -> tuple[str, ...]:
    """Every character that draws nothing (a variation selector, which a name drops, too)."""
    found = [
        chr(code)
        for code in range(0x110000)
        if not 0xD800 <= code < 0xE000
        and (DEFAULT_IGNORABLE.match(chr(code)) or INVISIBLE_STACKER.match(chr(code)))
    ]
    return tuple(sorted({*found, *UNDRAWN_JOINERS, *BLANK_LOOKING}))


@functools.cache
def lookalike_pool() -> dict[str, tuple[str, ...]]:
    """For each letter of the held names, other letters with the same look-alike key that
    NFKC leaves as they are (Unicode's confusables.txt, read the other way round)."""
    letters: dict[str, set[str]] = defaultdict(set)  # look-alike key -> held letters
    for ch in {ch for name in HELD for ch in name.lower() + name.upper() if ch.isalpha()}:
        letters[lookalike_key(ch)].add(ch)
    found: dict[str, set[str]] = defaultdict(set)
    for source in prototypes():
        if not source.isalpha() or unicodedata.normalize("NFKC", source) != source:
            continue
        for letter in letters.get(lookalike_key(source), ()):
            if source != letter:
                found[letter].add(source)
    return {letter: tuple(sorted(chars)) for letter, chars in found.items()}


# ----- hypothesis strategies ------------------------------------------------------------------


@st.composite
def impostors(draw: Any) -> tuple[str, str, bool]:
    """(held name, impostor, as a registration?): at least one change that keeps the look."""
    held = draw(st.sampled_from(HELD))
    chars = list(held)
    pool = lookalike_pool()
    changes = draw(st.lists(st.sampled_from(["hide", "swap", "case"]), min_size=1, max_size=4))
    for change in changes:
        at = draw(st.integers(0, len(chars) - 1))
        if change == "hide":
            chars.insert(draw(st.integers(0, len(chars))), draw(st.sampled_from(invisible_pool())))
        elif change == "swap" and chars[at] in pool:
            chars[at] = draw(st.sampled_from(pool[chars[at]]))
        else:
            chars[at] = chars[at].swapcase() if chars[at].isascii() else chars[at]
    impostor = "".join(chars)
    if impostor == held:  # no change took: hide something for certain
        impostor += draw(st.sampled_from(invisible_pool()))
    return held, impostor, draw(st.booleans())


@st.composite
def hidden_castles(draw: Any) -> str:
    chars = list(HELD_CASTLE)
    shown = [ch for ch in invisible_pool() if ch not in VARIATION_SELECTORS]
    for _ in range(draw(st.integers(1, 3))):
        chars.insert(draw(st.integers(0, len(chars))), draw(st.sampled_from(shown)))
    return "".join(chars)


non_ascii = st.characters(min_codepoint=0x80, exclude_categories=["Cs"])
surrogates = st.integers(0xD800, 0xDFFF).map(chr)
ascii_part = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=12)
tokens = st.one_of(
    st.text(non_ascii, min_size=1, max_size=40),
    st.builds(
        lambda a, b, c: f"v1.{a}.{b}.{c}",
        st.one_of(ascii_part, st.text(non_ascii, max_size=6)),
        st.one_of(ascii_part, st.text(non_ascii, max_size=6)),
        st.text(non_ascii, min_size=1, max_size=32),
    ),
    st.builds(lambda s, x: f"v1.1.1.{s}{x}", ascii_part, surrogates),
    # A real token with one character swapped: ("swap", position, character).
    st.tuples(st.just("swap"), st.integers(0, 60), st.one_of(non_ascii, surrogates)),
)


# ----- the campaign ---------------------------------------------------------------------------


@dataclass
class Report:
    names: int = 0
    tokens: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    tracebacks: int = 0

    @property
    def ok(self) -> bool:
        return not (self.failures or self.tracebacks)

    def lines(self) -> list[str]:
        return [
            f"impostor names and castle names sent: {self.names}; malformed tokens: {self.tokens}",
            f"answers by code: {dict(self.codes.most_common())}",
            f"failures: {len(self.failures)} {self.failures[:5]}",
            f"tracebacks in the server log: {self.tracebacks}",
            "ok" if self.ok else "NOT OK",
        ]


def header_bytes(token: str) -> bytes | None:
    """``Bearer <token>`` as header bytes; None when HTTP cannot carry it (a control
    character, a surrogate, a character past Latin-1 is sent as its UTF-8 bytes)."""
    if any(ord(ch) < 0x20 or ch == "\x7f" or 0xD800 <= ord(ch) < 0xE000 for ch in token):
        return None
    try:
        raw = token.encode("latin-1")
    except UnicodeEncodeError:
        raw = token.encode("utf-8")
    return b"Bearer " + raw


def error_code(reply: Any) -> str:
    """The refusal's code, else the status (an answer that is not an error, or not JSON)."""
    try:
        code = reply.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return str(reply.status_code)
    return str(code)


async def fuzz_names(api: Api, report: Report, count: int, seed_value: int) -> None:
    for name in HELD:
        made = await api.client.post("/api/accounts", json={"name": name})
        assert made.status_code == 201, made.text
    for held, impostor, registered in draw(impostors(), count, seed_value):
        body: dict[str, Any] = {"name": impostor}
        if registered:
            body["password"] = "p" * 12
        report.names += 1
        try:
            reply = await api.client.post("/api/accounts", json=body)
        except httpx.HTTPError as failure:
            report.failures.append(f"{held!r} as {impostor!r}: {failure!r}")
            continue
        code = error_code(reply)
        report.codes[f"name {code}"] += 1
        if (reply.status_code, code) not in NAME_REFUSALS:
            report.failures.append(f"{held!r} as {impostor!r}: {reply.status_code} {reply.text}")
    host = await api.guest("castle fuzz host")
    lobby = await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2})
    path = f"/api/lobbies/{lobby['id']}/castle"
    for castle in draw(hidden_castles(), max(count // 4, 1), seed_value):
        reply = await api.post(path, host, {"name": castle})
        report.names += 1
        code = error_code(reply)
        report.codes[f"castle {code}"] += 1
        if (reply.status_code, code) != (422, "lobby/bad_castle_name"):
            report.failures.append(f"castle {castle!r}: {reply.status_code} {reply.text}")


def token_text(spec: Any, real: str) -> str:
    if isinstance(spec, tuple):
        _, at, ch = spec
        at %= len(real)
        return f"{real[:at]}{ch}{real[at + 1 :]}"
    return str(spec)


async def fuzz_rest_tokens(api: Api, report: Report, texts: list[str]) -> None:
    for text in texts:
        raw = header_bytes(text)
        if raw is None:
            continue
        report.tokens += 1
        try:
            reply = await api.client.get("/api/accounts/me", headers={b"authorization": raw})
        except httpx.HTTPError as failure:
            report.failures.append(f"REST token {text!r}: {failure!r}")
            continue
        code = error_code(reply)
        report.codes[f"rest {code}"] += 1
        if reply.status_code != 401 or not code.startswith("auth/"):
            report.failures.append(f"REST token {text!r}: {reply.status_code} {reply.text}")


async def answer(ws: Any) -> dict[str, Any]:
    """The next message that is not a ping (answered) or news."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message.get("type") == "ping":
            await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
        elif message.get("type") in ("error", "welcome"):
            return dict(message)


async def fuzz_socket_tokens(
    server: Server, api: Api, report: Report, texts: list[str], good: str
) -> None:
    other = await api.guest("token fuzz other")
    match_id = await api.table("tally", [good, other])
    url = f"{server.ws}/ws/matches/{match_id}"
    for start in range(0, len(texts), SOCKET_BATCH):
        async with websockets.connect(url) as ws:
            for text in texts[start : start + SOCKET_BATCH]:
                await hello(ws, text, report, "match")
            await ws.send(json.dumps({"type": "hello", "token": good}))
            welcome = await answer(ws)
            if welcome.get("type") != "welcome" or ws.close_code is not None:
                report.failures.append(f"match socket: good hello answered {welcome}")
    async with websockets.connect(f"{server.ws}/ws/lobby") as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "lobbies"
        for text in texts:
            await hello(ws, text, report, "lobby")
        if ws.close_code is not None:
            report.failures.append(f"lobby socket closed {ws.close_code}")


async def hello(ws: Any, text: str, report: Report, where: str) -> None:
    report.tokens += 1
    try:
        await ws.send(json.dumps({"type": "hello", "token": text}))
        refused = await answer(ws)
    except (TimeoutError, websockets.ConnectionClosed) as failure:
        report.failures.append(f"{where} hello {text!r}: {failure!r}")
        return
    report.codes[f"{where} {refused.get('code')}"] += 1
    if refused.get("type") != "error" or refused.get("code") not in TOKEN_SOCKET_CODES:
        report.failures.append(f"{where} hello {text!r}: {refused}")


async def handshake(server: Server, path: str, header: bytes) -> bytes:
    """A websocket upgrade of ``path`` carrying ``header`` as raw bytes; the first reply."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(upgrade_request(path, header))
    try:
        return await asyncio.wait_for(reader.read(4096), 10)
    finally:
        writer.close()


async def fuzz_relay_headers(server: Server, report: Report, texts: list[str]) -> None:
    carried = [raw for raw in map(header_bytes, texts) if raw is not None][:RELAY_HEADERS]
    for raw in carried:
        header = b"x-rampart-relay: " + raw.removeprefix(b"Bearer ")
        reply = await handshake(server, "/ws/lobby", header)
        report.tokens += 1
        status = reply.split(b"\r\n", 1)[0].decode("latin-1")
        report.codes[f"relay {status.removeprefix('HTTP/1.1 ')[:3]}"] += 1
        if not status.startswith("HTTP/1.1 101"):
            report.failures.append(f"relay header {raw!r}: {status}")


async def phase(report: Report, what: str, work: Any) -> None:
    """Run one part of the campaign; a connection the server dropped ends it, as a failure."""
    try:
        await work
    except (httpx.HTTPError, websockets.WebSocketException, OSError, AssertionError) as failure:
        report.failures.append(f"{what} stopped: {failure!r}")


async def campaign(server: Server, names: int, tokens_count: int, seed_value: int) -> Report:
    report = Report()
    api = Api(server)
    try:
        await phase(report, "names", fuzz_names(api, report, names, seed_value))
        good = await api.guest("token fuzz")
        texts = [token_text(spec, good) for spec in draw(tokens, tokens_count, seed_value)]
        await phase(report, "REST tokens", fuzz_rest_tokens(api, report, texts))
        await phase(report, "socket tokens", fuzz_socket_tokens(server, api, report, texts, good))
        await phase(report, "relay headers", fuzz_relay_headers(server, report, texts))
    finally:
        await api.close()
    await asyncio.sleep(0.3)  # the server's last log lines
    report.tracebacks = server.log_text().count("Traceback")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--names", type=int, default=3000)
    parser.add_argument("--tokens", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    async def run(server: Server) -> Report:
        return await campaign(server, args.names, args.tokens, args.seed)

    run_on_server("rampart-fuzz-names-", SERVER_ENV, run)


if __name__ == "__main__":
    main()
