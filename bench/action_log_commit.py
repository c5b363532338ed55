"""The action log writer's app CPU per commit on PostgreSQL, in-process, nothing else running.

One writer, one match; each commit is ``--rows`` rows staged together (one batch, a callback
each, as sessions stage them), all acknowledged before the next. Prints one JSON line per
batch size: app CPU (this process's; PostgreSQL's is not in it) and wall time per commit.
``--server-root DIR`` measures the writer of another tree (a git worktree of an older commit).
``--ways executemany unnest`` times, instead of the writer, the two ways of writing a batch on
one asyncpg connection that were weighed (the writer's prepared ``executemany``, and one
``INSERT ... SELECT FROM unnest(...)`` of ten arrays), with the PostgreSQL backend's CPU too.
Needs a PostgreSQL server: run it under ``scripts/with-postgres.sh``, which sets
``RAMPART_TEST_PG_URL`` (a fresh database is made on it).

    bash scripts/with-postgres.sh .venv/bin/python bench/action_log_commit.py
    bash scripts/with-postgres.sh .venv/bin/python bench/action_log_commit.py \
        --server-root /tmp/before
    bash scripts/with-postgres.sh .venv/bin/python bench/action_log_commit.py \
        --ways executemany unnest --rows 1 10 100
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The alternative to the writer's executemany: the batch as ten arrays, one statement.
UNNEST_INSERT = """
INSERT INTO match_actions (match_id, version, seat, account_id, client_seq, action, at_ms,
    cause, events, arbitration, created_at)
SELECT m, v, s, a, c, act::json, t, cause, ev::json, arb::json, $11
FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[], $5::bigint[],
    $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[])
    AS batch(m, v, s, a, c, act, t, cause, ev, arb)
"""


def row(match_id: int, version: int) -> dict[str, Any]:
    """A tally-sized row, as a session stages it."""
    return {
        "match_id": match_id,
        "version": version,
        "seat": version % 4,
        "account_id": 1,
        "client_seq": version,
        "action": {"type": "move", "cell": version % 20},
        "at_ms": version * 500,
        "cause": "player",
        "events": [{"type": "moved", "seat": version % 4, "cell": version % 20}],
        "arbitration": None,
    }


async def new_database(admin_url: str) -> str:
    import asyncpg

    name = "bench_" + uuid.uuid4().hex[:12]
    connection = await asyncpg.connect(admin_url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return admin_url.rsplit("/", 1)[0] + "/" + name


async def staged_and_acknowledged(writer: Any, rows: list[dict[str, Any]]) -> None:
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    waiting = len(rows)

    def written(error: BaseException | None) -> None:
        nonlocal waiting
        if error is not None:
            done.set_exception(error)
        waiting -= 1
        if waiting == 0 and not done.done():
            done.set_result(None)

    for one in rows:
        writer.stage(one, written)
    await done


async def raw_ways(url: str) -> tuple[dict[str, Any], Any]:
    """The two ways of writing a batch on one asyncpg connection, and that connection."""
    import asyncpg

    pg_action_log: Any = importlib.import_module("app.db.pg_action_log")
    engine_module: Any = importlib.import_module("app.db.engine")
    json_text, utcnow = engine_module.json_text, importlib.import_module("app.db.models").utcnow
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    many = await connection.prepare(pg_action_log.PG_INSERT)
    arrays = await connection.prepare(UNNEST_INSERT)

    async def executemany(_writer: Any, rows: list[dict[str, Any]]) -> None:
        created_at = utcnow()
        await many.executemany([pg_action_log.pg_params(one, created_at) for one in rows])

    async def unnest(_writer: Any, rows: list[dict[str, Any]]) -> None:
        columns = ("match_id", "version", "seat", "account_id", "client_seq")
        await arrays.fetch(
            *([one[name] for one in rows] for name in columns),
            [json_text(one["action"]) for one in rows],
            [one["at_ms"] for one in rows],
            [one["cause"] for one in rows],
            [json_text(one["events"]) for one in rows],
            [json_text(one["arbitration"]) for one in rows],
            utcnow(),
        )

    return {"executemany": executemany, "unnest": unnest}, connection


async def measure(admin_url: str, commits: int, sizes: list[int], ways: list[str]) -> None:
    app_main: Any = importlib.import_module("app.__main__")
    engine_module: Any = importlib.import_module("app.db.engine")
    action_log: Any = importlib.import_module("app.db.action_log")
    repositories: Any = importlib.import_module("app.db.repositories")
    cpu_seconds = importlib.import_module("bench.loadgen.probes").cpu_seconds
    url = await new_database(admin_url)
    await asyncio.to_thread(app_main.migrate, url)
    engine = engine_module.create_engine(url)
    async with engine_module.create_sessionmaker(engine)() as db:
        player = await repositories.AccountRepository(db).create("bench", None)
        match = await repositories.MatchRepository(db).create(
            game="tally",
            options={},
            seed=1,
            seats=[repositories.SeatSpec(player.id, None, player.name)],
            rated=False,
            time_control={},
            lobby_id=None,
            started_wall_ms=0,
        )
    writer = action_log.ActionLogWriter(engine)
    writer.start()
    commit_ways: dict[str, Any] = {"writer": staged_and_acknowledged}
    raw: Any = None
    if ways != ["writer"]:
        more, raw = await raw_ways(url)
        commit_ways.update(more)
    version = 0
    try:
        for size, way in ((size, way) for size in sizes for way in ways):
            commit = commit_ways[way]
            backend = None if raw is None or way == "writer" else raw.get_server_pid()
            for count in (commits // 5, commits):  # a warm-up, then the measured commits
                cpu, wall = time.process_time(), time.perf_counter()
                pg_cpu = 0.0 if backend is None else cpu_seconds(backend)
                for _ in range(count):
                    rows = [row(match.id, version + 1 + i) for i in range(size)]
                    version += size
                    await commit(writer, rows)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                pg_cpu = 0.0 if backend is None else cpu_seconds(backend) - pg_cpu
            print(
                json.dumps(
                    {
                        "way": way,
                        "rows_per_commit": size,
                        "commits": commits,
                        "app_cpu_us_per_commit": round(cpu / commits * 1e6, 1),
                        "app_cpu_us_per_row": round(cpu / commits / size * 1e6, 1),
                        "wall_ms_per_commit": round(wall / commits * 1e3, 3),
                        "pg_backend_cpu_us_per_commit": None
                        if backend is None
                        else round(pg_cpu / commits * 1e6, 1),
                        "loadavg": os.getloadavg(),
                    }
                ),
                flush=True,
            )
    finally:
        if raw is not None:
            await raw.close()
        await writer.stop()
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--server-root", default=None, help="the tree whose writer is measured")
    parser.add_argument("--database-url", default=os.environ.get("RAMPART_TEST_PG_URL"))
    parser.add_argument("--commits", type=int, default=2000)
    parser.add_argument("--rows", type=int, nargs="+", default=[1, 10])
    parser.add_argument(
        "--ways", nargs="+", choices=("writer", "executemany", "unnest"), default=["writer"]
    )
    args = parser.parse_args()
    if not args.database_url:
        parser.error("no PostgreSQL: pass --database-url or run under scripts/with-postgres.sh")
    root = Path(args.server_root).resolve() if args.server_root else ROOT
    # Run as a file, bench/ would be first on sys.path (bench/queue.py shadows the standard
    # library's queue): the measured tree goes there instead.
    if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
        sys.path[0] = str(root)
    else:
        sys.path.insert(0, str(root))
    asyncio.run(measure(args.database_url, args.commits, args.rows, args.ways))


if __name__ == "__main__":
    main()
