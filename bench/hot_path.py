"""CPU per move of the server's own path, in one process without sockets: message parse,
gateway checks, session, engine, group commit to SQLite, per-seat patches.

The peers' benchmark measures the whole server under a Node load generator on the same two
cores, and its figures drift by 10 % from run to run. This measures the Python part of a move
alone, steadily enough to see a change of a few microseconds (A/B one change at a time):

    .venv/bin/python bench/hot_path.py [--matches 200] [--rounds 40] [--repeat 5] [--profile]
        [--lobby-sockets N]
    .venv/bin/python bench/hot_path.py --instructions [--matches 100]

``--instructions`` counts instead of timing, which a shared machine cannot disturb: it runs
this bench twice under valgrind's callgrind (10 and 30 rounds, once each, counting only while
the measured rounds run, the collector's once-a-second thread not started) and prints the
difference per move, the same to about 1 % from run to run.

``--spectators N`` attaches N spectators to each match; ``--secrets`` plays tally with its
secrets (each move deals the mover a hidden card, so every seat gets its own events).

Each round, every match's seat on turn sends one tally move, as ``{"type":"action",...}``
text through the gateway's ``_Conversation.handle``; then the loop runs one turn, which
commits the round's rows together and builds and "sends" (records) the four seats' patches.
Each tally move passes the turn, so each tells two players ``your_turn``: with
``--lobby-sockets N`` a lobby feed holds N signed-in lobby sockets, one for each of the four
players and the rest other players' (a table page opens one), and the notices are encoded and
"sent"; without, nobody has a lobby socket open.
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
import cProfile
import os
import pstats
import subprocess
import tempfile
import time
from typing import Any

import orjson

from app.__main__ import migrate, tune_gc
from app.collector import CollectorPolicy
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.db.repositories import AccountRepository, MatchRepository, SeatSpec
from app.lobby.feed import LobbyFeed
from app.realtime.gateway import _Conversation
from app.sessions import commands
from app.sessions.hub import Hub
from app.sessions.listener import Unmeasured
from app.sessions.session import GameSession
from bench.tally.engine import TallyEngine
from engines import registry


class Seat(Unmeasured):
    """A connection as the gateway and session see it; frames are kept, not written."""

    def __init__(self, seat: int, account_id: int) -> None:
        self.seat: int | None = seat
        self.account_id: int | None = account_id
        self.rtt_min_ms = None
        self.sent = 0
        self.last = ""
        self.closed: int | None = None

    def clock(self) -> float:
        return time.monotonic() * 1000

    def send_text(self, text: str) -> None:
        self.sent += 1
        self.last = text

    def close(self, code: int = 1000) -> None:
        self.closed = code

    def pong(self, nonce: int | str, at_ms: float | None = None) -> bool:
        return False


async def open_matches(
    hub: Hub, sessionmaker: Any, count: int, options: dict[str, Any] | None = None
) -> list[GameSession]:
    sessions = []
    async with sessionmaker() as db:
        players = [await AccountRepository(db).create(f"p{i}", None) for i in range(4)]
        for _ in range(count):
            match = await MatchRepository(db).create(
                game="tally",
                options=options or {},
                seed=7,
                seats=[SeatSpec(p.id, None, p.name) for p in players],
                rated=False,
                time_control={},
                lobby_id=None,
                started_wall_ms=int(time.time() * 1000),
            )
            sessions.append(await hub.get(match.id))
    return sessions


async def measure(args: argparse.Namespace, folder: Path) -> None:
    url = f"sqlite+aiosqlite:///{folder}/hot.db"
    await asyncio.to_thread(migrate, url)
    registry.register(TallyEngine())
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    writer = ActionLogWriter(engine)
    writer.start()
    settings = Settings(database_url=url)
    hub = Hub(settings, sessionmaker, writer)
    feed = LobbyFeed()
    hub.turn_listeners.append(feed.your_turn)
    options = {"secrets": True} if args.secrets else {}
    sessions = await open_matches(hub, sessionmaker, args.matches, options)
    lobby_sockets = []
    for n in range(args.lobby_sockets):
        players = [info.account_id or 0 for info in sessions[0].seats]
        page = Seat(0, players[n] if n < len(players) else 10_000_000 + n)
        feed.add(page)
        feed.sign_in(page)
        lobby_sockets.append(page)
    tables = []
    everyone: list[Seat] = []
    for session in sessions:
        seats = [Seat(s, info.account_id or 0) for s, info in enumerate(session.seats)]
        everyone.extend(seats)
        talks = []
        for seat in seats:
            session.submit(commands.Attach(seat, None))
            talk = _Conversation(seat, session, settings)  # type: ignore[arg-type]
            talk.greeted = True
            talks.append(talk)
        for _ in range(args.spectators):
            watcher = Seat(0, 0)
            watcher.seat = watcher.account_id = None
            session.submit(commands.Attach(watcher, None))
        tables.append((session, talks))
    await asyncio.sleep(0.2)
    if args.under_callgrind:
        CollectorPolicy().install()  # the server's thresholds, without its timed thread
    else:
        tune_gc()  # the server's collector settings (``python -m app``)
    seq = 0

    async def rounds(count: int) -> None:
        nonlocal seq
        for _ in range(count):
            seq += 1
            for session, talks in tables:
                turn = session.state.turn
                cell = (session.state.n * 7 + turn) % 20
                text = orjson.dumps(
                    {"type": "action", "client_seq": seq, "action": {"type": "move", "cell": cell}}
                ).decode()
                talks[turn].handle(text, 0.0)
                if args.per_turn:
                    await asyncio.sleep(0)
            await asyncio.sleep(0)
            await asyncio.sleep(0)

    await rounds(3)  # warm
    profile = cProfile.Profile() if args.profile else None
    best = float("inf")
    for _ in range(args.repeat):
        before = sessions[0].version
        if profile is not None:
            profile.enable()
        if args.under_callgrind:
            count_instructions(True)
        started = time.process_time()
        await rounds(args.rounds)
        spent = time.process_time() - started
        if args.under_callgrind:
            count_instructions(False)
        if profile is not None:
            profile.disable()
        moves = (sessions[0].version - before) * len(sessions)
        best = min(best, spent / moves * 1e6)
    if lobby_sockets:
        print(f"your_turn notices sent: {sum(page.sent for page in lobby_sockets)}")
    last_sent = [seat.last for seat in everyone]
    refused = [text for text in last_sent if '"type":"error"' in text]
    assert not refused, refused[:1]
    shape = f"best of {args.repeat}, {args.matches} matches"
    if args.lobby_sockets:
        shape += f", {args.lobby_sockets} lobby sockets"
    print(f"hot path: {best:.1f} us of CPU per move ({shape})")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    await hub.stop()
    await writer.stop()
    await engine.dispose()


def count_instructions(on: bool) -> None:
    """Turn callgrind's counting in this process on or off."""
    switch = ["callgrind_control", "--instr=" + ("on" if on else "off"), str(os.getpid())]
    subprocess.run(switch, check=True, capture_output=True)


