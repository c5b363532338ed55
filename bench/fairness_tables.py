"""The fairness harness's players: bots with known reaction times behind delaying proxies,
playing one real Ambush! match per table (``bench/fairness.py`` runs and scores them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import websockets
from rampart_client import HeldView

from bench.delay_proxy import DelayProxy, Direction, Link

if TYPE_CHECKING:
    from tests.app.support import Api

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
        self.patches = HeldView()  # the official client's: diff patches filled in to views
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
        if self.patches.read(message) == "resync":
            resync = {"type": "resync", "last_version": self.patches.version}
            await self.ws.send(json.dumps(resync))
            return
        self.version = message["version"]
        self.drawn[self.version] = read_at
        view, legal = self.patches.view or {}, self.patches.legal
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
