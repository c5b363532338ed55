"""The start-up catch-up of lost mails (``app.notify.catchup``): how long its two queries take
on a database of ``--matches`` sleeping correspondence matches, every one moved within the
last day (the worst case: none is filtered out as old news).

Seeding, in bulk SQL: two players a match, each with a verified, subscribed address;
``--moves`` logged actions per match, the last one a minute ago; the match asleep (its
``match_wakeups`` row keeps the awaited seat's clock running) and that seat's player told
("your move" row made after the move), except in ``--lost`` matches, whose row is missing (a
crash's leftover). The figures: each query's time (median of ``--runs``) and what it found.

    .venv/bin/python bench/mail_catchup.py                       # 10,000 matches, SQLite
    .venv/bin/python bench/mail_catchup.py --matches 1000 --moves 5
    bash scripts/with-postgres.sh sh -c '.venv/bin/python bench/mail_catchup.py \\
        --database-url "$RAMPART_TEST_PG_URL"'
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from sqlalchemy import insert, text

from app.__main__ import migrate
from app.db.engine import create_engine, create_sessionmaker
from app.db.mail import EmailAddress, OutboxMail
from app.db.models import Account, Match, MatchAction, MatchSeat, MatchWakeup
from app.notify import catchup

CHUNK = 2_000


async def seed(url: str, matches: int, moves: int, lost: int) -> None:
    engine = create_engine(url)
    now = datetime.now(UTC)
    moved = now - timedelta(minutes=1)
    accounts = [
        {"id": i + 1, "name": f"player{i + 1}", "created_at": now} for i in range(2 * matches)
    ]
    emails = [
        {"account_id": a["id"], "address": f"p{a['id']}@example.com", "verified_at": now}
        for a in accounts
    ]
    rows: dict[type, list[dict[str, object]]] = {
        Account: accounts,
        EmailAddress: emails,
        Match: [],
        MatchSeat: [],
        MatchAction: [],
        MatchWakeup: [],
        OutboxMail: [],
    }
    for m in range(1, matches + 1):
        players = (2 * m - 1, 2 * m)
        rows[Match].append(
            {
                "id": m,
                "game": "tally",
                "seat_count": 2,
                "options": {"target": 1000},
                "seed": m,
                "status": "running",
                "time_control": {"days_per_move": 3},
                "started_wall_ms": int(moved.timestamp() * 1000) - moves * 1000,
                "started_at": moved - timedelta(seconds=moves),
            }
        )
        for seat, player in enumerate(players):
            rows[MatchSeat].append(
                {"match_id": m, "seat": seat, "account_id": player, "name": f"player{player}"}
            )
        for version in range(1, moves + 1):
            rows[MatchAction].append(
                {
                    "match_id": m,
                    "version": version,
                    "seat": (version - 1) % 2,
                    "account_id": players[(version - 1) % 2],
                    "action": {"type": "move", "cell": version},
                    "at_ms": version * 1000,
                    "cause": "player",
                    "events": [],
                    "created_at": moved - timedelta(seconds=moves - version),
                }
            )
        awaited = moves % 2
        carry = {"running_since": {str(awaited): moves * 1000}, "banks": {}, "away": {}}
        rows[MatchWakeup].append({"match_id": m, "due_at": None, "carry": {**carry, "called": []}})
        if m > lost:
            rows[OutboxMail].append(
                {
                    "account_id": players[awaited],
                    "kind": "turn",
                    "match_id": m,
                    "detail": {},
                    "due_at": moved,
                    "sent_at": moved,
                    "created_at": moved + timedelta(milliseconds=5),
                }
            )
    async with engine.begin() as connection:
        for model, values in rows.items():
            for start in range(0, len(values), CHUNK):
                await connection.execute(insert(model), values[start : start + CHUNK])
        if engine.dialect.name == "postgresql":
            await connection.execute(text("ANALYZE"))
    await engine.dispose()


async def measure(url: str, runs: int) -> None:
    engine = create_engine(url)
    sessionmaker = create_sessionmaker(engine)
    since = datetime.now(UTC) - catchup.RECENT
    for name, query in (("turns", catchup.untold_turns), ("results", catchup.untold_results)):
        times, found = [], 0
        for _ in range(runs):
            async with sessionmaker() as db:
                started = time.perf_counter()
                found = len(await query(db, since))
                times.append((time.perf_counter() - started) * 1000)
        print(f"{name:8} {statistics.median(times):8.1f} ms  ({found} rows)")
    await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--lost", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite+aiosqlite:///{folder}/catchup.db"
        migrate(url)
        asyncio.run(seed(url, args.matches, args.moves, args.lost))
        print(f"{args.matches} sleeping matches, {args.moves} moves each, {args.lost} lost mails")
        asyncio.run(measure(url, args.runs))


if __name__ == "__main__":
    main()
