"""Bot clients over real websockets: one ``Seat`` per socket, one ``Run`` per process's matches."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import random
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx
import orjson
from rampart_client import HeldView

from app.cluster import wsclient
from bench.loadgen.lobbies import LobbyTraffic, open_table
from bench.loadgen.probes import cpu_seconds, memory_mb, percentile

PING_PREFIX = '{"type":"ping","nonce":'
PATCH_PREFIX = '{"type":"patch",'
SETUP_BATCH = 25  # matches opened at once
SETUP_FAILURES_SHOWN = 3  # on stderr; all are counted as ``connect`` errors
KEEPALIVE_EXPIRY_S = 2.0  # below uvicorn's timeout_keep_alive (5 s)


@dataclass(frozen=True)
class Plan:
    """What one load-generating process plays: its share of the M matches is the match
    indexes ``worker, worker + procs, ...``; accounts and bot seeds follow the index, so the
    same M gives the same matches whatever ``procs`` is."""

    base: str
    echo: bool
    game: str
    matches: int
    think_ms: int
    warmup_s: float
    seconds: float
    grace_s: float
    procs: int = 1
    worker: int = 0
    # Several server processes (``--nodes``): match ``i`` is opened and played on
    # ``bases[i % len(bases)]``, so each table's sockets reach the process that owns it.
    bases: tuple[str, ...] = ()
    # ``--spread``: seat ``s`` of match ``i`` connects to ``bases[(i + s) % len(bases)]``,
    # as a round-robin balancer would send it, and is relayed when that is not the owner.
    spread: bool = False
    # ``--open-rate``: tables a second that worker 0 opens over REST during the window
    # (lobby traffic beside the moves; their seats never connect).
    open_rate: float = 0.0

    def indexes(self) -> range:
        return range(self.worker, self.matches, self.procs)

    def base_for(self, index: int) -> str:
        return self.bases[index % len(self.bases)] if self.bases else self.base

    def socket_base(self, index: int, seat: int) -> str:
        """Where seat ``seat`` of match ``index`` connects (``ws://host:port``)."""
        base = self.base_for(index + seat if self.spread else index)
        return base.replace("http://", "ws://")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    # Grabs apart: their answer waits, by design, for the arbiter's hold (up to
    # the largest ``rtt_cap`` of the players who could still claim the cell).
    grab_latencies: list[float] = field(default_factory=list)
    acked_in_window: int = 0
    sent_in_window: int = 0
    errors: dict[str, int] = field(
        default_factory=lambda: dict(
            connect=0, disconnect=0, error=0, rejected=0, slow_over_5s=0, unacked_at_end=0
        )
    )
    measuring: bool = False
    stopped: bool = False
    race_decisions: int = 0  # grab_result messages in the window (won or lost)
    race_wins: int = 0
    refusals: dict[str, int] = field(default_factory=dict)  # error code -> count
    finished: int = 0  # matches over (a bot seat saw an outcome)
    # Text received by the sockets in the window (UTF-8 bytes of every message; of patches).
    bytes_in_window: int = 0
    patch_bytes_in_window: int = 0


class Seat:
    """One websocket playing one seat."""

    def __init__(self, run: Run, url: str, token: str | None, seat_hint: int) -> None:
        self.run, self.url, self.token, self.seat = run, url, token, seat_hint
        self.ws: Any = None  # a wsclient.Client once open
        self.seq = 0
        self.sent: dict[int, tuple[float, bool]] = {}  # client_seq -> (sent at, in window)
        self.by_version: dict[int, tuple[float, bool]] = {}
        self.moved_for = -1
        self.in_flight = False
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.patches = HeldView()  # the official client's: diff patches filled in to views
        self.ready = asyncio.Event()
        self.bot: Any = None
        self.timer: asyncio.TimerHandle | None = None
        self.anchor = (0, time.monotonic())
        self.first_move = True
        self.drawn = (0, time.monotonic())  # (version, when) of the last state drawn: a grab's ref
        self.over = False

    async def open(self) -> None:
        self.ws = await wsclient.connect(self.url, self.receive, self.lost)
        self.ws.send_text(json.dumps({"type": "hello", "token": self.token, "last_version": 0}))

    def lost(self, code: int) -> None:
        if not self.run.stats.stopped:
            self.run.stats.errors["disconnect"] += 1

    def receive(self, raw: str) -> None:
        """One message from the server (called by the socket's protocol, in order)."""
        try:
            stats = self.run.stats
            if stats.measuring:
                size = len(raw) if raw.isascii() else len(raw.encode())
                stats.bytes_in_window += size
                if raw.startswith(PATCH_PREFIX):
                    stats.patch_bytes_in_window += size
            if raw.startswith(PING_PREFIX):
                # Most messages of an Ambush! load are pings (every 250 ms per socket): answer
                # them without a JSON round trip, to keep the load generator cheap.
                self.ws.send_text(f'{{"type":"pong","nonce":{raw[len(PING_PREFIX) : -1]}}}')
                return
            self.handle(orjson.loads(raw))
        except wsclient.ConnectionClosed:
            pass  # counted by ``lost``
        except Exception:
            self.run.stats.errors["error"] += 1

    def handle(self, message: dict[str, Any]) -> None:
        stats = self.run.stats
        kind = message["type"]
        if kind == "ping":
            self.ws.send_text(json.dumps({"type": "pong", "nonce": message["nonce"]}))
        elif kind == "welcome":
            self.seat = message["seat"]
            self.on_state(message)
            self.ready.set()
        elif kind == "ack":
            sent = self.sent.pop(message["client_seq"], None)
            if sent is not None:
                self.by_version[message["version"]] = sent
        elif kind == "patch":
            sent = self.by_version.pop(message["version"], None)
            if sent is not None:
                self.in_flight = False
                latency = (time.monotonic() - sent[0]) * 1000
                if sent[1]:
                    stats.latencies.append(latency)
                    stats.acked_in_window += 1
                    if latency > 5000:
                        stats.errors["slow_over_5s"] += 1
            self.on_state(message)
        elif kind == "grab_result":
            sent = self.sent.pop(message.get("client_seq", -1), None)
            self.in_flight = False
            if sent is not None and sent[1]:
                latency = (time.monotonic() - sent[0]) * 1000
                stats.latencies.append(latency)
                stats.grab_latencies.append(latency)
                stats.acked_in_window += 1
                stats.race_decisions += 1
                stats.race_wins += bool(message["won"])
                if latency > 5000:
                    stats.errors["slow_over_5s"] += 1
                if not message["won"]:
                    code = message.get("code", "lost")
                    stats.refusals[code] = stats.refusals.get(code, 0) + 1
            self.schedule()
        elif kind == "error":
            stats.errors["rejected"] += 1
            code = message.get("code", "?")
            stats.refusals[code] = stats.refusals.get(code, 0) + 1
            self.sent.pop(message.get("client_seq", -1), None)
            self.in_flight = False
            self.schedule()

    def on_state(self, message: dict[str, Any]) -> None:
        if self.patches.read(message) == "resync":
            # A diff for a version not held: ask for the whole view again.
            last = self.patches.version
            self.ws.send_text(json.dumps({"type": "resync", "last_version": last}))
            return
        self.view, self.legal = self.patches.view or {}, self.patches.legal
        self.anchor = (message.get("at_ms", 0), time.monotonic())
        self.drawn = (message.get("version", 0), self.anchor[1])
        if self.view.get("outcome") is not None and not self.over:
            self.over = True
            if self.seat == 0:
                self.run.stats.finished += 1
        if self.bot is not None:
            self.bot.observe(message.get("events", []), self.view)
        self.schedule()

    def schedule(self) -> None:
        run = self.run
        if run.stats.stopped or self.in_flight or not run.go.is_set():
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        loop = asyncio.get_running_loop()
        if self.bot is None:  # the tally rule
            n = self.view.get("n", 0)
            if self.view.get("turn") != self.seat or self.moved_for == n:
                return
            think = run.plan.think_ms / 1000
            delay = random.random() * think if self.first_move else think
            self.first_move = False
            action = {"type": "move", "cell": (n * 7 + self.seat) % 20}
            self.moved_for = n
            self.timer = loop.call_later(delay, self.send, action)
            return
        if not self.legal or self.view.get("outcome") is not None:
            return
        now_ms = self.anchor[0] + int((time.monotonic() - self.anchor[1]) * 1000)
        decision = self.bot.decide(self.view, self.legal, now_ms)
        if decision is not None:
            delay = max(0.0, (decision.at_ms - now_ms) / 1000)
            self.timer = loop.call_later(delay, self.send, decision.action)

    def send(self, action: dict[str, Any]) -> None:
        stats = self.run.stats
        if stats.stopped:
            return
        self.seq += 1
        self.in_flight = True
        self.sent[self.seq] = (time.monotonic(), stats.measuring)
        if stats.measuring:
            stats.sent_in_window += 1
        if action.get("type") == "grab":
            message = {
                "type": "grab",
                "client_seq": self.seq,
                "cell": action["cell"],
                "ref": self.drawn[0],
                "dt": int((time.monotonic() - self.drawn[1]) * 1000),
            }
        else:
            message = {"type": "action", "client_seq": self.seq, "action": action}
        with contextlib.suppress(wsclient.ConnectionClosed):  # counted by ``lost``
            self.ws.send_text(orjson.dumps(message).decode())


async def sleep_until(moment: float) -> None:
    """Sleep until ``time.monotonic()`` reaches ``moment`` (one clock for every process)."""
    await asyncio.sleep(max(0.0, moment - time.monotonic()))


class Run:
    """One process's share of the matches: opens them, plays them, reports its window."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.stats = Stats()
        self.go = asyncio.Event()
        self.seats: list[Seat] = []
        self.bots = (
            None if plan.game == "tally" else importlib.import_module(f"engines.{plan.game}.bots")
        )
        self.setup_s = 0.0

    async def open_match(self, index: int, http: httpx.AsyncClient) -> list[Seat]:
        ws_base = str(http.base_url).rstrip("/").replace("http://", "ws://")
        if self.plan.echo:
            seats = [Seat(self, f"{ws_base}/echo/{index}", None, s) for s in range(4)]
            for seat in seats:  # sequential: the relay numbers seats by arrival
                await seat.open()
                await seat.ready.wait()
            return seats
        match_id, tokens = await open_table(http, self.plan.game, f"m{index}")
        seats = [
            Seat(self, f"{self.plan.socket_base(index, s)}/ws/matches/{match_id}", token, s)
            for s, token in enumerate(tokens)
        ]
        for seat in seats:
            if self.bots is not None:
                seat.bot = self.bots.HeuristicBot(seat.seat, index * 4 + seat.seat + 1)
            await seat.open()
        await asyncio.gather(*(seat.ready.wait() for seat in seats))
        return seats

    async def setup(self) -> None:
        """Open this process's matches, ``SETUP_BATCH`` at a time; a match that fails to open
        counts as a ``connect`` error."""
        started = time.monotonic()
        indexes = self.plan.indexes()
        bases = sorted({self.plan.base_for(i) for i in indexes} or {self.plan.base})
        # Idle REST connections are dropped before uvicorn's 5 s keep-alive timeout: a request
        # sent on a connection the server is closing at that moment fails with ReadError('')
        # (two tables of a thousand did not open that way in PERF.md's scale-out runs).
        limits = httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY_S)
        clients = {
            base: httpx.AsyncClient(base_url=base, timeout=60, limits=limits) for base in bases
        }
        try:
            for first in range(0, len(indexes), SETUP_BATCH):
                batch = indexes[first : first + SETUP_BATCH]
                opening = (self.open_match(i, clients[self.plan.base_for(i)]) for i in batch)
                results = await asyncio.gather(*opening, return_exceptions=True)
                for result in results:
                    if isinstance(result, BaseException):
                        self.stats.errors["connect"] += 1
                        if self.stats.errors["connect"] <= SETUP_FAILURES_SHOWN:
                            print(f"loadgen: a match did not open: {result!r}", file=sys.stderr)
                    else:
                        self.seats.extend(result)
        finally:
            for http in clients.values():
                await http.aclose()
        self.setup_s = time.monotonic() - started

    async def play(self, go_at: float, window_start: float) -> dict[str, Any]:
        """Start playing at ``go_at``, measure from ``window_start`` for ``plan.seconds``, wait
        up to ``plan.grace_s`` for answers still due, then return this process's report."""
        plan, stats = self.plan, self.stats
        await sleep_until(go_at)
        self.go.set()
        for seat in self.seats:
            seat.schedule()
        end = window_start + plan.seconds
        traffic = opening = None
        if plan.open_rate > 0 and plan.worker == 0 and not plan.echo:
            traffic = LobbyTraffic(plan.base, plan.game, plan.open_rate, plan.worker)
            opening = asyncio.create_task(traffic.open_during(window_start, end))
        await sleep_until(window_start)
        me = os.getpid()
        cpu0, t0 = cpu_seconds(me), time.monotonic()
        stats.measuring = True
        lags: list[float] = []
        while (now := time.monotonic()) < end:
            tick = time.monotonic()
            await asyncio.sleep(min(1.0, end - now))
            lags.append(max(0.0, (time.monotonic() - tick - min(1.0, end - now)) * 1000))
        stats.measuring = False
        window = time.monotonic() - t0
        cpu1 = cpu_seconds(me)
        grace_end = time.monotonic() + plan.grace_s
        while time.monotonic() < grace_end and any(s.sent or s.by_version for s in self.seats):
            await asyncio.sleep(0.1)
        stats.stopped = True
        if opening is not None:
            await opening  # the last tables' replies, if any are still on their way
        stats.errors["unacked_at_end"] = sum(
            1 for s in self.seats for v in (*s.sent.values(), *s.by_version.values()) if v[1]
        )
        return {
            "worker": plan.worker,
            "setup_s": round(self.setup_s, 3),
            "clients": len(self.seats),
            "matches_active": len(self.seats) // 4,
            "latencies": [round(v, 3) for v in stats.latencies],
            "grab_latencies": [round(v, 3) for v in stats.grab_latencies],
            "acked": stats.acked_in_window,
            "sent": stats.sent_in_window,
            "errors": dict(stats.errors),
            "race_decisions": stats.race_decisions,
            "race_wins": stats.race_wins,
            "refusals": dict(stats.refusals),
            "finished": stats.finished,
            "bytes_received": stats.bytes_in_window,
            "patch_bytes_received": stats.patch_bytes_in_window,
            "cpu_s": round(cpu1 - cpu0, 3),
            "window_s": round(window, 3),
            "rss_mb": round(memory_mb(me), 1),
            "loop_lag_p99_ms": percentile(sorted(lags), 99),
            "rest": traffic.report() if traffic is not None else None,
        }

    async def close(self) -> None:
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
        await asyncio.gather(*(s.ws.close() for s in self.seats if s.ws), return_exceptions=True)
