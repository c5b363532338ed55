"""The walk of one action through the server's own files, from the match socket's handler to the
engine and back to every seat's socket, recorded with ``sys.setprofile``.

    .venv/bin/python bench/action_walk.py [--all] [--receivers N]

One in-process tally match (``bench/hot_path.py``'s set-up: SQLite action log, four seats
whose sockets record what they are sent), warmed by a few moves; then one ``action`` text goes
to the gateway's ``_Conversation.handle`` (where ``data_received`` hands each text frame) and
the loop runs until every attached socket has that version's patch. ``--receivers 1``
attaches only the mover's socket: the walk of one action to one receiving seat, not dominated
by the loop over the seats (``--receivers N``: the mover's and the next N - 1 seats' sockets;
all four by default). Every Python call and return in the event loop's thread is seen; only
the repository's own files (``app/``, ``engines/``, ``bench/tally``) count, in the order the
running code moves between them (the standard library and installed packages in between are
skipped; so is the rest of ``bench/``, whose stand-in sockets count as the file that called
them). Printed: the files in order of first visit with how many times the walk entered each,
the number of moves between files, and how many of them came back to a file already left
once. ``--all`` prints the whole sequence too, each visit with the function it came to first.
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
import itertools
import tempfile
import types
from collections import Counter
from typing import Any

import orjson

from app.__main__ import migrate
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.realtime.gateway import _Conversation
from app.sessions import commands
from app.sessions.hub import Hub
from bench.hot_path import Seat, open_matches
from bench.tally.engine import TallyEngine
from engines import registry

ROOT = Path(__file__).resolve().parent.parent
OWN = (str(ROOT / "app") + "/", str(ROOT / "engines") + "/", str(ROOT / "bench" / "tally") + "/")


class Walk:
    """The repository files the running code moves between, in order."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.functions: list[str] = []  # the function each visit came to first

    def _at(self, frame: types.FrameType | None) -> None:
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(OWN):
                short = str(Path(name).relative_to(ROOT))
                if not self.files or self.files[-1] != short:
                    self.files.append(short)
                    self.functions.append(frame.f_code.co_name)
                return
            if not name.startswith(str(ROOT)) or "site-packages" in name:
                return  # library code: the walk stays where it was until ours runs again
            frame = frame.f_back

    def profile(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self._at(frame)
        elif event == "return":
            self._at(frame.f_back)


def report(files: list[str], functions: list[str], show_all: bool) -> None:
    entries = Counter(files)
    left: set[str] = set()
    returns = 0
    for before, after in itertools.pairwise(files):
        left.add(before)
        if after in left:
            returns += 1
    print(f"{len(entries)} files, {len(files) - 1} moves between files, {returns} back to a file")
    print("already left; entries per file, in order of first visit:")
    for name in dict.fromkeys(files):
        print(f"  {entries[name]:>3}  {name}")
    if show_all:
        print("the whole walk:")
        for name, function in zip(files, functions, strict=True):
            print(f"  {name}  {function}")


WARM = 4  # moves before the walked one


async def walk(folder: Path, show_all: bool, receivers: int) -> None:
    url = f"sqlite+aiosqlite:///{folder}/walk.db"
    await asyncio.to_thread(migrate, url)
    registry.register(TallyEngine())
    engine = create_engine(url)
    writer = ActionLogWriter(engine)
    writer.start()
    settings = Settings(database_url=url)
    hub = Hub(settings, create_sessionmaker(engine), writer)
    (session,) = await open_matches(hub, create_sessionmaker(engine), 1)
    seats = [Seat(s, info.account_id or 0) for s, info in enumerate(session.seats)]
    talks = []
    for seat in seats:
        talk = _Conversation(seat, session, settings)  # type: ignore[arg-type]
        talk.greeted = True
        talks.append(talk)
    # Each tally move passes the turn to the next seat: the walked move is this seat's.
    mover = (session.state.turn + WARM) % len(seats)
    attached = [seats[(mover + k) % len(seats)] for k in range(min(receivers, len(seats)))]
    for seat in attached:
        session.submit(commands.Attach(seat, None))

    async def move(seq: int) -> None:
        turn = session.state.turn
        text = orjson.dumps(
            {"type": "action", "client_seq": seq, "action": {"type": "move", "cell": seq % 20}}
        ).decode()
        version = session.version + 1
        talks[turn].handle(text, 0.0)
        while not all(f'"version":{version}' in seat.last for seat in attached):
            await asyncio.sleep(0)
        while not session.idle():  # at rest, as between two moves of a live match
            await asyncio.sleep(0)

    for seq in range(1, WARM + 1):
        await move(seq)  # warm: imports done, views built once
    assert session.state.turn == mover
    trace = Walk()
    sys.setprofile(trace.profile)
    try:
        await move(WARM + 1)
    finally:
        sys.setprofile(None)
    report(trace.files, trace.functions, show_all)
    await hub.stop()
    await writer.stop()
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="print the whole walk")
    parser.add_argument(
        "--receivers",
        type=int,
        default=4,
        choices=range(1, 5),
        help="the sockets attached: the mover's and the next seats' (1: the mover's alone)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(walk(Path(folder), args.all, args.receivers))


if __name__ == "__main__":
    main()
