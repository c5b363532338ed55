"""``bench/load.py --scrape-every S``: GET every server process's /metrics every S seconds
while the load runs, as Prometheus would (but more often), to see what scraping costs."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx


class Scraper:
    """Scrapes until stopped; ``figures()`` gives the count, bytes and latency of the scrapes."""

    def __init__(self, bases: tuple[str, ...], every_s: float) -> None:
        self.bases = bases
        self.every_s = every_s
        self.latencies_ms: list[float] = []
        self.bytes = 0
        self.failures = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> dict[str, Any]:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        return self.figures()

    async def _run(self) -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            while True:
                for base in self.bases:
                    started = time.perf_counter()
                    try:
                        reply = await client.get(f"{base}/metrics")
                        reply.raise_for_status()
                    except httpx.HTTPError:
                        self.failures += 1
                        continue
                    self.latencies_ms.append((time.perf_counter() - started) * 1000)
                    self.bytes += len(reply.content)
                await asyncio.sleep(self.every_s)

    def figures(self) -> dict[str, Any]:
        ordered = sorted(self.latencies_ms)

        def at(q: float) -> float:
            return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

        return {
            "every_s": self.every_s,
            "scrapes": len(ordered),
            "failures": self.failures,
            "bytes_per_scrape": self.bytes // len(ordered) if ordered else 0,
            "ms_p50": at(0.5) if ordered else None,
            "ms_max": round(ordered[-1], 2) if ordered else None,
        }
