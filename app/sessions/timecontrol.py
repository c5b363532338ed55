"""Table time controls: turn clocks, match banks, what a time-out does, the disconnect grace;
correspondence tables (days per move)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.errors import AppError

ON_TIMEOUT = ("pass", "forfeit")
# A correspondence table's choices of days per move, and a day in ms.
DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)
DAY_MS = 86_400_000
# Games played only with everyone at the table at once: Ambush!'s grab races are won by the
# fastest hand, so a seat that answers a day later cannot take part. No correspondence.
REALTIME_ONLY_GAMES = frozenset({"ambush"})
REALTIME_ONLY = (
    "{game} is real-time only: its grab races need everyone at the table at once, "
    "so it has no days-per-move time control"
)


@dataclass(frozen=True)
class TimeControl:
    """``turn_ms``: each turn's clock; ``match_ms``: each seat's bank for the whole match (None:
    no such clock). ``grace_ms`` 0: disconnected seats never forfeit.

    ``days_per_move`` (a correspondence table, stored as ``{"days_per_move": N}``): each
    seat's turn clock is N days of wall-clock time, a seat out of time forfeits, and nobody
    forfeits for being away (no grace)."""

    turn_ms: int | None = None
    match_ms: int | None = None
    on_timeout: str = "pass"
    grace_ms: int = 60_000
    days_per_move: int | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, default_grace_ms: int) -> TimeControl:
        data = data or {}
        days = data.get("days_per_move")
        if days is not None:
            return cls.by_correspondence(int(days))
        grace = data.get("grace_ms")
        return cls(
            turn_ms=data.get("turn_ms"),
            match_ms=data.get("match_ms"),
            on_timeout=str(data.get("on_timeout", "pass")),
            grace_ms=default_grace_ms if grace is None else int(grace),
        )

    @classmethod
    def by_correspondence(cls, days: int) -> TimeControl:
        return cls(turn_ms=days * DAY_MS, on_timeout="forfeit", grace_ms=0, days_per_move=days)

    @property
    def clocked(self) -> bool:
        return self.turn_ms is not None or self.match_ms is not None

    @property
    def correspondence(self) -> bool:
        """Days per move: deadlines are wall-clock days, kept across restarts and sleep."""
        return self.days_per_move is not None


def is_correspondence(time_control: Mapping[str, Any] | None) -> bool:
    """Whether a stored time control (a match's, a lobby's, a ticket's) is correspondence."""
    return time_control is not None and time_control.get("days_per_move") is not None


def realtime_only_refusal(
    game: str, time_control: Mapping[str, Any] | None, area: str
) -> AppError | None:
    """The refusal (``<area>/realtime_only``, 422) of a correspondence table, ticket or
    tournament of a game played only in real time (``REALTIME_ONLY_GAMES``), else None."""
    if game in REALTIME_ONLY_GAMES and is_correspondence(time_control):
        return AppError(f"{area}/realtime_only", REALTIME_ONLY.format(game=game), status=422)
    return None


@dataclass
class TurnClocks:
    """Per-seat clocks in match ms: a seat's clock runs while the game awaits it.

    A turn clock restarts whenever the seat acts; a match bank only drains. A seat's deadline
    is whichever runs out first. Replaying the log through ``update`` (with each row's
    ``at_ms``) rebuilds the banks after a restart; ``restart`` then forgives the downtime of
    a real-time table, never a correspondence one (match time follows wall time across a
    restart, ``app.sessions.clock``, so its deadlines stay the same days of the calendar).
    """

    control: TimeControl
    deadlines: dict[int, int] = field(default_factory=dict)
    banks: dict[int, int] = field(default_factory=dict)
    running_since: dict[int, int] = field(default_factory=dict)

    @classmethod
    def resumed(
        cls, control: TimeControl, running_since: Mapping[int, int], banks: Mapping[int, int]
    ) -> TurnClocks:
        """Clocks as they were kept (a sleeping match's: each running seat's start and each
        seat's bank, in match ms), their deadlines computed again."""
        clocks = cls(control)
        clocks.resume(running_since, banks)
        return clocks

    def resume(self, running_since: Mapping[int, int], banks: Mapping[int, int]) -> None:
        """Take back the clocks as they were kept (each running seat's start, each seat's
        bank, in match ms), and compute their deadlines again."""
        self.running_since.clear()
        self.running_since.update(running_since)
        self.banks.update(banks)
        self.recompute()

    def update(self, awaiting: Iterable[int], now_ms: int, acted: int | None) -> bool:
        """Start clocks for newly awaited seats, restart the acting seat's turn, stop the
        others. Returns whether any deadline changed (the session then sends ``clock``)."""
        if not self.control.clocked:
            return False
        waiting = set(awaiting)
        for seat in list(self.running_since):
            if seat not in waiting or seat == acted:
                self._spend(seat, now_ms)
        for seat in waiting:
            self.running_since.setdefault(seat, now_ms)
        return self.recompute()

    def stop(self, seat: int, now_ms: int) -> None:
        """Stop ``seat``'s clock (it timed out or left the game)."""
        if seat in self.running_since:
            self._spend(seat, now_ms)
        self.deadlines.pop(seat, None)

    def restart(self, now_ms: int) -> None:
        """Running clocks resume from ``now_ms``: time the server was down is not charged.
        A correspondence table's clocks keep running: days are days, the server up or not."""
        if self.control.correspondence:
            return
        for seat in self.running_since:
            self.running_since[seat] = now_ms
        self.recompute()

    def clear(self) -> None:
        self.running_since.clear()
        self.deadlines.clear()

    def remaining(self, seat: int, now_ms: int) -> int | None:
        if self.control.match_ms is None:
            return None
        bank = self.banks.get(seat, self.control.match_ms)
        since = self.running_since.get(seat)
        return max(0, bank - (now_ms - since)) if since is not None else bank

    def _spend(self, seat: int, now_ms: int) -> None:
        since = self.running_since.pop(seat)
        if self.control.match_ms is not None:
            bank = self.banks.get(seat, self.control.match_ms)
            self.banks[seat] = max(0, bank - max(0, now_ms - since))

    def recompute(self) -> bool:
        """Each running seat's deadline again from its start and bank; whether any changed."""
        before = self.deadlines
        self.deadlines = {}
        for seat, since in self.running_since.items():
            candidates = []
            if self.control.turn_ms is not None:
                candidates.append(since + self.control.turn_ms)
            if self.control.match_ms is not None:
                candidates.append(since + self.banks.get(seat, self.control.match_ms))
            self.deadlines[seat] = min(candidates)
        return before != self.deadlines

    def due(self, now_ms: int) -> list[int]:
        return sorted(seat for seat, at in self.deadlines.items() if at <= now_ms)

    def next_due(self) -> int | None:
        # Not ``min(..., default=None)``: compiled, a keyword argument to a builtin is a
        # generic call, ten times the cost of this test (asked after every move).
        return min(self.deadlines.values()) if self.deadlines else None

    def message(self, now: int, seats: int) -> dict[str, Any]:
        """The ``clock`` message: every running deadline, each seat's bank if banked, and a
        correspondence table's days per move."""
        message: dict[str, Any] = {
            "type": "clock",
            "now_ms": now,
            "deadlines": {str(seat): at for seat, at in sorted(self.deadlines.items())},
            "turn_ms": self.control.turn_ms,
        }
        if self.control.match_ms is not None:
            message["banks"] = {str(seat): self.remaining(seat, now) for seat in range(seats)}
        if self.control.days_per_move is not None:
            message["days_per_move"] = self.control.days_per_move
        return message
