"""Rating pools: real-time and correspondence play are rated apart, each on ladders of its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

Pool = Literal["realtime", "correspondence"]
POOLS: tuple[Pool, ...] = ("realtime", "correspondence")
# What the ladders created before pools existed are, and what a listing shows unless asked.
DEFAULT_POOL: Pool = "realtime"


def pool_of(time_control: Mapping[str, Any] | None) -> Pool:
    """The pool a table's stored time control rates in: ``correspondence`` for days per move
    (``app.sessions.timecontrol.TimeControl.correspondence``), else ``realtime``. A player
    who answers once a day and one who answers in seconds show different skills: a rating
    earned in one would mislead the pairing and the seeding of the other."""
    if time_control and time_control.get("days_per_move") is not None:
        return "correspondence"
    return "realtime"
