"""Soak: bot matches at moderate load for ``--minutes`` against a real server; is it flat?

``--matches`` tables play at once, each to its end and then replaced by a new one (guest
accounts, a lobby, joins, server bots, start, sockets, moves, the result, sockets closed): the
whole life of a match, over and over, so what leaks per match shows. Each table is a tally
match of four seats to ``--target`` points: ``--server-bots`` seats played by the server's own
bots, the others by clients over websockets (the load generator's ``Seat``, moving ``--think``
ms after its turn comes, and every ``--pause-every``-th move after ``--pause-ms``: a player
thinking, a quiet socket the server must keep). Every ``--sample-s`` seconds the server's
RSS (``/proc/PID/status``) and open file handles (``/proc/PID/fd``) are sampled.

Prints one JSON line and a summary: start, end and max of each, the verdict (``flat`` when
even the lowest sample of the last quarter is within the slack of the highest of the first
quarter; ``growing`` otherwise), the matches finished, the moves acknowledged, and the errors:
client-side (a failed table, a dropped socket, a refusal, an unreadable message, a match that
did not end in ``--match-timeout-s``, an answer over 5 s) plus the server log's tracebacks and
ERROR lines. Exits 1 unless both are flat and there are no errors. ``--floods`` adds a round
of floods from another address every 10 s (``bench/floods.py``: accounts, public tables,
anonymous reads, lobby sockets that never say hello, stalled request heads), whose sockets
and connections must all be closed by the server.

    .venv/bin/python bench/soak.py                 # 30 minutes
    .venv/bin/python bench/soak.py --minutes 1 --matches 6 --sample-s 2
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
import contextlib
import json
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx

# The repository instead of this script's folder: a module here must not shadow the standard
# library's of the same name.
HERE = str(Path(__file__).resolve().parent)
sys.path[:] = [p for p in sys.path if p and str(Path(p).resolve()) != HERE]

from app.realtime.peer import DEAD_LINK_MS  # noqa: E402
from bench.floods import FloodSize, flood, flood_env  # noqa: E402
from bench.loadgen.client import Plan, Run, Seat  # noqa: E402
from bench.loadgen.lobbies import checked  # noqa: E402
from bench.loadgen.probes import free_port, memory_mb, percentile  # noqa: E402
from bench.loadgen.servers import rampart_running, wait_up  # noqa: E402

SEATS = 4
FLOOD_ADDRESS = "192.0.2.77"
# A round of floods: the soak's server lifts the limits per address (its own clients share
# 127.0.0.1), so these are not refused but must leave nothing open behind them.
SOAK_FLOODS = FloodSize(
    accounts=20, tables=12, reads=20, silent_sockets=20, slowloris=10, expect_refusals=False
)
FD_SLACK = 8  # sockets opening and closing between two samples
RSS_SLACK_MB = 16.0
RSS_SLACK_SHARE = 0.05


@dataclass(frozen=True)
class SoakPlan:
    minutes: float = 30.0
    matches: int = 16
    think_ms: int = 250
    target: int = 8
    server_bots: int = 2
    sample_s: float = 10.0
    clock_rate: float = 4.0
    match_timeout_s: float = 120.0
    pause_every: int = 5  # every n-th move of a client seat comes after a long pause
    pause_ms: int = int(DEAD_LINK_MS) + 1000  # past the server's dead-link time
    database_url: str | None = None
    # Floods of cheap requests from another address (``bench/floods.py``), one round every
    # ``flood_every_s``: what they open (silent sockets, stalled connections) must not stay.
    floods: FloodSize | None = None
    flood_every_s: float = 10.0


@dataclass
class Sample:
    at_s: float
    rss_mb: float
    fds: int


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def trend(values: list[float], slack: float) -> str:
    """``flat`` unless the lowest value of the last quarter exceeds the highest of the first
    quarter by more than ``slack`` (values that swing with the load stay ``flat``)."""
    if len(values) < 4:
        return "too short"
    quarter = max(1, len(values) // 4)
    head, tail = values[:quarter], values[-quarter:]
    return "growing" if min(tail) > max(head) + slack else "flat"


class SoakSeat(Seat):
    """A load-generator seat playing the tally rule (``Seat``) to the end of its match, with a
    long pause now and then (a player thinking: longer than the server's dead-link time, so a
    quiet socket must stay open); its own close at the end is not a dropped socket."""

    closing = False

    def __init__(self, run: Run, url: str, token: str, hint: int, plan: SoakPlan) -> None:
        super().__init__(run, url, token, hint)
        self.pause_every, self.pause_s = plan.pause_every, plan.pause_ms / 1000
        self.moves = 0

    def lost(self, code: int) -> None:
        if not self.closing:
            super().lost(code)

    def schedule(self) -> None:
        run = self.run
        if self.over or run.stats.stopped or self.in_flight or not run.go.is_set():
            return
        n = self.view.get("n", 0)
        if self.moved_for == n:
            # Planned already: a second message at the same position (the patch a resumed
            # hello replays after its welcome) must not cancel the move for good.
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.view.get("turn") != self.seat:
            return
        self.moves += 1
        delay = run.plan.think_ms / 1000
        if self.pause_every and self.moves % self.pause_every == 0:
            delay = self.pause_s
        self.moved_for = n
        action = {"type": "move", "cell": (n * 7 + (self.seat or 0)) % 20}
        self.timer = asyncio.get_running_loop().call_later(delay, self.send, action)


@dataclass
class Soak:
    plan: SoakPlan
    base: str
    pid: int
    samples: list[Sample] = field(default_factory=list)
    finished: int = 0
    stuck: int = 0
    table_failures: list[str] = field(default_factory=list)
    floods: int = 0
    flood_problems: list[str] = field(default_factory=list)
    flood_closes: Counter[str] = field(default_factory=Counter)
    flood_heads_closed: int = 0

    started: float = 0.0

    def __post_init__(self) -> None:
        seconds = self.plan.minutes * 60
        load = Plan(self.base, False, "tally", self.plan.matches, self.plan.think_ms, 0, seconds, 0)
        self.run = Run(load)
        self.run.stats.measuring = True  # every answer's latency, the whole run
        self.end = 0.0

    async def play(self) -> None:
        self.started = time.monotonic()
        self.end = self.started + self.plan.minutes * 60
        self.run.go.set()
        sampler = asyncio.create_task(self.sample())
        await asyncio.gather(self.flooding(), *(self.slot(k) for k in range(self.plan.matches)))
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
        self.run.stats.stopped = True

    async def flooding(self) -> None:
        """A round of floods every ``flood_every_s`` until the time is up."""
        if self.plan.floods is None:
            return
        while time.monotonic() < self.end:
            round_ = await flood(self.base, FLOOD_ADDRESS, self.plan.floods, f"fl{self.floods}")
            self.floods += 1
            self.flood_problems += round_.problems
            self.flood_closes.update(round_.socket_closes)
            self.flood_heads_closed += len(round_.slowloris_closed_s)
            await asyncio.sleep(max(0.0, min(self.plan.flood_every_s, self.end - time.monotonic())))

    async def sample(self) -> None:
        while True:
            self.take_sample()
            await asyncio.sleep(self.plan.sample_s)

    def take_sample(self) -> None:
        at = round(time.monotonic() - self.started, 1)
        self.samples.append(Sample(at, round(memory_mb(self.pid), 1), open_files(self.pid)))

    async def slot(self, k: int) -> None:
        """One table after another until the time is up (a match under way is finished)."""
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as http:
            number = 0
            while time.monotonic() < self.end:
                number += 1
                try:
                    seats = await self.open_match(http, f"k{k}n{number}")
                except Exception as failure:
                    self.run.stats.errors["connect"] += 1
                    self.table_failures.append(repr(failure)[:300])
                    await asyncio.sleep(1)
                    continue
                if await self.until_over(seats):
                    self.finished += 1
                else:
                    self.stuck += 1
                    views = [(s.seat, s.view.get("n"), s.view.get("turn"), s.over) for s in seats]
                    self.table_failures.append(f"did not end: {seats[0].url} {views}")
                for seat in seats:
                    seat.closing = True
                    if seat.timer is not None:
                        seat.timer.cancel()
                await asyncio.gather(*(s.ws.close() for s in seats), return_exceptions=True)

    async def open_match(self, http: httpx.AsyncClient, names: str) -> list[SoakSeat]:
        """A table of ``SEATS - server_bots`` new guests and the server's bots, started; the
        guests' sockets said hello and were welcomed."""

        async def post(path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
            return checked(await http.post(path, json=body, headers={"authorization": token}))

        humans = SEATS - self.plan.server_bots
        tokens = [
            "Bearer "
            + checked(await http.post("/api/accounts", json={"name": f"{names}s{s}"}))["token"]
            for s in range(humans)
        ]
        options = {"target": self.plan.target, "secrets": True}
        lobby = await post(
            "/api/lobbies", {"game": "tally", "seats": SEATS, "options": options}, tokens[0]
        )
        for token in tokens[1:]:
            await post(f"/api/lobbies/{lobby['id']}/join", {}, token)
        if self.plan.server_bots:
            bots = {"kind": "random", "count": self.plan.server_bots}
            await post(f"/api/lobbies/{lobby['id']}/bots", bots, tokens[0])
        match_id = (await post(f"/api/lobbies/{lobby['id']}/start", {}, tokens[0]))["match_id"]
        url = f"{self.base.replace('http://', 'ws://')}/ws/matches/{match_id}"
        seats = [
            SoakSeat(self.run, url, token.removeprefix("Bearer "), s, self.plan)
            for s, token in enumerate(tokens)
        ]
        for seat in seats:
            await seat.open()
        await asyncio.wait_for(asyncio.gather(*(seat.ready.wait() for seat in seats)), 30)
        return seats

    async def until_over(self, seats: list[SoakSeat]) -> bool:
        deadline = time.monotonic() + self.plan.match_timeout_s
        while not all(seat.over for seat in seats):
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)
        # Every move sent was answered (the last one's patch says the match is over).
        await asyncio.sleep(0.2)
        return True

    def report(self, server_log: str) -> dict[str, Any]:
        stats = self.run.stats
        errors = dict(stats.errors)
        errors["stuck_matches"] = self.stuck
        errors["unanswered"] = sum(len(s.sent) + len(s.by_version) for s in self.run.seats)
        lines = server_log.splitlines()
        errors["server_tracebacks"] = sum("Traceback" in line for line in lines)
        errors["server_error_lines"] = sum(line.startswith("ERROR") for line in lines)
        errors["flood_problems"] = len(self.flood_problems)
        rss = [s.rss_mb for s in self.samples]
        fds = [float(s.fds) for s in self.samples]
        latencies = sorted(stats.latencies)
        rss_slack = max(RSS_SLACK_MB, RSS_SLACK_SHARE * (rss[0] if rss else 0.0))
        return {
            "plan": asdict(self.plan),
            "duration_s": self.samples[-1].at_s if self.samples else 0.0,
            "matches_finished": self.finished,
            "moves_acked": len(latencies),
            "latency_ms": {
                "p50": percentile(latencies, 50),
                "p99": percentile(latencies, 99),
                "max": round(latencies[-1], 1) if latencies else 0.0,
            },
            "rss_mb": {"start": rss[0], "end": rss[-1], "max": max(rss)},
            "fds": {"start": int(fds[0]), "end": int(fds[-1]), "max": int(max(fds))},
            "rss_verdict": trend(rss, rss_slack),
            "fds_verdict": trend(fds, FD_SLACK),
            "errors": errors,
            "error_count": sum(errors.values()),
            "refusals": dict(stats.refusals),
            "first_table_failures": self.table_failures[:3],
            "floods": {
                "rounds": self.floods,
                "silent_sockets_closed": dict(self.flood_closes),
                "stalled_heads_closed": self.flood_heads_closed,
                "first_problems": self.flood_problems[:3],
            },
            "samples": [[s.at_s, s.rss_mb, s.fds] for s in self.samples],
        }


