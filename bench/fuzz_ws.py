"""Websocket fuzz campaign against a real server: hostile messages on match sockets of every
game while an honest match plays on beside them (issue 20).

    .venv/bin/python bench/fuzz_ws.py [--messages 100000] [--seed 1] [--games ambush,...]

Each game gets a two-seat table whose two seats are fuzzers. They send messages drawn with
hypothesis strategies over the protocol's message set (``app/realtime/messages.py``): every
type, known and unknown fields, hostile values (integers past 2^53, 2^63 and 2^64, NaN and
infinities, lists or objects where a string belongs, long strings, deep nesting), legal
actions as they are and mutated (an extra field, a field replaced), and plain garbage text.
A match that ends is replaced by a new one. Raw-frame cases run on their own connections
(``RAW_CASES``: bad UTF-8, with a Close in the same write, fragments, a Close mid-fragment,
binary, oversize). Meanwhile an honest tally match plays move after move, and another address
floods the server with cheap requests (``bench/floods.py``: new accounts, public tables,
anonymous reads, lobby sockets that never say hello, stalled request heads; ``--no-floods``
leaves them out), each of which must be refused or closed by its limit. At the end the side
doors around moderation and quick play are tried on each fuzzed match (``bench/side_doors.py``:
a spectator's chat, a ticket for a seated player, a banned account's lobby hello).

Printed: messages sent, answers by code, unanswered messages, crashes (a socket closed 1011,
or the server logging a failed session), tracebacks in the server log, and the honest match's
moves and failures, what the floods were answered, and the side doors' answers. The run is ok
when crashes, tracebacks, unanswered messages, honest failures, flood problems and open side
doors are all 0.
``tests/fault/test_ws_fuzz.py`` runs a CI-sized campaign.
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
import base64
import json
import os
import random
import struct
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

# Run as a script, the repository instead of this script's folder: a module here must not
# shadow the standard library's of the same name (bench/queue.py and ``import queue``).
HERE = Path(__file__).resolve().parent
if sys.path and sys.path[0] and Path(sys.path[0]).resolve() == HERE:
    sys.path[0] = str(HERE.parent)

import websockets  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bench.floods import FloodReport, FloodSize, flood  # noqa: E402
from bench.side_doors import SideDoors, probe  # noqa: E402
from tests.app.support import Api, Server  # noqa: E402

GAMES = ("ambush", "castles", "ember", "rampage")
# What the server sends that answers a message (chat echoes and patches go to everyone).
ANSWERS = frozenset({"error", "ack", "grab_result"})
ANSWER_WAIT_S = 5.0
# Messages whose valid form answers no one in particular: a pong, a chat (echoed to all), a
# rematch offer (news to all).
QUIET = frozenset({"pong", "chat", "rematch"})
GRAB_WAIT_S = 0.5  # a grab held in an Ambush! race is answered when decided, a resend never
# The fuzzers' own message rate is not limited; the limits per address are small enough for
# the floods (``bench/floods.py``) to meet them and large enough for the campaign's own tables.
SERVER_ENV = {
    "RAMPART_RATE_PER_S": "100000",
    "RAMPART_RATE_BURST": "100000",
    "RAMPART_ACCOUNT_ADDRESS_LIMIT": "120/minute",
    "RAMPART_READ_ADDRESS_LIMIT": "100/minute",
    "RAMPART_SOCKETS_PER_ADDRESS": "100",
    "RAMPART_HELLO_TIMEOUT_S": "2",
    "RAMPART_HEADER_TIMEOUT_S": "2",
}
# Floods from one address beside the campaign, at the size of the probe that found them
# missing: 500 guests, 300 public tables, 300 silent sockets, 300 stalled request heads.
FULL_FLOODS = FloodSize(
    accounts=500, tables=300, reads=1000, silent_sockets=300, slowloris=300, deadline_s=6.0
)
FLOOD_ADDRESS = "192.0.2.99"

# ----- the message set as hypothesis strategies ---------------------------------------------

EDGE_INTS = [-(2**63) - 1, -(2**53), -1, 0, 1, 2**31, 2**53 - 1, 2**53, 2**63 - 1, 2**63, 2**64]
EDGE_INTS += [10**30, -(10**30)]
ints = st.one_of(st.integers(-3, 40), st.sampled_from(EDGE_INTS), st.integers())
floats = st.floats(allow_nan=True, allow_infinity=True)
texts = st.one_of(st.text(max_size=12), st.just("é" * 300), st.just("J" * 7000))
scalars = st.one_of(st.none(), st.booleans(), ints, floats, texts)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=8,
)
MESSAGE_TYPES = ["hello", "action", "grab", "pong", "chat", "rematch"]
ACTION_TYPES = [
    "move", "pass", "play", "grab", "place", "expose", "call", "end_turn", "act", "trap",
    "strike", "hero", "mode", "arcane", "respond", "discard", "attack", "build", "no_such",
]  # fmt: skip
ACTION_FIELDS = ["card", "cell", "target", "targets", "zone", "to", "with", "seat", "hero"]
ACTION_FIELDS += ["build", "look", "swap", "choice", "target_seat", "target_card", "junk"]
cells = st.one_of(st.lists(st.integers(-12, 12), min_size=2, max_size=2), json_values)
actions = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(ACTION_TYPES)},
        optional={name: st.one_of(st.integers(-2, 60), cells) for name in ACTION_FIELDS},
    ),
    json_values,
)
FIELDS: dict[str, Any] = {
    "client_seq": st.one_of(st.integers(0, 10**6), ints, json_values),
    "action": actions,
    "cell": cells,
    "ref": st.one_of(st.integers(0, 200), ints, json_values),
    "dt": st.one_of(st.floats(-50, 500), floats, ints, json_values),
    "seat": st.one_of(st.integers(-1, 4), json_values),
    "version": st.one_of(st.integers(0, 200), json_values),
    "token": st.one_of(st.text(max_size=40), json_values),
    "last_version": st.one_of(st.integers(0, 200), json_values),
    "nonce": st.one_of(st.integers(0, 10**6), ints, texts, json_values),
    "text": st.one_of(texts, json_values),
    "junk": json_values,
}
message_types = st.one_of(st.sampled_from(MESSAGE_TYPES), json_values)
structured = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    message_types,
    st.fixed_dictionaries({}, optional=FIELDS),
)
# A message is a dict to encode, a legal action to send (as is or mutated), or raw text.
legal_moves = st.tuples(
    st.just("legal"),
    st.sampled_from(["as_is", "as_is", "extra", "replace", "seq"]),
    json_values,
)
garbage = st.one_of(
    st.text(max_size=60),
    st.builds(lambda d, cut: json.dumps(d)[:cut], structured, st.integers(1, 80)),
)
specs = st.one_of(
    structured, structured, structured, legal_moves, legal_moves, st.tuples(st.just("raw"), garbage)
)


def draw_specs(count: int, seed_value: int) -> list[Any]:
    """Up to ``count`` message specs drawn by hypothesis (as one property's examples; about
    20 ms each, so a campaign draws a pool and sends each of its specs several times, each
    time to a game in another state)."""
    drawn: list[Any] = []

    @seed(seed_value)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(specs)
    def collect(spec: Any) -> None:
        drawn.append(spec)

    collect()
    return drawn


def encode(value: Any) -> str:
    return json.dumps(value, allow_nan=True)  # NaN and Infinity as JavaScript writes them


# ----- raw frames ----------------------------------------------------------------------------


def frame(opcode: int, payload: bytes, *, final: bool = True) -> bytes:
    """A masked client frame (RFC 6455 sec. 5.2)."""
    mask = os.urandom(4)
    size = len(payload)
    first = (0x80 if final else 0) | opcode
    if size < 126:
        head = bytes((first, 0x80 | size))
    elif size < 65536:
        head = bytes((first, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((first, 0x80 | 127)) + size.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


CLOSE = frame(8, struct.pack("!H", 1000))
PART = b'{"type":"chat",'
# Each case (sent after a hello, in one write) and the close code RFC 6455 asks for: 1007 for
# text that is not UTF-8 (sec. 8.1), 1002 for a protocol error (an unmasked client frame, a
# continuation with no message, a reserved opcode, a Close code no one may send), 1009 past the
# server's frame size; anything else ends in the client's own Close, answered 1000.
RAW_CASES: dict[str, tuple[bytes, int]] = {
    "bad_utf8": (frame(1, b"\xff\xfe\xfd"), 1007),
    "bad_utf8_then_close": (frame(1, b"\xc3\x28") + CLOSE, 1000),
    "bad_utf8_fragmented": (frame(1, b"ok", final=False) + frame(0, b"\xed\xa0\x80"), 1007),
    "fragments": (frame(1, PART, final=False) + frame(0, b'"text":"hi"}') + CLOSE, 1000),
    "ping_mid_fragment": (
        frame(1, PART, final=False) + frame(9, b"p") + frame(0, b'"text":"x"}') + CLOSE,
        1000,
    ),
    "close_mid_fragment": (frame(1, PART, final=False) + CLOSE, 1000),
    "continuation_first": (frame(0, b"orphan"), 1002),
    "binary": (frame(2, b"\x00\x01\x02") + CLOSE, 1000),
    "oversize_message": (
        frame(1, json.dumps({"type": "chat", "text": "x" * 9000}).encode()) + CLOSE,
        1000,
    ),
    "oversize_frame": (frame(1, b"x" * (1 << 20 | 1)), 1009),
    "reserved_opcode": (frame(3, b"?"), 1002),
    "unmasked": (bytes((0x81, 2)) + b"{}", 1002),
    "close_bad_code": (frame(8, struct.pack("!H", 999)), 1002),
}


async def raw_case(server: Server, match_id: int, token: str, data: bytes) -> int | None:
    """Say hello, send ``data`` in one write, read until the server closes; its close code."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws/matches/{match_id} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await reader.readuntil(b"\r\n\r\n")
    writer.write(frame(1, json.dumps({"type": "hello", "token": token}).encode()) + data)
    received = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), 10):
            received += chunk
            if b"\x88" in received and _close_code(received) is not None:
                break
    except (TimeoutError, ConnectionError):
        pass
    writer.close()
    return _close_code(received)


