"""Sleeping matches: the memory of 10,000 open correspondence matches asleep on one server,
against a server playing ~100 live real-time matches, and the first move after a wake-up.

Seeding (both databases): the matches are inserted directly in SQL, in bulk, as the rows a
lobby's start writes (``MatchRepository.create``: a ``matches`` row and its seats); 10,000
tables over REST would cost 30,000 requests for nothing measured here. A hub in this process
(the server's own code) then loads the correspondence matches 500 at a time and puts each to
sleep (``Sleeper.sleep_idle``), as a server does once they have been idle
``RAMPART_HIBERNATE_AFTER_S``. Every match is a two-player Castles deck match.

Figures, each server a fresh ``python -m app`` (RSS: VmRSS of ``/proc/<pid>/status``, read
after a settling pause):

1. an empty database (the baseline);
2. ``--live`` real-time matches (a 60 s turn clock), both players of each connected and one
   move played: the memory of a process playing them;
3. ``--matches`` sleeping correspondence matches (3 days per move): the server after start-up
   (which loads none of them), then after ``--wake`` of them were woken;
4. waking ``--wake`` matches one after another: a player's ``hello`` (which rebuilds the match
   from its log) to its ``welcome``, then the first legal move to its ``ack``; p50/p99 ms.

    .venv/bin/python bench/sleeping.py                              # 10,000 asleep, 100 live
    .venv/bin/python bench/sleeping.py --matches 200 --live 10 --wake 20
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
import json
import secrets
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import websockets
from sqlalchemy import func, insert, select

from app.__main__ import migrate
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.models import Account, Match, MatchSeat, MatchWakeup
from app.security import issue_token
from app.sessions.hub import Hub
from bench.loadgen.probes import free_port, memory_mb, percentile
from bench.loadgen.servers import rampart_running, wait_up

GAME = "castles"
PLAYERS = 200  # accounts seated in turn at the matches
CHUNK = 500  # matches loaded and put to sleep at once while seeding
CORRESPONDENCE = {"days_per_move": 3}
REALTIME = {"turn_ms": 60_000}


# ----- seeding ----------------------------------------------------------------------------------


def seats_of(index: int) -> tuple[int, int]:
    """The two accounts (ids from 1) seated at the ``index``-th match."""
    return index % PLAYERS + 1, (index + 1) % PLAYERS + 1


async def seed(url: str, matches: int, time_control: dict[str, Any], *, asleep: bool) -> None:
    """A migrated database with ``PLAYERS`` accounts and ``matches`` running matches; with
    ``asleep`` each is loaded by a hub here and put to sleep by its sleeper."""
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    now = int(time.time() * 1000)
    async with sessionmaker() as db, db.begin():
        await db.execute(
            insert(Account), [{"id": i, "name": f"bench{i}"} for i in range(1, PLAYERS + 1)]
        )
        match_rows = [
            {
                "id": i + 1,
                "game": GAME,
                "seat_count": 2,
                "options": {},
                "seed": 1000 + i,
                "status": "running",
                "rated": False,
                "time_control": time_control,
                "lobby_id": None,
                "started_wall_ms": now,
                "version": 0,
                "forfeits": {},
            }
            for i in range(matches)
        ]
        seat_rows = [
            {"match_id": i + 1, "seat": seat, "account_id": account, "name": f"bench{account}"}
            for i in range(matches)
            for seat, account in enumerate(seats_of(i))
        ]
        if matches:
            await db.execute(insert(Match), match_rows)
            await db.execute(insert(MatchSeat), seat_rows)
    if asleep:
        writer = ActionLogWriter(engine)
        writer.start()
        hub = Hub(Settings(database_url=url, hibernate_after_s=0.001), sessionmaker, writer)
        for start in range(1, matches + 1, CHUNK):
            ids = range(start, min(start + CHUNK, matches + 1))
            await asyncio.gather(*(hub.get(match_id) for match_id in ids))
            await asyncio.sleep(0.01)
            await hub.sleeper.sleep_idle()
        async with sessionmaker() as db:
            slept = await db.scalar(select(func.count()).select_from(MatchWakeup))
        assert slept == matches, f"{slept} of {matches} matches fell asleep"
        await hub.stop()
        await writer.stop()
    await engine.dispose()


# ----- a server and its players -----------------------------------------------------------------


@asynccontextmanager
async def server(url: str, secret: str) -> AsyncIterator[tuple[str, int]]:
    """A server on ``url``'s database: its base address and pid, once it answers."""
    port = free_port()
    env = {"RAMPART_SECRET": secret, "RAMPART_ENVIRONMENT": "development"}
    with rampart_running(port, url, env) as process:
        base = f"http://127.0.0.1:{port}"
        await wait_up(base, process)
        yield base, process.pid


SETTLE = {"s": 2.0}  # the pause before each RSS reading (``--settle``)


async def rss_after_settling(pid: int) -> float:
    await asyncio.sleep(SETTLE["s"])
    return memory_mb(pid)


