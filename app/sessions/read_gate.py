"""The turn of a read that rebuilds or encodes a match's log: a few at once, a short line.

A read served from what is kept costs no turn. One that must replay or encode part of a log
(``reads.py``, ``log_reads.py``) takes one: ``at_once`` run, up to ``waiting`` more wait
(each holding its request's database connection), and beyond that a reader is refused
``server/busy`` (503, retry in a second) at once rather than pile up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from app.errors import AppError

AT_ONCE = 1
WAITING = 8


class ReadsBusy(AppError):
    """503: more rebuilding reads are waiting than the line holds."""

    status = 503
    headers = {"Retry-After": "1"}

    def __init__(self) -> None:
        super().__init__("server/busy", "too many match replays at once; retry in a moment")


class ReadGate:
    """``at_once`` turns, ``waiting`` places in line."""

    def __init__(self, at_once: int = AT_ONCE, waiting: int = WAITING) -> None:
        self._turns = asyncio.Semaphore(at_once)
        self.limit = at_once + waiting
        self.admitted = 0  # running or waiting

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Hold a turn for the block; raises ``ReadsBusy`` when the line is full."""
        if self.admitted >= self.limit:
            raise ReadsBusy()
        self.admitted += 1
        try:
            async with self._turns:
                yield
        finally:
            self.admitted -= 1
