"""The websocket fuzz campaign's players: seated connections, the fuzzing tables that send the
drawn messages, the honest match beside them, and the report of what they saw."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

from bench.floods import FloodReport
from bench.fuzz_messages import encode
from bench.side_doors import SideDoors
from tests.app.support import Api, Server

# What the server sends that answers a message (chat echoes and patches go to everyone).
ANSWERS = frozenset({"error", "ack", "grab_result"})
ANSWER_WAIT_S = 5.0
# Messages whose valid form answers no one in particular: a pong, a chat (echoed to all), a
# rematch offer (news to all).
QUIET = frozenset({"pong", "chat", "rematch"})
GRAB_WAIT_S = 0.5  # a grab held in an Ambush! race is answered when decided, a resend never


@dataclass
class Report:
    """What a campaign saw; ``ok`` when nothing went wrong."""

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
        kind = message_type(text)
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


def message_type(text: str) -> Any:
    """The ``type`` of a message's text, if it is a JSON object."""
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
