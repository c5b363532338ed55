"""The grab path: a ``grab`` message becomes a timed engine action through the arbiter.

The gateway stamps each grab's arrival on the match clock (``grab_input``); the session hands
it to its ``RaceDesk`` (``app/sessions/races.py``), whose arbiter (``app/races/arbiter.py``)
turns ``ref`` and ``dt`` into an arbitrated time ``V = S_ref + dt`` clamped by the measured
link, holds contested cells, and decides; the winner is applied with ``at_ms = V``. A game
without grab races applies a grab in arrival order, logged with ``arbitration_record``.
"""

from __future__ import annotations

from typing import Any

from app.realtime.messages import Grab
from app.sessions.commands import GrabInput


def grab_action(message: Grab) -> dict[str, Any]:
    """The engine action for a grab message."""
    return {"type": "grab", "cell": message.cell}


def grab_input(message: Grab, arrival: float) -> GrabInput:
    """What the arbiter needs from the message, with its arrival on the match clock."""
    return GrabInput(ref=message.ref, dt=message.dt, arrival=arrival)


def arbitration_record(message: Grab, rtt_min_ms: float | None) -> dict[str, Any]:
    """The inputs of a grab applied in arrival order (games without an arbiter)."""
    return {"mode": "arrival", "ref": message.ref, "dt": message.dt, "rtt_min": rtt_min_ms}