def _close_code(data: bytes) -> int | None:
    at = 0
    while at + 2 <= len(data):
        opcode, size, header = data[at] & 0x0F, data[at + 1] & 0x7F, 2
        if size == 126:
            size, header = int.from_bytes(data[at + 2 : at + 4], "big"), 4
        elif size == 127:
            size, header = int.from_bytes(data[at + 2 : at + 10], "big"), 10
        if at + header + size > len(data):
            return None
        if opcode == 8:
            payload = data[at + header : at + header + size]
            return int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
        at += header + size
    return None


# ----- the campaign --------------------------------------------------------------------------


@dataclass
class Report:
    sent: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    unanswered: list[str] = field(default_factory=list)
    held_grabs: int = 0
    crashes: list[str] = field(default_factory=list)
    tracebacks: int = 0
    raw_closes: dict[str, int | None] = field(default_factory=dict)
    raw_wrong: list[str] = field(default_factory=list)
    matches: Counter[str] = field(default_factory=Counter)
    honest_moves: int = 0
    honest_failures: list[str] = field(default_factory=list)
    floods: FloodReport | None = None
    side_doors: SideDoors | None = None
    seconds: float = 0.0
    drawing_s: float = 0.0

    @property
    def ok(self) -> bool:
        return not (
            self.crashes
            or self.tracebacks
            or self.unanswered
            or self.honest_failures
            or self.raw_wrong
            or (self.floods is not None and self.floods.problems)
            or (self.side_doors is not None and self.side_doors.leaks)
        )

    def lines(self) -> list[str]:
        out = [
            f"messages sent: {self.sent} in {self.seconds:.1f} s "
            f"({self.sent / max(self.seconds, 1e-9):.0f}/s; "
            f"specs drawn in {self.drawing_s:.0f} s), "
            f"matches: {dict(self.matches)}",
            f"answers by code: {dict(self.codes.most_common())}",
            f"grabs held for a race (answered when decided, a resend never): {self.held_grabs}",
            f"unanswered: {len(self.unanswered)} {self.unanswered[:3]}",
            f"raw-frame cases (close code): {self.raw_closes}",
            f"raw-frame cases closed otherwise than RFC 6455 asks: {self.raw_wrong}",
            f"crashes: {len(self.crashes)} {self.crashes[:3]}",
            f"tracebacks in the server log: {self.tracebacks}",
            f"honest match beside it: {self.honest_moves} moves acknowledged, "
            f"{len(self.honest_failures)} failures {self.honest_failures[:3]}",
            *(self.floods.lines() if self.floods is not None else []),
            *(self.side_doors.lines() if self.side_doors is not None else []),
            "ok" if self.ok else "NOT OK",
        ]
        return out