def server_log_of(pid: int) -> Path | None:
    """The file the server writes its log to (its stdout), read through ``/proc``."""
    with contextlib.suppress(OSError):
        target = Path(os.readlink(f"/proc/{pid}/fd/1"))
        if target.is_file():
            return target
    return None


async def soak(plan: SoakPlan) -> dict[str, Any]:
    """Run the soak against a fresh server (``python -m app``); its report."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"RAMPART_CLOCK_RATE": str(plan.clock_rate)}
    if plan.floods is not None:  # silent sockets and stalled heads closed after 2 s
        env.update(flood_env())
    with rampart_running(port, plan.database_url, env) as process:
        await wait_up(base, process)
        log_path = server_log_of(process.pid)
        run = Soak(plan, base, process.pid)
        await run.play()
        await asyncio.sleep(0.5)  # the last closes reach the server
        run.take_sample()  # after every table's sockets closed
        log_text = log_path.read_text(errors="replace") if log_path is not None else ""
        result = run.report(log_text)
        result["server_alive"] = process.poll() is None
    return result


def summary(result: dict[str, Any]) -> str:
    rss, fds = result["rss_mb"], result["fds"]
    return (
        f"soak {result['duration_s']:.0f} s, {result['plan']['matches']} tables at once: "
        f"{result['matches_finished']} matches finished, {result['moves_acked']} moves acked "
        f"(p50 {result['latency_ms']['p50']} ms, p99 {result['latency_ms']['p99']} ms)\n"
        f"  RSS MB start {rss['start']} end {rss['end']} max {rss['max']}: "
        f"{result['rss_verdict']}\n"
        f"  open files start {fds['start']} end {fds['end']} max {fds['max']}: "
        f"{result['fds_verdict']}\n"
        f"  errors {result['error_count']}: {result['errors']}"
    )


def ok(result: dict[str, Any]) -> bool:
    flat = result["rss_verdict"] == "flat" and result["fds_verdict"] == "flat"
    return bool(flat and result["error_count"] == 0 and result["server_alive"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    defaults = SoakPlan()
    parser.add_argument("--minutes", type=float, default=defaults.minutes)
    parser.add_argument("--matches", type=int, default=defaults.matches, help="tables at once")
    parser.add_argument("--think", type=int, default=defaults.think_ms, help="ms before a move")
    parser.add_argument("--target", type=int, default=defaults.target, help="points to win")
    parser.add_argument(
        "--server-bots", type=int, default=defaults.server_bots, choices=(0, 1, 2, 3)
    )
    parser.add_argument("--sample-s", type=float, default=defaults.sample_s)
    parser.add_argument("--clock-rate", type=float, default=defaults.clock_rate)
    parser.add_argument("--match-timeout-s", type=float, default=defaults.match_timeout_s)
    parser.add_argument(
        "--pause-every", type=int, default=defaults.pause_every, help="0: never pause"
    )
    parser.add_argument("--pause-ms", type=int, default=defaults.pause_ms)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument(
        "--floods", action="store_true", help="floods from another address every 10 s"
    )
    args = parser.parse_args()
    plan = SoakPlan(
        minutes=args.minutes,
        matches=args.matches,
        think_ms=args.think,
        target=args.target,
        server_bots=args.server_bots,
        sample_s=args.sample_s,
        clock_rate=args.clock_rate,
        match_timeout_s=args.match_timeout_s,
        pause_every=args.pause_every,
        pause_ms=args.pause_ms,
        database_url=args.database_url,
        floods=SOAK_FLOODS if args.floods else None,
    )
    result = asyncio.run(soak(plan))
    print(json.dumps(result))
    print(summary(result), file=sys.stderr)
    sys.exit(0 if ok(result) else 1)


if __name__ == "__main__":
    main()