class Player:
    """One socket to one match: hello, then moves."""

    def __init__(self, base: str, match_id: int, token: str) -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/matches/{match_id}"
        self.token = token
        self.ws: Any = None
        self.legal: list[dict[str, Any]] = []

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=None, compression=None)

    async def hello(self) -> dict[str, Any]:
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        welcome = await self.until("welcome")
        self.legal = welcome["legal"]
        return welcome

    async def move(self, client_seq: int = 1) -> dict[str, Any]:
        action = next(a for a in self.legal if a["type"] != "resign")
        message = {"type": "action", "client_seq": client_seq, "action": action}
        await self.ws.send(json.dumps(message))
        return await self.until("ack")

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await self.ws.recv())
            if message["type"] == "ping":
                await self.ws.send(json.dumps({"type": "pong", "nonce": message["nonce"]}))
            elif message["type"] == "error":
                raise RuntimeError(f"refused: {message}")
            elif message["type"] == kind:
                return message


def token_of(secret: str, match_index: int, seat: int) -> str:
    return issue_token(secret, seats_of(match_index)[seat])


# ----- the figures ------------------------------------------------------------------------------


async def baseline(folder: Path, secret: str) -> float:
    url = f"sqlite+aiosqlite:///{folder}/empty.db"
    await seed(url, 0, REALTIME, asleep=False)
    async with server(url, secret) as (_, pid):
        return await rss_after_settling(pid)


async def live(folder: Path, secret: str, matches: int) -> float:
    """RSS of a server playing ``matches`` real-time matches, every player connected."""
    url = f"sqlite+aiosqlite:///{folder}/live.db"
    await seed(url, matches, REALTIME, asleep=False)
    async with server(url, secret) as (base, pid):
        players = []
        for index in range(matches):
            for seat in (0, 1):
                player = Player(base, index + 1, token_of(secret, index, seat))
                await player.connect()
                await player.hello()
                players.append(player)
            await players[-2].move()  # seat 0 moves first in Castles
        rss = await rss_after_settling(pid)
        for player in players:
            await player.ws.close()
        return rss


async def sleeping(folder: Path, secret: str, matches: int, wake: int) -> dict[str, Any]:
    url = f"sqlite+aiosqlite:///{folder}/asleep.db"
    started = time.monotonic()
    await seed(url, matches, CORRESPONDENCE, asleep=True)
    seeded_s = time.monotonic() - started
    async with server(url, secret) as (base, pid):
        rss_asleep = await rss_after_settling(pid)
        welcome_ms, ack_ms, total_ms = [], [], []
        step = max(1, matches // max(1, wake))
        for index in range(0, matches, step)[:wake]:
            player = Player(base, index + 1, token_of(secret, index, 0))
            await player.connect()
            t0 = time.perf_counter()
            await player.hello()
            t1 = time.perf_counter()
            ack = await player.move()
            t2 = time.perf_counter()
            assert ack["version"] == 1, ack
            welcome_ms.append((t1 - t0) * 1000)
            ack_ms.append((t2 - t1) * 1000)
            total_ms.append((t2 - t0) * 1000)
            await player.ws.close()
        rss_woken = await rss_after_settling(pid)
    return {
        "seeded_s": round(seeded_s, 1),
        "rss_asleep_mb": round(rss_asleep, 1),
        "rss_after_wakes_mb": round(rss_woken, 1),
        "woken": len(total_ms),
        "hello_to_welcome_ms": spread(welcome_ms),
        "move_to_ack_ms": spread(ack_ms),
        "hello_to_ack_ms": spread(total_ms),
    }


def spread(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50": percentile(ordered, 50), "p99": percentile(ordered, 99)}


async def run(matches: int, live_matches: int, wake: int) -> dict[str, Any]:
    secret = secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory(prefix="rampart-sleeping-") as name:
        folder = Path(name)
        figures: dict[str, Any] = {"matches": matches, "live": live_matches}
        figures["rss_empty_mb"] = round(await baseline(folder, secret), 1)
        figures["rss_live_mb"] = round(await live(folder, secret, live_matches), 1)
        figures.update(await sleeping(folder, secret, matches, wake))
    return figures


def report(figures: dict[str, Any]) -> str:
    rows = [
        ("empty database", figures["rss_empty_mb"], ""),
        (f"{figures['live']} live real-time matches", figures["rss_live_mb"], "players connected"),
        (
            f"{figures['matches']} sleeping correspondence",
            figures["rss_asleep_mb"],
            f"seeded and put to sleep in {figures['seeded_s']} s",
        ),
        (f"after waking {figures['woken']} of them", figures["rss_after_wakes_mb"], ""),
    ]
    lines = [f"RSS, {label:<34} {mb:8.1f} MB  {note}".rstrip() for label, mb, note in rows]
    for key, label in (
        ("hello_to_welcome_ms", "hello -> welcome (the wake-up)"),
        ("move_to_ack_ms", "first move -> ack"),
        ("hello_to_ack_ms", "hello -> first move's ack"),
    ):
        spread = figures[key]
        lines.append(f"{label:<39} p50 {spread['p50']:7.2f} ms   p99 {spread['p99']:7.2f} ms")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000, help="sleeping matches")
    parser.add_argument("--live", type=int, default=100, help="live real-time matches")
    parser.add_argument("--wake", type=int, default=300, help="matches woken by a first move")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds before each RSS")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    SETTLE["s"] = args.settle
    figures = asyncio.run(run(args.matches, args.live, args.wake))
    print(json.dumps(figures, indent=2) if args.json else report(figures))


if __name__ == "__main__":
    main()
