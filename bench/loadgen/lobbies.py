"""Tables opened over REST: the load's own set-up, and lobby traffic beside the moves.

A table opens as a player's browser opens one: four guest accounts, a lobby, three joins and
the start (``open_table``). The load generator opens its matches this way before the window;
with ``--open-rate R`` it also opens R more tables a second during the window
(``open_during``), whose seats never connect, so that the report shows what lobby traffic
costs the server and the moves beside it (a tournament round starting, friends opening
tables while other matches play).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx

from bench.loadgen.probes import percentile


def checked(reply: httpx.Response) -> dict[str, Any]:
    """The JSON of a successful REST reply; an error (status and body) otherwise."""
    if reply.status_code >= 300:
        raise RuntimeError(f"{reply.request.url.path}: {reply.status_code} {reply.text[:200]}")
    body: dict[str, Any] = reply.json()
    return body


async def open_table(
    http: httpx.AsyncClient,
    game: str,
    names: str,
    timed: Callable[[float], None] | None = None,
) -> tuple[int, list[str]]:
    """Open and start a 4-seat table of ``game`` for four new guests named ``{names}s0`` to
    ``{names}s3``; returns the match id and the seats' tokens. ``timed`` hears each
    request's latency (ms)."""

    async def post(path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {token}"} if token else None
        started = time.perf_counter()
        reply = await http.post(path, json=body, headers=headers)
        if timed is not None:
            timed((time.perf_counter() - started) * 1000)
        return checked(reply)

    tokens = [(await post("/api/accounts", {"name": f"{names}s{s}"}))["token"] for s in range(4)]
    lobby = await post("/api/lobbies", {"game": game, "seats": 4, "options": {}}, tokens[0])
    for s in range(1, 4):
        await post(f"/api/lobbies/{lobby['id']}/join", {}, tokens[s])
    started = await post(f"/api/lobbies/{lobby['id']}/start", {}, tokens[0])
    return int(started["match_id"]), tokens


class LobbyTraffic:
    """``rate`` tables a second opened over REST from ``start`` to ``end`` (monotonic time),
    each on its own task so that a slow reply does not slow the pace."""

    def __init__(self, base: str, game: str, rate: float, worker: int) -> None:
        self.base, self.game, self.rate, self.worker = base, game, rate, worker
        self.latencies: list[float] = []
        self.opened = 0
        self.failed = 0
        self.first_failure: str | None = None

    async def open_during(self, start: float, end: float) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=60) as http:
            tables: list[asyncio.Task[None]] = []
            k = 0
            while (due := start + k / self.rate) < end:
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                tables.append(asyncio.create_task(self._open(http, k)))
                k += 1
            await asyncio.gather(*tables)

    async def _open(self, http: httpx.AsyncClient, k: int) -> None:
        try:
            await open_table(http, self.game, f"w{self.worker}o{k}", self.latencies.append)
        except Exception as failure:  # counted and shown once, never fatal to the run
            self.failed += 1
            self.first_failure = self.first_failure or repr(failure)[:300]
        else:
            self.opened += 1

    def report(self) -> dict[str, Any]:
        return {
            "tables_opened": self.opened,
            "tables_failed": self.failed,
            "first_failure": self.first_failure,
            "latencies": [round(v, 3) for v in self.latencies],
        }


def merged_rest(reports: list[dict[str, Any]], window_s: float) -> dict[str, Any] | None:
    """The workers' lobby traffic as one entry of the result; None when there was none."""
    rest = [r["rest"] for r in reports if r.get("rest")]
    if not rest:
        return None
    samples = sorted(v for r in rest for v in r["latencies"])
    opened = sum(r["tables_opened"] for r in rest)
    return {
        "tables_opened": opened,
        "tables_opened_per_s": round(opened / window_s, 2) if window_s else 0.0,
        "tables_failed": sum(r["tables_failed"] for r in rest),
        "first_failure": next((r["first_failure"] for r in rest if r["first_failure"]), None),
        "requests": len(samples),
        "latency_ms": {
            "p50": percentile(samples, 50),
            "p95": percentile(samples, 95),
            "p99": percentile(samples, 99),
            "max": round(samples[-1], 2) if samples else 0.0,
        },
    }
