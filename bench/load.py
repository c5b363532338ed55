"""Load generator: N concurrent 4-seat matches of bot clients over real websockets.

Mirrors the shared peer workload (../shared/peers/README.md): per match four guest accounts,
a table over REST, one websocket per seat; 5 s warm-up, a measured window, 10 s grace.
``--game tally`` is the peers' move rule (``cell = (n*7 + seat) % 20``, THINK ms per move);
any other game plays the engine's HeuristicBot on every seat over the wire (a finished match
is replaced by a new one). Latency is from an action sent to the mover's receipt of the patch
with that action's version. Prints one JSON line (the peers' field names) and a summary, plus
``--echo``: the same workload against a bare websocket relay on the same stack (uvicorn +
Starlette, no engine, no database) as the ceiling.

``--workload ambush`` plays real 4-seat Ambush! matches: every seat is the engine's
HeuristicBot at human pace (1-3 s per turn decision, grabs 200-600 ms after the call), grabs
sent as ``grab{ref, dt}`` against the last patch drawn. It reports the same figures (a grab's
latency runs to its ``grab_result``) plus race decisions per second and the refusal codes.

    .venv/bin/python bench/load.py --matches 100 --seconds 20 --think 500
    .venv/bin/python bench/load.py --workload ambush --matches 1000 --no-echo
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ----- /proc sampling ------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def memory_mb(pid: int, key: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def runqueue_wait_s(pid: int) -> float:
    """Seconds the process's threads spent runnable but waiting for a CPU (schedstat)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def machine_busy() -> tuple[int, int]:
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return 0.0
    rank = max(1, int(-(-p * len(sorted_values) // 100)))  # nearest rank
    return round(sorted_values[min(rank, len(sorted_values)) - 1], 2)


# ----- the servers under test ----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_rampart(port: int, database_url: str | None) -> tuple[subprocess.Popen[bytes], Path]:
    workdir = Path(tempfile.mkdtemp(prefix="rampart-load-"))
    env = {
        **os.environ,
        "RAMPART_BENCH_GAMES": "1",
        "DATABASE_URL": database_url or f"sqlite+aiosqlite:///{workdir}/rampart.db",
        # Bench clients never answer slowly enough to be cut off; floods are the point.
        "RAMPART_RATE_PER_S": "1000",
        "RAMPART_RATE_BURST": "1000",
    }
    log = open(workdir / "server.log", "wb")  # noqa: SIM115 - lives as long as the server
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return process, workdir


def start_echo(port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, __file__, "--serve-echo", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def serve_echo(port: int) -> None:
    """The ceiling: a websocket relay on the same stack, keeping only ``n`` and ``turn``."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, dict[str, Any]] = {}

    async def relay(ws: WebSocket) -> None:
        await ws.accept()
        room = rooms.setdefault(ws.path_params["room"], {"n": 0, "turn": 0, "sockets": []})
        seat = len(room["sockets"])
        room["sockets"].append(ws)
        await ws.send_text(
            json.dumps(
                {
                    "type": "welcome",
                    "seat": seat,
                    "version": 0,
                    "view": {"n": 0, "turn": 0},
                    "legal": [],
                }
            )
        )
        try:
            while True:
                message = json.loads(await ws.receive_text())
                if message.get("type") != "action":
                    continue
                room["n"] += 1
                room["turn"] = (room["turn"] + 1) % 4
                await ws.send_text(
                    json.dumps(
                        {"type": "ack", "client_seq": message["client_seq"], "version": room["n"]}
                    )
                )
                patch = json.dumps(
                    {
                        "type": "patch",
                        "version": room["n"],
                        "events": [],
                        "view": {"n": room["n"], "turn": room["turn"]},
                    }
                )
                for other in room["sockets"]:
                    await other.send_text(patch)
        except WebSocketDisconnect:
            pass

    async def ok(_request: Any) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    app = Starlette(routes=[Route("/api/health", ok), WebSocketRoute("/echo/{room}", relay)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)


# ----- the load --------------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
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


PING_PREFIX = '{"type":"ping","nonce":'


class Seat:
    """One websocket playing one seat."""

    def __init__(self, run: Run, url: str, token: str | None, seat_hint: int) -> None:
        self.run, self.url, self.token, self.seat = run, url, token, seat_hint
        self.ws: Any = None
        self.seq = 0
        self.sent: dict[int, tuple[float, bool]] = {}  # client_seq -> (sent at, in window)
        self.by_version: dict[int, tuple[float, bool]] = {}
        self.moved_for = -1
        self.in_flight = False
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.ready = asyncio.Event()
        self.bot: Any = None
        self.timer: asyncio.TimerHandle | None = None
        self.anchor = (0, time.monotonic())
        self.first_move = True
        self.drawn = (0, time.monotonic())  # (version, when) of the last state drawn: a grab's ref
        self.over = False

    async def open(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=None, compression=None)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token, "last_version": 0}))
        asyncio.get_running_loop().create_task(self.read())

    async def read(self) -> None:
        stats = self.run.stats
        try:
            async for raw in self.ws:
                if raw.startswith(PING_PREFIX):
                    # Most messages of an Ambush! load are pings (every 250 ms per socket):
                    # answer them without a JSON round trip, to keep the load generator cheap.
                    await self.ws.send(f'{{"type":"pong","nonce":{raw[len(PING_PREFIX) : -1]}}}')
                    continue
                message = orjson.loads(raw)
                kind = message["type"]
                if kind == "ping":
                    await self.ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
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
        except websockets.ConnectionClosed:
            if not stats.stopped:
                stats.errors["disconnect"] += 1
        except Exception:
            stats.errors["error"] += 1

    def on_state(self, message: dict[str, Any]) -> None:
        self.view, self.legal = message["view"], message.get("legal", [])
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
            think = run.think_ms / 1000
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
        task = asyncio.get_running_loop().create_task(self.ws.send(orjson.dumps(message).decode()))
        self.run.pending.add(task)
        task.add_done_callback(self.run.pending.discard)


class Run:
    def __init__(self, args: argparse.Namespace, base: str, echo: bool) -> None:
        self.args, self.base, self.echo = args, base, echo
        self.think_ms = args.think
        self.stats = Stats()
        self.go = asyncio.Event()
        self.seats: list[Seat] = []
        self.pending: set[asyncio.Task[None]] = set()
        self.bots = (
            None if args.game == "tally" else importlib.import_module(f"engines.{args.game}.bots")
        )
        self.workload = "tally" if args.game == "tally" else args.game

    async def open_match(self, index: int, http: httpx.AsyncClient) -> list[Seat]:
        ws_base = self.base.replace("http://", "ws://")
        if self.echo:
            seats = [Seat(self, f"{ws_base}/echo/{index}", None, s) for s in range(4)]
            for seat in seats:  # sequential: the relay numbers seats by arrival
                await seat.open()
                await seat.ready.wait()
            return seats
        tokens = []
        for s in range(4):
            reply = await http.post("/api/accounts", json={"name": f"m{index}s{s}"})
            tokens.append(reply.json()["token"])
        auth = [{"authorization": f"Bearer {t}"} for t in tokens]
        body = {"game": self.args.game, "seats": 4, "options": {}}
        lobby = (await http.post("/api/lobbies", json=body, headers=auth[0])).json()
        for s in range(1, 4):
            await http.post(f"/api/lobbies/{lobby['id']}/join", json={}, headers=auth[s])
        started = await http.post(f"/api/lobbies/{lobby['id']}/start", json={}, headers=auth[0])
        match_id = started.json()["match_id"]
        seats = [Seat(self, f"{ws_base}/ws/matches/{match_id}", t, s) for s, t in enumerate(tokens)]
        for seat in seats:
            if self.bots is not None:
                seat.bot = self.bots.HeuristicBot(seat.seat, index * 4 + seat.seat + 1)
            await seat.open()
        await asyncio.gather(*(seat.ready.wait() for seat in seats))
        return seats

    async def setup(self) -> float:
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=self.base, timeout=60) as http:
            for first in range(0, self.args.matches, 25):
                batch = range(first, min(first + 25, self.args.matches))
                results = await asyncio.gather(
                    *(self.open_match(i, http) for i in batch), return_exceptions=True
                )
                for result in results:
                    if isinstance(result, BaseException):
                        self.stats.errors["connect"] += 1
                    else:
                        self.seats.extend(result)
        return time.monotonic() - started

    async def measure(self, server_pid: int) -> dict[str, Any]:
        args = self.args
        setup_s = await self.setup()
        self.go.set()
        for seat in self.seats:
            seat.schedule()
        await asyncio.sleep(args.warmup)
        me = os.getpid()
        cpu0, me0, busy0, t0 = (
            cpu_seconds(server_pid),
            cpu_seconds(me),
            machine_busy(),
            time.monotonic(),
        )
        rss_max = memory_mb(server_pid)
        waited0 = runqueue_wait_s(server_pid)
        self.stats.measuring = True
        lags: list[float] = []
        end = t0 + args.seconds
        while (now := time.monotonic()) < end:
            tick = time.monotonic()
            await asyncio.sleep(min(1.0, end - now))
            lags.append(max(0.0, (time.monotonic() - tick - min(1.0, end - now)) * 1000))
            rss_max = max(rss_max, memory_mb(server_pid))
        self.stats.measuring = False
        window = time.monotonic() - t0
        cpu1, me1, busy1 = cpu_seconds(server_pid), cpu_seconds(me), machine_busy()
        rss_end = memory_mb(server_pid)
        waited = runqueue_wait_s(server_pid) - waited0
        grace_end = time.monotonic() + args.grace
        while time.monotonic() < grace_end and any(s.sent or s.by_version for s in self.seats):
            await asyncio.sleep(0.1)
        self.stats.stopped = True
        self.stats.errors["unacked_at_end"] = sum(
            1 for s in self.seats for v in (*s.sent.values(), *s.by_version.values()) if v[1]
        )
        lat = sorted(self.stats.latencies)
        moves = self.stats.acked_in_window
        ok_matches = len(self.seats) // 4
        return {
            "peer": "rampart-echo" if self.echo else "rampart",
            "peer_version": "bare websocket relay (uvicorn + starlette)"
            if self.echo
            else f"rampart 0.1.0, game {args.game}, engine + SQL write per action",
            "transport": "websocket (JSON)",
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "python": sys.version.split()[0],
            "cpus": os.cpu_count(),
            "matches": args.matches,
            "matches_active": ok_matches,
            "clients": len(self.seats),
            "think_ms": args.think,
            "warmup_s": args.warmup,
            "duration_s": round(window, 2),
            "setup_s": round(setup_s, 2),
            "load_procs": 1,
            "moves_sent": self.stats.sent_in_window,
            "moves_per_s": round(moves / window, 1),
            "state_msgs_per_s": round(4 * moves / window, 1),
            "latency_ms": {
                "p50": percentile(lat, 50),
                "p95": percentile(lat, 95),
                "p99": percentile(lat, 99),
                "max": round(lat[-1], 2) if lat else 0.0,
                "mean": round(sum(lat) / len(lat), 2) if lat else 0.0,
            },
            "server": {
                "cpu_pct": round(100 * (cpu1 - cpu0) / window, 1),
                "cpu_us_per_move": round(1e6 * (cpu1 - cpu0) / moves, 1) if moves else None,
                "rss_mb_end": round(rss_end, 1),
                "rss_mb_max_window": round(rss_max, 1),
                "rss_mb_peak": round(memory_mb(server_pid, "VmHWM"), 1),
                # Time runnable but not running: on a shared machine, latency that is not ours.
                "runqueue_wait_pct": round(100 * waited / window, 1),
            },
            "loadgen": {
                "cpu_pct": round(100 * (me1 - me0) / window, 1),
                "rss_mb": round(memory_mb(me), 1),
                "loop_lag_p99_ms": percentile(sorted(lags), 99),
            },
            "machine_cpu_busy_pct": round(
                100 * (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]), 1
            ),
            "errors": self.stats.errors,
            **(
                {}
                if self.bots is None
                else {
                    "workload": self.workload,
                    "race_decisions_per_s": round(self.stats.race_decisions / window, 1),
                    "race_wins_per_s": round(self.stats.race_wins / window, 1),
                    "refusals": self.stats.refusals,
                    "matches_finished": self.stats.finished,
                }
            ),
            "ok": ok_matches == args.matches
            and moves > 0
            and not self.stats.errors["disconnect"]
            and not self.stats.errors["unacked_at_end"],
        }


async def wait_up(base: str, process: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=1) as http:
        for _ in range(300):
            if process.poll() is not None:
                raise SystemExit(f"server exited with {process.returncode}")
            try:
                if (await http.get("/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("server did not come up")


async def run_one(args: argparse.Namespace, echo: bool) -> dict[str, Any]:
    port = free_port()
    if echo:
        process = start_echo(port)
    else:
        process, _ = start_rampart(port, args.database_url)
    base = f"http://127.0.0.1:{port}"
    try:
        await wait_up(base, process)
        run = Run(args, base, echo)
        result = await run.measure(process.pid)
        for seat in run.seats:
            if seat.timer is not None:
                seat.timer.cancel()
        await asyncio.gather(*(s.ws.close() for s in run.seats if s.ws), return_exceptions=True)
        return result
    finally:
        process.terminate()
        process.wait(10)


def summary(result: dict[str, Any]) -> str:
    lat, server = result["latency_ms"], result["server"]
    races = ""
    if "race_decisions_per_s" in result:
        races = f"race decisions {result['race_decisions_per_s']}/s, "
    return (
        f"{result['peer']:>13} M={result['matches']:<4} think={result['think_ms']}ms: {races}"
        f"{result['moves_per_s']} actions/s, p50 {lat['p50']} ms, p99 {lat['p99']} ms, "
        f"server CPU {server['cpu_pct']}% ({server['cpu_us_per_move']} us/action), "
        f"RSS {server['rss_mb_end']} MB, waiting for a CPU {server['runqueue_wait_pct']}%, "
        f"loadgen CPU {result['loadgen']['cpu_pct']}%, machine {result['machine_cpu_busy_pct']}%, "
        f"errors {sum(result['errors'].values())}, ok={result['ok']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--grace", type=float, default=10.0)
    parser.add_argument("--think", type=int, default=500, help="tally: ms before each move")
    parser.add_argument("--game", default="tally")
    parser.add_argument(
        "--workload",
        choices=("tally", "ambush"),
        default=None,
        help="tally: the peers' move rule; ambush: HeuristicBot Ambush! matches (= --game ambush)",
    )
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--no-echo", action="store_true", help="skip the echo ceiling")
    parser.add_argument("--serve-echo", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_echo:
        serve_echo(args.port)
        return
    if args.workload is not None:
        args.game = args.workload
    results = [asyncio.run(run_one(args, echo=False))]
    if not args.no_echo and args.game == "tally":
        results.append(asyncio.run(run_one(args, echo=True)))
    for result in results:
        print(json.dumps(result))
    for result in results:
        print(summary(result), file=sys.stderr)


if __name__ == "__main__":
    main()
