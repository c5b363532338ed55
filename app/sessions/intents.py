"""What time has made due in a match, as ``Deadlines.due`` says it: one intent, for the session
to apply.

Each intent names work only; none holds or changes the engine's state. The session, the
match's one writer, applies it (``GameSession._apply_due``) and logs the change it makes, if
any.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tick:
    """The engine's own deadline (Ambush!'s reveal timer, say) has come: ``engine.tick`` at
    ``at_ms``. A tick that changes nothing is told back (``Deadlines.tick_changed_nothing``)
    so that ``deadline`` is not fired again until the match moves."""

    deadline: int
    at_ms: int


@dataclass(frozen=True)
class SettleRace:
    """A grab race's window has closed on a cell: the race desk settles it at ``now`` (precise
    match time), trying the claims in order with the session's apply."""

    now: float


@dataclass(frozen=True)
class TimeOut:
    """``seat``'s clock ran out and the table passes for it: ``action`` (its first legal
    action other than resigning) at ``at_ms``; should the engine refuse it, the seat is
    forfeited for time."""

    seat: int
    action: dict[str, Any]
    at_ms: int


@dataclass(frozen=True)
class Forfeit:
    """``seat`` resigns for ``reason``: "time" (its clock ran out and the table forfeits, or
    it has no action to pass with) or "abandoned" (away past the grace). A seat already out
    is skipped."""

    seat: int
    reason: str
    at_ms: int


@dataclass(frozen=True)
class BotMove:
    """A server bot's planned action, at the time it planned (its reaction); should the
    engine refuse it, the bot tries again later (``Deadlines.bot_refused``)."""

    seat: int
    action: dict[str, Any]
    at_ms: int


Due = Tick | SettleRace | TimeOut | Forfeit | BotMove