class Seat:
    """A seated connection: answers pings, keeps its latest legal actions and view, and queues
    the replies that answer a message (``ANSWERS``)."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.ws: Any = None
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.legal: list[dict[str, Any]] = []
        self.over = False
        self.version = 0
        self.welcomed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=None)
        self._reader = asyncio.create_task(self._read())
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        await asyncio.wait_for(self.welcomed.wait(), 10)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "ping":
                    await self.ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                elif kind in ("welcome", "patch"):
                    self.seen(message)
                elif kind in ANSWERS:
                    self.answers.put_nowait(message)
        except websockets.ConnectionClosed:
            pass

    def seen(self, message: dict[str, Any]) -> None:
        """A welcome or patch: its version, legal actions (a diff patch carries them only when
        they changed) and whether the match is over (from the whole view or the diff)."""
        self.version = message["version"]
        if "legal" in message:
            self.legal = message["legal"] or []
        view = message.get("view")
        changed = view if view is not None else (message.get("diff") or {}).get("set") or {}
        if "outcome" in changed:
            self.over = changed["outcome"] is not None
        self.welcomed.set()

    @property
    def close_code(self) -> int | None:
        return None if self.ws is None else self.ws.close_code

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader


class FuzzTable:
    """One game's two-seat table of fuzzers; a finished match is replaced by a new one."""

    def __init__(self, server: Server, api: Api, game: str, report: Report, rng: random.Random):
        self.server, self.api, self.game, self.report, self.rng = server, api, game, report, rng
        self.seats: list[Seat] = []
        self.seq = 0

    async def open(self) -> None:
        for seat in self.seats:
            await seat.close()
        n = self.report.matches[self.game]
        tokens = [await self.api.guest(f"fz{self.game[:3]}{n}{s}") for s in "ab"]
        match_id = await self.api.table(self.game, tokens)
        self.match_id, self.tokens = match_id, tokens
        self.seats = [Seat(f"{self.server.ws}/ws/matches/{match_id}", t) for t in tokens]
        for seat in self.seats:
            await seat.open()
        self.report.matches[self.game] += 1

    def text_for(self, spec: Any, seat: Seat) -> str:
        if isinstance(spec, dict):
            return encode(spec)
        if spec[0] == "raw":
            return str(spec[1])
        _, how, value = spec
        legal = [a for a in seat.legal if a.get("type") != "resign"]
        self.seq += 1
        if not legal:
            return encode({"type": "action", "client_seq": self.seq, "action": {"type": "pass"}})
        action = dict(self.rng.choice(legal))
        seq: Any = self.seq
        if how == "extra":
            action["junk"] = value
        elif how == "replace":
            action[self.rng.choice(sorted(action))] = value
        elif how == "seq":
            seq = value
            if type(value) is int and self.seq < value < 2**53:
                self.seq = value  # the server keeps the highest: later moves must pass it
        kind = "grab" if action.get("type") == "grab" and self.rng.random() < 0.7 else "action"
        if kind == "grab":
            return encode({"type": "grab", "client_seq": seq, "cell": action.get("cell"),
                           "ref": seat.version, "dt": self.rng.uniform(0, 80)})  # fmt: skip
        return encode({"type": "action", "client_seq": seq, "action": action})

    async def send(self, spec: Any) -> None:
        if any(seat.over or seat.close_code is not None for seat in self.seats):
            for seat in self.seats:
                if seat.close_code == 1011:
                    self.report.crashes.append(f"{self.game} match {self.match_id}: 1011")
            await self.open()
        seat = self.rng.choice(self.seats)
        text = self.text_for(spec, seat)
        try:
            await seat.ws.send(text)
        except websockets.ConnectionClosed:
            return  # counted (a 1011 as a crash) when the table reopens
        self.report.sent += 1
        kind = _message_type(text)
        if isinstance(kind, str) and kind in QUIET:
            return  # a valid one gets no answer of its own; a refused one's answer is queued
        wait = GRAB_WAIT_S if kind == "grab" else ANSWER_WAIT_S
        try:
            answer = await asyncio.wait_for(seat.answers.get(), wait)
        except TimeoutError:
            if seat.close_code is not None:
                return  # counted when the table reopens
            if kind == "grab":
                self.report.held_grabs += 1
            else:
                self.report.unanswered.append(text[:200])
            return
        code = answer.get("code") if answer["type"] != "ack" else "ack"
        if answer["type"] == "error" and not isinstance(code, str):
            self.report.unanswered.append(f"error without a code for {text[:200]}")
        self.report.codes[str(code if code else answer["type"])] += 1

    async def close(self) -> None:
        for seat in self.seats:
            if seat.close_code == 1011:
                self.report.crashes.append(f"{self.game} match {self.match_id}: 1011")
            await seat.close()