def instructions_per_move(matches: int, folder: Path, extra: list[str]) -> float:
    """Run this bench under callgrind with 10 and with 30 rounds (``extra``: more of its
    options); the instructions counted per move of the 20 rounds between them."""
    totals = []
    for rounds in (10, 30):
        out = folder / f"callgrind.{rounds}"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            sys.executable,
            __file__,
            "--under-callgrind",
            f"--matches={matches}",
            f"--rounds={rounds}",
            "--repeat=1",
            *extra,
        ]
        subprocess.run(command, check=True, capture_output=True)
        line = next(line for line in out.read_text().splitlines() if line.startswith("totals:"))
        totals.append(int(line.split()[1]))
    return (totals[1] - totals[0]) / (20 * matches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, help="200 (100 with --instructions)")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--lobby-sockets", type=int, default=0, help="signed-in lobby sockets (your_turn news)"
    )
    parser.add_argument(
        "--per-turn",
        action="store_true",
        help="one move per turn of the loop (one row per commit) instead of a round per turn",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instructions per move, counted under valgrind's callgrind (default 100 matches)",
    )
    parser.add_argument("--spectators", type=int, default=0, help="spectators per match")
    parser.add_argument(
        "--secrets",
        action="store_true",
        help="tally's secrets: a hidden event each move, so each seat its own events",
    )
    parser.add_argument("--under-callgrind", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.matches is None:
        args.matches = 100 if args.instructions else 200
    with tempfile.TemporaryDirectory() as folder:
        if args.instructions:
            extra = [f"--spectators={args.spectators}"] + (["--secrets"] if args.secrets else [])
            per_move = instructions_per_move(args.matches, Path(folder), extra)
            print(f"hot path: {per_move:,.0f} instructions per move ({args.matches} matches)")
        else:
            asyncio.run(measure(args, Path(folder)))


if __name__ == "__main__":
    main()
