"""What the grab-race arbiter decides about: claims, decisions, clamp kinds and codes."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from app.races.links import LinkStats

# Clamp kinds. The first three mean "the client claimed more than we can grant" and count
# towards the suspicion flag; ``late`` (claims a reaction longer than the time elapsed),
# ``monotone`` (a seat's times only increase), ``probation`` (a marker: the seat's cap has
# lost its tolerance) and ``probation_cap`` (clamped by that reduced cap alone) do not.
RTT_CAP = "rtt_cap"
MIN_REACTION = "min_reaction"
NO_REF = "no_ref"
LATE = "late"
MONOTONE = "monotone"
PROBATION = "probation"
PROBATION_CAP = "probation_cap"
SUSPECT_CLAMPS = frozenset({RTT_CAP, MIN_REACTION, NO_REF})

# Outcomes and codes (the engine's codes where they mean the same thing).
WON, LOST, REFUSED = "won", "lost", "refused"
NO_RACE = "ambush/no_race"
BEFORE_CALL = "ambush/before_call"
RACE_OVER = "ambush/race_over"
HAND_BUSY = "ambush/hand_busy"
SEAT_OUT = "ambush/seat_out"
TAKEN = "ambush/empty_cell"

CellKey = tuple[int, ...] | str


def cell_key(cell: Any) -> CellKey:
    """A hashable key for a JSON cell (``[x, y]``); anything else keys by its repr."""
    if isinstance(cell, list | tuple) and all(
        isinstance(c, int) and not isinstance(c, bool) for c in cell
    ):
        return tuple(cell)
    return repr(cell)


@dataclass
class Claim:
    """One grab with every input its decision depends on."""

    seat: int
    cell: Any
    arrival: float
    ref: int | None
    dt: float | None
    s_ref: float | None
    s_call: float | None
    link: LinkStats
    v_raw: float | None
    v: int
    clamps: list[str]
    order: int
    client_seq: int | None = None
    token: Any = None  # the caller's handle (a connection); never logged

    @property
    def key(self) -> CellKey:
        return cell_key(self.cell)

    def inputs(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "cell": self.cell,
            "client_seq": self.client_seq,
            "ref": self.ref,
            "dt": rounded(self.dt),
            "arrival": rounded(self.arrival),
            "s_ref": rounded(self.s_ref),
            "s_call": rounded(self.s_call),
            **self.link.to_json(),
            "v_raw": rounded(self.v_raw),
            "v": self.v,
            "clamp": list(self.clamps),
        }


@dataclass
class Decision:
    """What became of one claim: won, lost (someone was earlier) or refused (with a code)."""

    claim: Claim
    outcome: str
    code: str | None
    decided_at: float
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def won(self) -> bool:
        return self.outcome == WON


def rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def to_ms(value: float) -> int:
    return math.floor(value + 0.5)
