"""A match's state at any version for readers (REST), kept cheap and bounded.

The latest version of a match this process is playing comes from its live session (the view
it built for its own players). Any other version is rebuilt from the action log, and every
rebuild keeps a snapshot of the state each ``every`` versions: the next rebuild of that
match starts from the nearest snapshot at or below the version asked for, so it replays at
most ``every - 1`` logged actions. A version once logged never changes, so a snapshot of a
running match stays true. Rebuilds take turns (``read_gate.py``: one at a time, a short line,
then ``server/busy``) instead of sharing the CPU with the live matches, and give the event
loop back between chunks of ``every`` actions; snapshots are kept under a bound on memory,
least recently used dropped first.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from app.db.models import Match
from app.db.repositories import MatchRepository
from app.errors import NotFound
from app.jsonenc import encode_kept
from app.sessions.log_reads import LogLines
from app.sessions.read_gate import ReadGate
from app.sessions.session import GameSession
from engines import registry
from engines.base import Engine, State
from engines.playout import apply_entry

SNAPSHOT_EVERY = 64  # versions between the snapshots kept of a rebuilt match
KEPT_BYTES = 64 * 1024 * 1024  # encoded snapshots kept, all matches together


class Live(Protocol):
    """The matches this process plays (``Hub``): sessions and their tasks by match id."""

    sessions: dict[int, GameSession]
    tasks: dict[int, asyncio.Task[None]]


@dataclass
class Seen:
    """One read of a match: its version, the viewer's view, and the whole engine state when
    asked for (``whole``)."""

    version: int
    view: dict[str, Any]
    state: dict[str, Any] | None


@dataclass
class _Snapshots:
    """A match's kept snapshots: version -> the engine state's JSON, encoded."""

    by_version: dict[int, bytes] = field(default_factory=dict)
    size: int = 0


class MatchReads:
    """Reads of a match's state, served from the live session or from kept snapshots."""

    def __init__(
        self,
        live: Live,
        *,
        every: int = SNAPSHOT_EVERY,
        kept_bytes: int = KEPT_BYTES,
        gate: ReadGate | None = None,
    ) -> None:
        self.live = live
        self.every = every
        self.kept_bytes = kept_bytes
        self._kept: OrderedDict[int, _Snapshots] = OrderedDict()
        self._bytes = 0
        self.gate = gate or ReadGate()
        # Event logs as NDJSON text, encoded once per audience, taking the same turns.
        self.logs = LogLines(self.gate)
        self.replayed = 0  # logged actions applied by rebuilds, all told (tests, benches)

    def at_rest(self, match_id: int) -> GameSession | None:
        """The live session of the match when its state is its logged version: nothing in
        hand (an action applied but not yet durable would be ahead of the log) and its task
        not failed (the hub drops such a session in a moment)."""
        # Read only: a sleeping match is read from its log (its logged state is its latest).
        session = self.live.sessions.get(match_id)
        if session is None or not session.idle():
            return None
        task = self.live.tasks.get(match_id)
        if task is not None and task.done():
            return None
        return session

    async def latest(self, repo: MatchRepository, match: Match) -> int:
        """The match's last logged version."""
        session = self.at_rest(match.id)
        if session is not None:
            return session.version
        if match.status != "running":
            return match.version
        return await repo.latest_version(match.id)

    async def seen(
        self,
        repo: MatchRepository,
        match: Match,
        version: int | None,
        seat: int | None,
        *,
        whole: bool,
    ) -> Seen:
        """The match at ``version`` (None: the latest) as ``seat`` sees it (None: a
        spectator), with the whole engine state if ``whole``. Refuses ``match/no_version``.
        ``repo``: the reader's own (a rebuild takes no second database connection)."""
        session = self.at_rest(match.id)
        if session is not None and version in (None, session.version):
            state = session.engine.to_json(session.state) if whole else None
            return Seen(session.version, session.views.view_for(session, seat), state)
        latest = await self.latest(repo, match)
        if version is None:
            version = latest
        elif version > latest:
            raise NotFound("match/no_version", f"match {match.id} has no version {version}")
        engine = registry.get(match.game)
        async with self.gate.turn():
            rebuilt = await self._state_at(repo, engine, match, version)
        return Seen(version, engine.view(rebuilt, seat), engine.to_json(rebuilt) if whole else None)

    async def _state_at(
        self, repo: MatchRepository, engine: Engine, match: Match, version: int
    ) -> State:
        """The state at ``version``: from the nearest snapshot at or below it (else the
        setup), the logged actions applied ``every`` at a time, a snapshot kept at each
        multiple of ``every`` passed."""
        kept = self._kept.get(match.id)
        start = 0
        if kept is not None:
            self._kept.move_to_end(match.id)
            start = max((v for v in kept.by_version if v <= version), default=0)
        if start:
            assert kept is not None
            state = engine.from_json(orjson.loads(kept.by_version[start]))
        else:
            state = engine.setup(match.seat_count, match.seed, dict(match.options or {}))
        at = start
        while at < version:
            upto = min(version, at - at % self.every + self.every)
            entries = await repo.entries(match.id, after=at, upto=upto)
            if len(entries) != upto - at:
                raise RuntimeError(f"match {match.id}: log rows {at + 1}-{upto} missing")
            for entry in entries:
                apply_entry(engine, state, entry)
            self.replayed += len(entries)
            at = upto
            if at % self.every == 0:
                self._keep(match.id, at, engine.to_json(state))
            await asyncio.sleep(0)  # the live matches' turn between chunks
        return state

    def _keep(self, match_id: int, version: int, state: Mapping[str, Any]) -> None:
        kept = self._kept.get(match_id)
        if kept is None:
            kept = self._kept[match_id] = _Snapshots()
        self._kept.move_to_end(match_id)
        if version in kept.by_version:
            return
        encoded = encode_kept(state)  # its own size: what ``kept_bytes`` counts is what is held
        if len(encoded) > self.kept_bytes:
            return
        kept.by_version[version] = encoded
        kept.size += len(encoded)
        self._bytes += len(encoded)
        while self._bytes > self.kept_bytes:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= dropped.size

    def kept(self) -> tuple[int, int]:
        """(matches with snapshots kept, bytes kept)."""
        return len(self._kept), self._bytes
