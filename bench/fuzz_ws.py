"""Websocket fuzz campaign against a real server: hostile messages on match sockets of every
game while an honest match plays on beside them.

    .venv/bin/python bench/fuzz_ws.py [--messages 100000] [--seed 1] [--games ambush,...]

Each game gets a two-seat table whose two seats are fuzzers. They send messages drawn with
hypothesis strategies over the protocol's message set (``bench/fuzz_messages.py``): every type,
known and unknown fields, hostile values (integers past 2^53, 2^63 and 2^64, NaN and
infinities, lists or objects where a string belongs, long strings, deep nesting), legal actions
as they are and mutated (an extra field, a field replaced), and plain garbage text. A match
that ends is replaced by a new one (``bench/fuzz_tables.py``). Raw-frame cases run on their own
connections (``bench/raw_frames.py``: bad UTF-8, with a Close in the same write, fragments, a
Close mid-fragment, binary, oversize). Meanwhile an honest tally match plays move after move,
and another address floods the server with cheap requests (``bench/floods.py``: new accounts,
public tables, anonymous reads, lobby sockets that never say hello, stalled request heads;
``--no-floods`` leaves them out), each of which must be refused or closed by its limit. At the
end the side doors around moderation and quick play are tried on each fuzzed match
(``bench/side_doors.py``: a spectator's chat, a ticket for a seated player, a banned account's
lobby hello).

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
import random
import time
from typing import Any

from bench.floods import FloodSize, flood
from bench.fuzz_messages import specs
from bench.fuzz_tables import FuzzTable, Report, honest_match
from bench.fuzzkit import draw, run_on_server
from bench.raw_frames import RAW_CASES, raw_case
from bench.side_doors import probe
from tests.app.support import Api, Server

GAMES = ("ambush", "castles", "ember", "rampage")
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
    pool = draw(specs, min(messages, pool_size), seed_value)
    plan = [pool[i % len(pool)] for i in range(messages)]
    rng.shuffle(plan)
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

    await asyncio.gather(*(fuzz(t, plan[i :: len(tables)]) for i, t in enumerate(tables)))
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
    games = tuple(args.games.split(","))
    floods = None if args.no_floods else FULL_FLOODS

    async def run(server: Server) -> Report:
        return await campaign(server, args.messages, args.seed, games, args.pool, floods)

    run_on_server("rampart-fuzz-", SERVER_ENV, run)


if __name__ == "__main__":
    main()
