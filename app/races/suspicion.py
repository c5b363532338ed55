"""Suspicion flags of a match's grab races, kept per seat."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

# Step 8: flag a seat whose grabs hit the clamp more than 25% of the time, or whose median
# reaction to calls is under 150 ms; with fewer samples than these, nothing is concluded.
FLAG_CLAMP_SHARE = 0.25
FLAG_MEDIAN_REACTION_MS = 150
FLAG_MIN_GRABS = 8
FLAG_MIN_REACTIONS = 5


@dataclass
class SeatStats:
    """What step 8 looks at for one seat, over the whole match."""

    grabs: int = 0
    suspect_clamps: int = 0
    reactions: list[int] = field(default_factory=list)

    def clamped_too_often(self) -> bool:
        share = self.suspect_clamps / self.grabs if self.grabs else 0.0
        return self.grabs >= FLAG_MIN_GRABS and share > FLAG_CLAMP_SHARE

    def to_json(self) -> dict[str, Any]:
        reasons = []
        share = self.suspect_clamps / self.grabs if self.grabs else 0.0
        median = statistics.median(self.reactions) if self.reactions else None
        if self.clamped_too_often():
            reasons.append("clamped")
        enough = len(self.reactions) >= FLAG_MIN_REACTIONS
        if enough and median is not None and median < FLAG_MEDIAN_REACTION_MS:
            reasons.append("fast_reactions")
        return {
            "grabs": self.grabs,
            "clamped": self.suspect_clamps,
            "clamped_share": round(share, 3),
            "calls_reacted": len(self.reactions),
            "median_reaction_ms": median,
            "reasons": reasons,
        }


def suspicion_flags(stats: dict[int, SeatStats]) -> dict[str, Any]:
    """``{"flagged": [seats], "seats": {seat: figures}}`` for the match record."""
    seats = {str(seat): stats[seat].to_json() for seat in sorted(stats)}
    flagged = [int(seat) for seat, figures in seats.items() if figures["reasons"]]
    return {"flagged": flagged, "seats": seats}
