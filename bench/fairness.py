"""Fairness harness for Ambush! grab races: bots with known reaction times behind delaying
proxies play real races against a real server; figures for the arbiter and first arrival.

    .venv/bin/python -m bench.fairness --quick [--json PATH] [--url http://127.0.0.1:8000]

Every table is a real Ambush! match over websockets. Each bot sits behind its own
``bench.delay_proxy`` link (latencies are round trips, as a ping shows them: half each way,
plus per-direction jitter). When Ambush! is called every bot grabs the same first cell after a
reaction time the harness draws for that call (the gap between the two fastest is stratified
so every bucket fills), and reports ``dt`` measured from the moment it read the call; the
cheater subtracts ``lie_ms``. After the match the REST event export gives every decision with
its inputs (arrival, V, clamp); the first-arrival baseline re-decides the same claims by
arrival. Without ``--url`` a server is started on a temporary SQLite database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import websockets

from bench.delay_proxy import DelayProxy, Direction, Link

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.app.support import Api, Server  # noqa: E402  (the repository's server helpers)

BUCKETS = (("25+", 25.0, 1e9), ("10-25", 10.0, 25.0), ("0-10", 0.0, 10.0))
# Clamps that moved an honest grab's V (the arbiter's own suspicion count is narrower).
SUSPECT = {"rtt_cap", "probation_cap", "min_reaction", "no_ref", "late"}
UNJUDGED = {"ambush/before_call", "ambush/race_over", "ambush/no_race"}
# Idle end well past the slowest reaction plus the longest link, so no race ends before
# its grabs are in; losers grab the second card at once, so races end on an empty grid.
OPTIONS = {"hand_size": 6, "hand_limit": 52, "castle_hp": 999, "ambush_idle_ms": 1500}
WARM_UP_S = 2.5  # let every link collect ping samples before the first call


@dataclass(frozen=True)
class Player:
    klass: str
    rtt_ms: float
    jitter_ms: float = 0.0  # extra U(0, jitter) on each direction
    lie_ms: float = 0.0  # a cheater reports dt this much shorter than it measured

    def link(self) -> Link:
        one_way = Direction(self.rtt_ms / 2, self.jitter_ms)
        return Link(down=one_way, up=one_way)


SCENARIOS: dict[str, list[Player]] = {
    "same_region": [Player("rtt10", 10), Player("rtt20", 20), Player("rtt30", 30),
                    Player("rtt40", 40)],
    "mixed": [Player("rtt20", 20), Player("rtt20", 20), Player("rtt250", 250),
              Player("rtt250", 250)],
    "jitter": [Player("rtt40_j10", 40, 10), Player("rtt100_j30", 100, 30),
               Player("rtt200_j30", 200, 30)],
    "cheater": [Player("rtt40", 40), Player("rtt40", 40), Player("rtt40_liar", 40, 0, 100)],
}  # fmt: skip


@dataclass
class Grab:
    seat: int
    client_seq: int
    call_version: int
    primary: bool
    cell: Any
    reaction_ms: float  # measured: from reading the call to sending the grab
    won: bool | None = None


@dataclass
class Table:
    """One match: its bots, the reactions drawn per call, what the bots did."""

    scenario: str
    players: list[Player]
    seed: int
    stop_at: float
    match_id: int = 0
    rng: random.Random = field(init=False)
    reactions: dict[int, list[float]] = field(default_factory=dict)
    grabs: list[Grab] = field(default_factory=list)
    calls: int = 0
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def reactions_for(self, call_version: int) -> list[float]:
        """The reaction of each seat to this call: the fastest U(200, 400) ms, the second
        0-10, 10-25 or 25-80 ms after it (in turn), the rest up to 150 ms later still."""
        if call_version not in self.reactions:
            low, high = ((0, 10), (10, 25), (25, 80))[len(self.reactions) % 3]
            fastest = self.rng.uniform(200, 400)
            second = fastest + self.rng.uniform(low, high)
            times = [fastest, second] + [
                second + self.rng.uniform(0, 150) for _ in self.players[2:]
            ]
            self.rng.shuffle(times)
            self.reactions[call_version] = times
        return self.reactions[call_version]


class Bot:
    """One player over the wire; honest unless its ``lie_ms`` says otherwise."""

    def __init__(self, table: Table, seat: int, url: str, token: str) -> None:
        self.table, self.seat, self.url, self.token = table, seat, url, token
        self.player = table.players[seat]
        self.drawn: dict[int, float] = {}
        self.version = 0
        self.seq = 0
        self.acted_at_version = -1
        self.ws: Any = None
        self.view: dict[str, Any] = {}
        self.race: int | None = None  # the version of the call of the race under way
        self.done = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.monotonic() * 1000

    async def run(self) -> None:
        async with websockets.connect(self.url, max_size=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            async for raw in ws:
                read_at = self.now()
                message = json.loads(raw)
                kind = message["type"]
                if kind == "ping":
                    await ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
                elif kind in ("welcome", "patch"):
                    await self._on_state(message, read_at)
                elif kind == "grab_result":
                    await self._on_result(message)
                if self.done.is_set():
                    return

    async def _on_state(self, message: dict[str, Any], read_at: float) -> None:
        self.version = message["version"]
        self.drawn[self.version] = read_at
        view, legal = message["view"], message["legal"]
        self.view = view
        if view.get("outcome") is not None:
            self.done.set()
            return
        for event in message.get("events", []):
            if event["type"] == "race_ended":
                self.race = None
            if event["type"] == "ambush_called" and view.get("battlefield"):
                self.race = self.version
                cell = view["battlefield"][0]["cell"]
                delay = self.table.reactions_for(self.version)[self.seat]
                self._spawn(self._grab_after(self.version, cell, read_at + delay))
        await self._act(view, legal)

    async def _act(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        if self.acted_at_version == self.version or view.get("turn") != self.seat:
            return
        warm_at = self.table.started + WARM_UP_S
        if time.monotonic() < warm_at:
            # Nobody plays until every link has ping samples: then act on the latest state.
            self._spawn(self._act_later(warm_at, self.version, view, legal))
            return
        action = self._turn_action(view, legal)
        if action is not None:
            self.acted_at_version = self.version
            await self._send({"type": "action", "client_seq": self._next_seq(), "action": action})

    async def _act_later(
        self, at: float, version: int, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()) + 0.01)
        if self.version == version:
            await self._act(view, legal)

    def _turn_action(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
        """Call when two cards are down (the turn seat calls, so one call per turn), else
        expose, play a card, place; nothing after ``stop_at``."""
        phase, step = view.get("phase"), view.get("step")
        kinds = {a["type"]: a for a in reversed(legal)}
        if time.monotonic() >= self.table.stop_at:
            return None
        if phase == "turn" and len(view["battlefield"]) >= 2 and "call_ambush" in kinds:
            self.table.calls += 1
            return kinds["call_ambush"]
        if phase == "turn" and step == "expose":
            return next((a for a in legal if a["type"] == "expose"), None)
        if phase == "turn" and step == "play":
            # Hit the healthiest castle: damage spread evenly keeps every seat (every latency
            # class) in the match however long the run.
            hp = {c["seat"]: c["hp"] for c in view.get("castles", [])}
            plays = [a for a in legal if a["type"] == "play"]
            plays.sort(
                key=lambda a: -hp.get(a.get("target"), 10**6) if a.get("target") is not None else 0
            )
            return plays[0] if plays else kinds.get("pass")
        if phase in ("placing", "returning"):
            return next((a for a in legal if a["type"] in ("place", "return")), None)
        return None

    async def _grab_after(self, call_version: int, cell: Any, at: float) -> None:
        await asyncio.sleep(max(0.0, at - self.now()) / 1000)
        await self._grab(call_version, cell, primary=True)

    async def _grab(self, call_version: int, cell: Any, *, primary: bool) -> None:
        if cell is None or self.race != call_version:
            return  # that race is over (a late second grab must not land in the next one)
        ref = self.version
        sent_at = self.now()
        dt = sent_at - self.drawn[ref]
        seq = self._next_seq()
        self.table.grabs.append(
            Grab(self.seat, seq, call_version, primary, cell, sent_at - self.drawn[call_version])
        )
        reported = max(0.0, dt - self.player.lie_ms)
        grab = {"type": "grab", "client_seq": seq, "cell": cell, "ref": ref, "dt": reported}
        await self._send(grab)

    async def _on_result(self, message: dict[str, Any]) -> None:
        for grab in self.table.grabs:
            if grab.seat == self.seat and grab.client_seq == message["client_seq"]:
                grab.won = bool(message["won"])
                # A loser takes another card at once, so the race ends on an empty grid.
                if grab.primary and not grab.won:
                    cells = [c["cell"] for c in self.view.get("battlefield", [])]
                    other = next((c for c in cells if c != grab.cell), None)
                    self._spawn(self._grab(grab.call_version, other, primary=False))

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    async def _send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps(message))

    async def resign(self) -> None:
        await self._send(
            {"type": "action", "client_seq": self._next_seq(), "action": {"type": "resign"}}
        )


# ----- running tables ---------------------------------------------------------------------


async def play_table(api: Api, port: int, table: Table, end_delay: float) -> None:
    """Play one match until ``table.stop_at``, then end it (``end_delay`` later, so the
    tables do not all write their results at once)."""
    tokens = [
        await api.guest(f"{table.scenario[:6]}{table.seed}-{k}") for k in range(len(table.players))
    ]
    table.match_id = await api.table("ambush", tokens, options=OPTIONS)
    proxies = [
        await DelayProxy(("127.0.0.1", port), p.link(), seed=table.seed * 16 + k).start()
        for k, p in enumerate(table.players)
    ]
    path = f"/ws/matches/{table.match_id}"
    bots = [
        Bot(table, k, f"ws://127.0.0.1:{proxy.port}{path}", token)
        for k, (proxy, token) in enumerate(zip(proxies, tokens, strict=True))
    ]
    table.started = time.monotonic()
    runs = [asyncio.create_task(_logged(bot.run(), f"{table.scenario} seat {k}"))
            for k, bot in enumerate(bots)]  # fmt: skip
    try:
        await asyncio.sleep(max(0.0, table.stop_at - time.monotonic()))
        # Let the last race settle, then everyone but seat 0 resigns: the match ends.
        for _ in range(40):
            await asyncio.sleep(0.25)
            if bots[0].view.get("phase") != "ambush" and not any(b.tasks for b in bots):
                break
        await asyncio.sleep(1.0 + end_delay)
        for bot in bots[1:]:
            await bot.resign()
            await asyncio.sleep(0.05)
        try:
            await asyncio.wait_for(bots[0].done.wait(), 20)
        except TimeoutError:
            print(f"{table.scenario} match {table.match_id} did not end", file=sys.stderr)
    finally:
        for run in runs:
            run.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        for proxy in proxies:
            await proxy.close()


async def collect(api: Api, table: Table) -> dict[str, Any]:
    """The match's complete event export and its record (once every table has ended: an
    export read while other matches write would only slow them down)."""
    events = await api.get(f"/api/matches/{table.match_id}/events")
    record = (await api.get(f"/api/matches/{table.match_id}")).json()
    return {"log": [json.loads(line) for line in events.text.splitlines()], "match": record}


async def _logged(work: Any, name: str) -> None:
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a bench bot that dies says why, the others play on
        print(f"bot {name} stopped: {exc!r}", file=sys.stderr)


def claims_of(log: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]]:
    """Every decided claim in the export, by (seat, client_seq)."""
    claims: dict[tuple[int, int], dict[str, Any]] = {}
    for line in log:
        for record in (line.get("arbitration") or {}).get("decisions", []):
            for claim in record.get("claims", []):
                if claim.get("client_seq") is not None:
                    claims[(claim["seat"], claim["client_seq"])] = {
                        **claim,
                        "decided_at": record.get("decided_at"),
                    }
    return claims


@dataclass
class Race:
    players: list[Player]
    truth: int  # the truly fastest seat
    gap: float
    arbiter: int | None
    first_arrival: int
    claims: list[tuple[Player, dict[str, Any]]]


def races_of(table: Table, claims: dict[tuple[int, int], dict[str, Any]]) -> list[Race]:
    by_call: dict[int, list[Grab]] = defaultdict(list)
    for grab in table.grabs:
        if grab.primary and (grab.seat, grab.client_seq) in claims:
            by_call[grab.call_version].append(grab)
    races = []
    for grabs in by_call.values():
        if len(grabs) < 2:
            continue
        ordered = sorted(grabs, key=lambda g: g.reaction_ms)
        decided = [(g, claims[(g.seat, g.client_seq)]) for g in grabs]
        winners = [g.seat for g, c in decided if c["outcome"] == "won"]
        first = min(decided, key=lambda pair: pair[1]["arrival"])[0].seat
        races.append(
            Race(
                table.players,
                ordered[0].seat,
                ordered[1].reaction_ms - ordered[0].reaction_ms,
                winners[0] if winners else None,
                first,
                [(table.players[g.seat], c) for g, c in decided],
            )
        )
    return races


def share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def figures(races: list[Race], honest_claims: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    def winner(race: Race) -> int | None:
        return race.arbiter if mode == "arbiter" else race.first_arrival

    correct = {}
    for name, low, high in BUCKETS:
        inside = [r for r in races if low <= r.gap < high]
        correct[name] = share(sum(winner(r) == r.truth for r in inside), len(inside))
    wins: dict[str, int] = defaultdict(int)
    fastest: dict[str, int] = defaultdict(int)
    for race in races:
        fastest[race.players[race.truth].klass] += 1
        won = winner(race)
        if won is not None:
            wins[race.players[won].klass] += 1
    fair = {k: share(wins[k], fastest[k]) for k in sorted(fastest)}
    clamped = sum(bool(SUSPECT.intersection(c.get("clamp", []))) for c in honest_claims)
    liars = {p.klass for r in races for p in r.players if p.lie_ms}
    gain = None
    for klass in liars:
        gain = share(wins[klass], fastest[klass])
    return {
        "correct_by_gap": correct,
        "fair_share": fair,
        "clamped_honest": (share(clamped, len(honest_claims)) or 0.0) if mode == "arbiter" else 0.0,
        "cheater_gain": gain,
    }


def details(
    races: list[Race], honest: list[dict[str, Any]], liar: list[tuple[Player, dict[str, Any]]],
    records: list[dict[str, Any]],
) -> dict[str, Any]:  # fmt: skip
    """What the figures rest on: counts, the window's cost, the cheater's edge in ms."""
    counts = {name: sum(low <= r.gap < high for r in races) for name, low, high in BUCKETS}
    waits = [c["decided_at"] - c["arrival"] for r in races for _, c in r.claims
             if c["outcome"] == "won" and c.get("decided_at") is not None]  # fmt: skip
    edges, tolerances = [], []
    for player, claim in liar:
        if claim.get("s_ref") is None or claim.get("dt") is None:
            continue
        honest_v = claim["s_ref"] + claim["dt"] + player.lie_ms
        edges.append(honest_v - claim["v"])
        tolerances.append(claim["rtt_cap"] - (claim["arrival"] - honest_v))
    # The lie buys at most the link's tolerance: grabs whose edge exceeded it (+1 ms).
    beyond = sum(e > t + 1 for e, t in zip(edges, tolerances, strict=True))
    flagged = sorted({s for m in records for s in ((m.get("flags") or {}).get("flagged") or [])})
    return {
        "contested": len(races),
        "by_gap": counts,
        "no_winner": sum(r.arbiter is None for r in races),
        "honest_grabs": len(honest),
        "median_hold_ms": round(statistics.median(waits), 1) if waits else None,
        "cheater_median_edge_ms": round(statistics.median(edges), 1) if edges else None,
        "cheater_median_tolerance_ms": round(statistics.median(tolerances), 1)
        if tolerances
        else None,
        "cheater_edge_beyond_tolerance": beyond if edges else None,
        "cheater_max_edge_ms": round(max(edges), 1) if edges else None,
        "flagged_seats": flagged,
    }


def raise_priority(pid: int = 0, *, realtime: bool = False) -> bool:
    """Nice -10 (or, with ``realtime``, SCHED_FIFO) for the harness and its server: on a
    shared machine other processes' CPU load otherwise shows up as tens of ms of scheduling
    delay, which the arbiter cannot tell from network jitter. Both processes mostly sleep in
    epoll. Needs root (or CAP_SYS_NICE); without it, measure as is."""
    try:
        if realtime:
            os.sched_setscheduler(pid, os.SCHED_FIFO, os.sched_param(10))
        else:
            os.setpriority(os.PRIO_PROCESS, pid, -10)
    except OSError:
        return False
    return True


async def run(args: argparse.Namespace) -> dict[str, Any]:
    names = args.scenario or list(SCENARIOS)
    tables_per = args.tables or (2 if args.quick else 6)
    racing_s = args.seconds or (40.0 if args.quick else 240.0)
    server = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.port is None:
            server = Server(f"sqlite+aiosqlite:///{tmp}/fairness.db", {"RAMPART_CLOCK_RATE": "1"})
            server.start(Path(tmp))
            if args.priority and server.process is not None:
                raise_priority(server.process.pid, realtime=args.realtime)
        else:
            server = Server("", port=args.port)
        api = Api(server)
        try:
            stop_at = time.monotonic() + racing_s
            tables = [
                Table(name, SCENARIOS[name], seed=args.seed * 1000 + 10 * i + k, stop_at=stop_at)
                for i, name in enumerate(names)
                for k in range(tables_per)
            ]
            await asyncio.gather(
                *(play_table(api, server.port, t, 0.5 * k) for k, t in enumerate(tables))
            )
            played = [await collect(api, table) for table in tables]
            for t, result in zip(tables, played, strict=True):
                won = sum(bool(g.won) for g in t.grabs)
                print(
                    f"{t.scenario} match {t.match_id}: {t.calls} calls, "
                    f"{len(t.grabs)} grabs, {won} won, {len(result['log'])} versions"
                )
        finally:
            await api.close()
            if args.port is None:
                server.stop()
    if args.dump is not None:
        raw = [
            {
                "scenario": t.scenario,
                "match_id": t.match_id,
                "players": [asdict(p) for p in t.players],
                "grabs": [asdict(g) for g in t.grabs],
                "claims": list(claims_of(result["log"]).values()),
            }
            for t, result in zip(tables, played, strict=True)
        ]
        args.dump.write_text(json.dumps(raw) + "\n")
    report: dict[str, Any] = {"scenarios": {}, "details": {}}
    report["environment"] = {
        "load_average_1m": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "priority_raised": args.priority_raised,
        "realtime": args.realtime,
        "tables_per_scenario": tables_per,
        "racing_s": racing_s,
    }
    for name in names:
        races: list[Race] = []
        honest: list[dict[str, Any]] = []
        liar: list[tuple[Player, dict[str, Any]]] = []
        records = []
        for table, result in zip(tables, played, strict=True):
            if table.scenario != name:
                continue
            claims = claims_of(result["log"])
            races += races_of(table, claims)
            for (seat, _), claim in claims.items():
                if claim["code"] in UNJUDGED:
                    continue  # refused before judging: a grab for a race already over
                player = table.players[seat]
                (liar.append((player, claim)) if player.lie_ms else honest.append(claim))
            records.append(result["match"])
        report["scenarios"][name] = {
            "arbiter": figures(races, honest, "arbiter"),
            "first_arrival": figures(races, honest, "first_arrival"),
        }
        report["details"][name] = details(races, honest, liar, records)
    return report


def print_report(report: dict[str, Any]) -> None:
    for name, modes in report["scenarios"].items():
        info = report["details"][name]
        print(f"\n{name}: {info['contested']} contested grabs {info['by_gap']}")
        for mode, figs in modes.items():
            gaps = "  ".join(f"{k}: {_pct(v)}" for k, v in figs["correct_by_gap"].items())
            fair = "  ".join(f"{k} {v}" for k, v in figs["fair_share"].items())
            print(f"  {mode:13} correct {gaps}")
            print(f"  {'':13} fair share {fair}")
            print(
                f"  {'':13} clamped honest {_pct(figs['clamped_honest'])}"
                f"  cheater gain {figs['cheater_gain']}"
            )
        rest = {k: v for k, v in info.items() if k not in ("contested", "by_gap")}
        print(f"  details: {rest}")


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 tables x 40 s per scenario")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--port", type=int, help="use a running server on 127.0.0.1:PORT")
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS))
    parser.add_argument("--tables", type=int, help="tables per scenario")
    parser.add_argument("--seconds", type=float, help="racing time")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", type=Path, help="write every grab and decided claim here")
    parser.add_argument(
        "--no-priority",
        dest="priority",
        action="store_false",
        help="do not raise the harness's and its server's scheduling priority",
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="SCHED_FIFO instead of nice -10 for the harness and its server (root only)",
    )
    args = parser.parse_args()
    args.priority_raised = args.priority and raise_priority(realtime=args.realtime)
    started = time.monotonic()
    report = asyncio.run(run(args))
    print_report(report)
    print(f"\n({time.monotonic() - started:.0f} s; {report['environment']})")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
