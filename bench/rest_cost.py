"""The server's CPU per REST request of a table's opening, in one process without sockets.

``bench/table_rate.py`` measures a real server under an httpx client on the same two cores:
the client spends as much CPU as the server (twice as much per table with 25 connections as
with one), and the figures drift with whatever else the machine runs. This calls the
application as ASGI, with no client, socket or HTTP parser, and counts the process's CPU
(``time.process_time``) around each call, so it measures the server's own path from the
middleware to the database and back:

    .venv/bin/python bench/rest_cost.py                    # one table at a time, per request
    .venv/bin/python bench/rest_cost.py --concurrency 25   # 25 tables opening at once
    .venv/bin/python bench/rest_cost.py --root /work/other-worktree

A table is what ``bench/loadgen/lobbies.open_table`` opens: four guest accounts, a lobby,
three joins and the start. Limits are as ``table_rate.py`` sets them (per address lifted,
new tables per account counted). One at a time it prints the best of ``--repeat`` rounds per
request kind; with ``--concurrency`` it prints the CPU per table of each round and how many
database connections the pool opened during it (an open connection is a thread and a file).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the checkout measured there instead (``--root``, else this one).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(
        Path(sys.argv[sys.argv.index("--root") + 1])
        if "--root" in sys.argv[:-1]
        else Path(__file__).resolve().parent.parent
    )

import argparse
import asyncio
import json
import logging
import os
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("account", "lobby", "join", "start")
PER_TABLE = {"account": 4, "lobby": 1, "join": 3, "start": 1}

Call = Callable[[str, str, str, dict[str, Any], str | None], Awaitable[dict[str, Any]]]


def environment(database: Path) -> dict[str, str]:
    """The settings of ``table_rate.py``'s server, on a fresh SQLite file."""
    return {
        "DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "RAMPART_BENCH_GAMES": "1",
        "RAMPART_ACCOUNT_ADDRESS_LIMIT": "",
        "RAMPART_TABLE_ADDRESS_LIMIT": "",
        "RAMPART_READ_ADDRESS_LIMIT": "",
    }


def asgi_caller(app: Any, spent: defaultdict[str, float], calls: Counter[str]) -> Call:
    """``call(kind, method, path, body, token)``: one request through the whole application,
    its CPU added to ``spent[kind]``; returns the JSON reply (a failure stops the run)."""

    async def call(
        kind: str, method: str, path: str, body: dict[str, Any], token: str | None
    ) -> dict[str, Any]:
        raw = json.dumps(body).encode()
        headers = [
            (b"host", b"bench"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(raw)).encode()),
        ]
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
            "state": {},
        }
        sent: list[dict[str, Any]] = []
        delivered = False

        async def receive() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": raw, "more_body": False}
            await asyncio.Event().wait()  # the client never goes away
            raise AssertionError("unreachable")

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        started = time.process_time()
        await app(scope, receive, send)
        spent[kind] += time.process_time() - started
        calls[kind] += 1
        status = sent[0]["status"]
        reply = b"".join(m.get("body", b"") for m in sent[1:])
        if status >= 300:
            raise SystemExit(f"{method} {path}: {status} {reply[:300]!r}")
        return dict(json.loads(reply))

    return call


async def open_table(call: Call, names: str) -> None:
    tokens = [
        (await call("account", "POST", "/api/accounts", {"name": f"{names}s{s}"}, None))["token"]
        for s in range(4)
    ]
    lobby = {"game": "tally", "seats": 4, "options": {}}
    table = await call("lobby", "POST", "/api/lobbies", lobby, tokens[0])
    for s in range(1, 4):
        await call("join", "POST", f"/api/lobbies/{table['id']}/join", {}, tokens[s])
    await call("start", "POST", f"/api/lobbies/{table['id']}/start", {}, tokens[0])


async def measure(args: argparse.Namespace) -> None:
    from sqlalchemy import event
    from sqlalchemy.pool import Pool

    from app.config import get_settings
    from app.main import create_app

    opened = [0]
    event.listen(Pool, "connect", lambda *_: opened.__setitem__(0, opened[0] + 1))
    spent: defaultdict[str, float] = defaultdict(float)
    calls: Counter[str] = Counter()
    app = create_app(get_settings())
    call = asgi_caller(app, spent, calls)
    async with app.router.lifespan_context(app):
        for k in range(args.warmup):
            await open_table(call, f"w{k}")
        for round_ in range(args.repeat):
            spent.clear()
            calls.clear()
            opened[0] = 0
            numbers = iter(range(args.tables))

            async def worker(round_: int = round_, numbers: Any = numbers) -> None:
                for k in numbers:
                    await open_table(call, f"r{round_}t{k}")

            started = time.process_time()
            await asyncio.gather(*(worker() for _ in range(args.concurrency)))
            per_table = (time.process_time() - started) * 1000 / args.tables
            kinds = " ".join(f"{kind} {spent[kind] * 1e6 / calls[kind]:.0f}" for kind in KINDS)
            if args.concurrency == 1:
                print(
                    f"round {round_ + 1}: {per_table:.2f} ms CPU per table; µs per request: {kinds}"
                )
            else:
                print(
                    f"round {round_ + 1}: {per_table:.2f} ms CPU per table, "
                    f"{args.concurrency} at once; connections opened: {opened[0]}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables per round")
    parser.add_argument("--concurrency", type=int, default=1, help="tables opening at once")
    parser.add_argument("--repeat", type=int, default=3, help="rounds")
    parser.add_argument("--warmup", type=int, default=40, help="tables opened first")
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose app runs")
    args = parser.parse_args()
    os.chdir(Path(args.root).resolve())
    folder = Path(tempfile.mkdtemp(prefix="rampart-rest-cost-"))
    os.environ.update(environment(folder / "rampart.db"))
    logging.disable(logging.WARNING)  # the warm-up's notices are not the figures
    from app.__main__ import migrate

    migrate(os.environ["DATABASE_URL"])
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
