"""Quick-play queue bench: 2,000 tickets arriving over 60 s against a real server.

Players get Glicko-2 ratings from a realistic spread (normal around 1500, sd 350; 30 % of
them provisional with a wide deviation), written to the ``ambush`` game ladder before the
run. Each player asks for a rated duel once, at a Poisson arrival time. Afterwards every
ticket is read once: its wait is the server's ``waited_s``, and each match's rating gap is
computed from the ratings the queue paired by (``queue_rating``). Prints the wait p50/p95,
the rating gap p50/p95, the server's CPU per matched ticket and what was left unmatched.

    .venv/bin/python -m bench.queue [--tickets 2000] [--seconds 60] [--seed 22]
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
import random
import sqlite3
import tempfile
import time
from typing import Any

import httpx

from app.matchmaking.service import queue_rating
from app.scoring.ratings import SkillRating
from bench.loadgen.probes import cpu_seconds, free_port, percentile
from bench.loadgen.servers import rampart_running, wait_up

GAME = "ambush"
DRAIN_S = 60.0  # after the last arrival, how long the queue may take to empty


def draw_rating(rng: random.Random) -> SkillRating:
    """One player's Glicko-2 rating: 70 % settled, 30 % provisional."""
    mu = min(3000.0, max(400.0, rng.gauss(1500.0, 350.0)))
    if rng.random() < 0.3:
        return SkillRating("glicko2", mu, rng.uniform(150.0, 350.0), games=rng.randrange(5))
    return SkillRating("glicko2", mu, rng.uniform(45.0, 100.0), games=rng.randrange(5, 300))


async def request(
    http: httpx.AsyncClient, method: str, path: str, token: str | None = None, body: Any = None
) -> httpx.Response:
    """One request, sent again (up to twice) when a kept-alive connection the server had just
    closed fails under it."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    for attempt in range(3):
        try:
            return await http.request(method, path, json=body, headers=headers)
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def make_players(http: httpx.AsyncClient, count: int) -> list[tuple[int, str]]:
    """``count`` guests: (account id, token)."""
    gate = asyncio.Semaphore(16)

    async def one(index: int) -> tuple[int, str]:
        async with gate:
            reply = await request(http, "POST", "/api/accounts", body={"name": f"qb{index}"})
            reply.raise_for_status()
            data = reply.json()
            return int(data["account"]["id"]), str(data["token"])

    return list(await asyncio.gather(*(one(i) for i in range(count))))


def seed_ratings(db_path: Path, ladder_id: int, ratings: dict[int, SkillRating]) -> None:
    """The players' entries on the game ladder, written straight into the database."""
    with sqlite3.connect(db_path, timeout=30) as db:
        db.executemany(
            "INSERT INTO ladder_entries (ladder_id, account_id, bot, name, points, played,"
            " wins, draws, losses, ratings, updated_at)"
            " VALUES (?, ?, NULL, ?, 1500, ?, 0, 0, 0, ?, datetime('now'))",
            [
                (ladder_id, account, f"qb{account}", r.games, json.dumps({"glicko2": r.to_json()}))
                for account, r in ratings.items()
            ],
        )


async def run(tickets: int, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    port = free_port()
    workdir = Path(tempfile.mkdtemp(prefix="rampart-queue-"))
    db_path = workdir / "rampart.db"
    with rampart_running(port, f"sqlite+aiosqlite:///{db_path}") as process:
        base = f"http://127.0.0.1:{port}"
        await wait_up(base, process)
        limits = httpx.Limits(max_connections=64)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
            players = await make_players(http, tickets)
            ladders = (await http.get("/api/ladders", params={"game": GAME})).json()
            ladder = next(item for item in ladders if item["kind"] == "game")
            ratings = {account: draw_rating(rng) for account, _ in players}
            seed_ratings(db_path, int(ladder["id"]), ratings)
            arrivals = sorted(rng.uniform(0, seconds) for _ in players)
            issued: list[tuple[int, str, str]] = []
            refused = 0
            cpu_start = cpu_seconds(process.pid)
            start = time.monotonic()

            async def arrive(at: float, account: int, token: str) -> None:
                nonlocal refused
                await asyncio.sleep(max(0.0, start + at - time.monotonic()))
                body = {"game": GAME, "seats": 2, "rated": True}
                reply = await request(http, "POST", "/api/queue", token, body)
                if reply.status_code != 202:
                    refused += 1
                    return
                issued.append((account, token, reply.json()["ticket"]))

            await asyncio.gather(
                *(arrive(at, a, t) for at, (a, t) in zip(arrivals, players, strict=True))
            )
            # Read every ticket once, then only those still waiting, until none is.
            states = await read_all(http, issued)
            deadline = time.monotonic() + DRAIN_S
            while time.monotonic() < deadline:
                waiting = [i for i, s in enumerate(states) if s["status"] == "waiting"]
                if not waiting:
                    break
                await asyncio.sleep(2)
                fresh = await read_all(http, [issued[i] for i in waiting])
                for index, state in zip(waiting, fresh, strict=True):
                    states[index] = state
            cpu = cpu_seconds(process.pid) - cpu_start
            elapsed = time.monotonic() - start
    return figures(issued, states, ratings, cpu, elapsed, refused)


async def read_all(
    http: httpx.AsyncClient, issued: list[tuple[int, str, str]]
) -> list[dict[str, Any]]:
    gate = asyncio.Semaphore(32)

    async def one(token: str, ticket: str) -> dict[str, Any]:
        async with gate:
            reply = await request(http, "GET", f"/api/queue/{ticket}", token)
            data: dict[str, Any] = reply.json()
            return data

    return list(await asyncio.gather(*(one(token, ticket) for _, token, ticket in issued)))


def figures(
    issued: list[tuple[int, str, str]],
    states: list[dict[str, Any]],
    ratings: dict[int, SkillRating],
    cpu: float,
    elapsed: float,
    refused: int,
) -> dict[str, Any]:
    matched = [(i, s) for i, s in zip(issued, states, strict=True) if s["status"] == "matched"]
    waits = sorted(float(s["waited_s"]) for _, s in matched)
    by_match: dict[int, list[float]] = {}
    for (account, _, _), state in matched:
        by_match.setdefault(int(state["match_id"]), []).append(queue_rating(ratings[account]))
    gaps = sorted(max(group) - min(group) for group in by_match.values())
    return {
        "tickets": len(issued),
        "refused": refused,
        "matched": len(matched),
        "unmatched": len(issued) - len(matched),
        "matches": len(by_match),
        "wait_s_p50": percentile(waits, 50),
        "wait_s_p95": percentile(waits, 95),
        "wait_s_max": round(waits[-1], 1) if waits else 0.0,
        "gap_p50": percentile(gaps, 50),
        "gap_p95": percentile(gaps, 95),
        "server_cpu_s": round(cpu, 2),
        "cpu_ms_per_matched_ticket": round(1000 * cpu / max(1, len(matched)), 2),
        "elapsed_s": round(elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tickets", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.tickets, args.seconds, args.seed)), indent=2))


if __name__ == "__main__":
    main()