def _message_type(text: str) -> Any:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data.get("type") if isinstance(data, dict) else None


async def honest_match(server: Server, api: Api, report: Report, stop: asyncio.Event) -> None:
    """Two honest seats of an endless tally match: each move must be acknowledged."""
    tokens = [await api.guest("honest_a"), await api.guest("honest_b")]
    match_id = await api.table("tally", tokens)
    seats = [Seat(f"{server.ws}/ws/matches/{match_id}", t) for t in tokens]
    for seat in seats:
        await seat.open()
    seq = 0
    try:
        while not stop.is_set():
            mover = next((s for s in seats if s.legal), None)
            if mover is None:
                await asyncio.sleep(0.01)
                continue
            seq += 1
            version = mover.version
            move = {"type": "action", "client_seq": seq, "action": mover.legal[0]}
            try:
                await mover.ws.send(json.dumps(move))
                answer = await asyncio.wait_for(mover.answers.get(), ANSWER_WAIT_S)
            except (TimeoutError, websockets.ConnectionClosed) as failure:
                report.honest_failures.append(f"move {seq}: {failure!r}")
                return
            if answer["type"] != "ack":
                report.honest_failures.append(f"move {seq}: {answer}")
                return
            report.honest_moves += 1
            while any(s.version <= version for s in seats):  # both saw the move
                await asyncio.sleep(0.002)
    finally:
        for seat in seats:
            if seat.close_code is not None:
                report.honest_failures.append(f"honest seat closed {seat.close_code}")
            await seat.close()


