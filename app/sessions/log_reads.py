"""A match's event log as text for readers (REST NDJSON), encoded once and kept.

A logged version never changes, and neither does what one audience (a seat, the spectators,
or everyone once the match is over) may read of it, so the encoded lines of a match's log
are kept per audience and a later read encodes only the versions logged since. The first
read of a long log reads it ``PAGE`` rows at a time, giving the event loop back between
pages, taking turns with state rebuilds (``read_gate.py``); the lines kept are bounded in
memory, least recently used dropped first.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from app.db.models import MatchAction
from app.db.repositories import MatchRepository
from app.sessions.read_gate import ReadGate

PAGE = 256  # log rows read and encoded at a time
KEPT_CHARS = 64 * 1024 * 1024  # encoded lines kept, all logs together


@dataclass
class _Lines:
    """One audience's encoded lines of one match, through ``version``, in chunks."""

    version: int = 0
    chunks: list[str] = field(default_factory=list)
    size: int = 0


class LogLines:
    """Encoded log lines per (match, audience), kept under a bound on memory."""

    def __init__(self, gate: ReadGate, kept_chars: int = KEPT_CHARS) -> None:
        self.gate = gate
        self.kept_chars = kept_chars
        self._kept: OrderedDict[tuple[int, Hashable], _Lines] = OrderedDict()
        self._chars = 0
        self.encoded = 0  # rows encoded, all told (tests, benches)

    async def lines(
        self,
        repo: MatchRepository,
        match_id: int,
        audience: Hashable,
        encode: Callable[[MatchAction], str],
    ) -> list[str]:
        """The match's log as ``audience`` reads it, every version logged so far: chunks of
        lines (``encode`` makes one line of one row, newline included). ``audience`` must
        name everything ``encode`` depends on."""
        key = (match_id, audience)
        kept = self._kept.get(key)
        if kept is None:
            kept = _Lines()
        latest = await repo.latest_version(match_id)
        if kept.version < latest:
            async with self.gate.turn():
                while kept.version < latest:
                    rows = await repo.actions_page(match_id, after=kept.version, limit=PAGE)
                    # Another reader may have encoded some of them while this one waited.
                    fresh = [row for row in rows if row.version > kept.version]
                    if not fresh:
                        break
                    chunk = "".join(encode(row) for row in fresh)
                    self.encoded += len(fresh)
                    kept.chunks.append(chunk)
                    kept.version = fresh[-1].version
                    kept.size += len(chunk)
                    if self._kept.get(key) is kept:
                        self._chars += len(chunk)
                    await asyncio.sleep(0)  # the live matches' turn between pages
        chunks = list(kept.chunks)
        self._remember(key, kept)
        return chunks

    def _remember(self, key: tuple[int, Hashable], kept: _Lines) -> None:
        if self._kept.get(key) is not kept:
            if key in self._kept:  # two first reads raced (or it was dropped meanwhile)
                self._chars -= self._kept.pop(key).size
            self._kept[key] = kept
            self._chars += kept.size
        self._kept.move_to_end(key)
        while self._chars > self.kept_chars and self._kept:
            _, dropped = self._kept.popitem(last=False)
            self._chars -= dropped.size