async def campaign(
    server: Server,
    messages: int,
    seed_value: int,
    games: tuple[str, ...] = GAMES,
    pool_size: int = 5000,
    floods: FloodSize | None = None,
    side_door_chats: int = 20,
) -> Report:
    """Fuzz ``messages`` messages over ``games`` (one fuzzing table each, concurrently) and
    the raw-frame cases, beside an honest match and, with ``floods``, floods of cheap requests
    from another address; then count the server log's tracebacks."""
    report = Report()
    rng = random.Random(seed_value)
    drawing = time.perf_counter()
    pool = draw_specs(min(messages, pool_size), seed_value)
    specs = [pool[i % len(pool)] for i in range(messages)]
    rng.shuffle(specs)
    report.drawing_s = time.perf_counter() - drawing
    api = Api(server)
    started = time.perf_counter()
    stop = asyncio.Event()
    honest = asyncio.create_task(honest_match(server, api, report, stop))
    flooding = None
    if floods is not None:
        flooding = asyncio.create_task(flood(server.http, FLOOD_ADDRESS, floods, "flood"))
    tables = [FuzzTable(server, api, game, report, random.Random(rng.random())) for game in games]
    for table in tables:
        await table.open()

    async def fuzz(table: FuzzTable, share: list[Any]) -> None:
        for spec in share:
            await table.send(spec)

    await asyncio.gather(*(fuzz(t, specs[i :: len(tables)]) for i, t in enumerate(tables)))
    for name, (data, expected) in RAW_CASES.items():
        table = tables[len(report.raw_closes) % len(tables)]
        code = await raw_case(server, table.match_id, table.tokens[0], data)
        report.raw_closes[name] = code
        if code != expected:
            report.raw_wrong.append(f"{name}: closed {code}, expected {expected}")
    matches = [(table.match_id, table.tokens) for table in tables]
    report.side_doors = await probe(server, api, matches, side_door_chats)
    for table in tables:
        await table.close()
    if flooding is not None:
        report.floods = await flooding
    stop.set()
    await honest
    await api.close()
    report.seconds = time.perf_counter() - started
    await asyncio.sleep(0.5)  # the server's last log lines
    log = server.log_text()
    report.tracebacks = log.count("Traceback")
    report.crashes += [line for line in log.splitlines() if "session failed" in line]
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--pool", type=int, default=5000, help="distinct hypothesis specs")
    parser.add_argument("--no-floods", action="store_true", help="without the floods")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rampart-fuzz-"))
    server = Server(f"sqlite+aiosqlite:///{folder}/rampart.db", dict(SERVER_ENV))
    server.start(folder)
    try:
        report = asyncio.run(
            campaign(
                server,
                args.messages,
                args.seed,
                tuple(args.games.split(",")),
                args.pool,
                None if args.no_floods else FULL_FLOODS,
            )
        )
    finally:
        server.stop()
    for line in report.lines():
        print(line)
    print(f"server log: {server.log_path}")
    raise SystemExit(0 if report.ok else 1)


if __name__ == "__main__":
    main()
