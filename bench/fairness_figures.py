"""The fairness harness's scoring: races rebuilt from the event export, and the figures for
the arbiter and the first-arrival baseline."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from bench.fairness_tables import Grab, Player, Table

BUCKETS = (("25+", 25.0, 1e9), ("10-25", 10.0, 25.0), ("0-10", 0.0, 10.0))
# Clamps that moved an honest grab's V (the arbiter's own suspicion count is narrower).
SUSPECT = {"rtt_cap", "probation_cap", "min_reaction", "no_ref", "late"}
UNJUDGED = {"ambush/before_call", "ambush/race_over", "ambush/no_race"}


def claims_of(log: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]]:
    """Every decided claim in the export, by (seat, client_seq)."""
    claims: dict[tuple[int, int], dict[str, Any]] = {}
    for line in log:
        for record in (line.get("arbitration") or {}).get("decisions", []):
            for claim in record.get("claims", []):
                if claim.get("client_seq") is not None:
                    claims[(claim["seat"], claim["client_seq"])] = {
                        **claim,
                        "decided_at": record.get("decided_at"),
                    }
    return claims


@dataclass
class Race:
    players: list[Player]
    truth: int  # the truly fastest seat
    gap: float
    arbiter: int | None
    first_arrival: int
    claims: list[tuple[Player, dict[str, Any]]]


def races_of(table: Table, claims: dict[tuple[int, int], dict[str, Any]]) -> list[Race]:
    by_call: dict[int, list[Grab]] = defaultdict(list)
    for grab in table.grabs:
        if grab.primary and (grab.seat, grab.client_seq) in claims:
            by_call[grab.call_version].append(grab)
    races = []
    for grabs in by_call.values():
        if len(grabs) < 2:
            continue
        ordered = sorted(grabs, key=lambda g: g.reaction_ms)
        decided = [(g, claims[(g.seat, g.client_seq)]) for g in grabs]
        winners = [g.seat for g, c in decided if c["outcome"] == "won"]
        first = min(decided, key=lambda pair: pair[1]["arrival"])[0].seat
        races.append(
            Race(
                table.players,
                ordered[0].seat,
                ordered[1].reaction_ms - ordered[0].reaction_ms,
                winners[0] if winners else None,
                first,
                [(table.players[g.seat], c) for g, c in decided],
            )
        )
    return races


def share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def figures(races: list[Race], honest_claims: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    def winner(race: Race) -> int | None:
        return race.arbiter if mode == "arbiter" else race.first_arrival

    correct = {}
    for name, low, high in BUCKETS:
        inside = [r for r in races if low <= r.gap < high]
        correct[name] = share(sum(winner(r) == r.truth for r in inside), len(inside))
    wins: dict[str, int] = defaultdict(int)
    fastest: dict[str, int] = defaultdict(int)
    for race in races:
        fastest[race.players[race.truth].klass] += 1
        won = winner(race)
        if won is not None:
            wins[race.players[won].klass] += 1
    fair = {k: share(wins[k], fastest[k]) for k in sorted(fastest)}
    clamped = sum(bool(SUSPECT.intersection(c.get("clamp", []))) for c in honest_claims)
    liars = {p.klass for r in races for p in r.players if p.lie_ms}
    gain = None
    for klass in liars:
        gain = share(wins[klass], fastest[klass])
    return {
        "correct_by_gap": correct,
        "fair_share": fair,
        "clamped_honest": (share(clamped, len(honest_claims)) or 0.0) if mode == "arbiter" else 0.0,
        "cheater_gain": gain,
    }


def details(
    races: list[Race], honest: list[dict[str, Any]], liar: list[tuple[Player, dict[str, Any]]],
    records: list[dict[str, Any]],
) -> dict[str, Any]:  # fmt: skip
    """What the figures rest on: counts, the window's cost, the cheater's edge in ms."""
    counts = {name: sum(low <= r.gap < high for r in races) for name, low, high in BUCKETS}
    waits = [c["decided_at"] - c["arrival"] for r in races for _, c in r.claims
             if c["outcome"] == "won" and c.get("decided_at") is not None]  # fmt: skip
    edges, tolerances = [], []
    for player, claim in liar:
        if claim.get("s_ref") is None or claim.get("dt") is None:
            continue
        honest_v = claim["s_ref"] + claim["dt"] + player.lie_ms
        edges.append(honest_v - claim["v"])
        tolerances.append(claim["rtt_cap"] - (claim["arrival"] - honest_v))
    # The lie buys at most the link's tolerance: grabs whose edge exceeded it (+1 ms).
    beyond = sum(e > t + 1 for e, t in zip(edges, tolerances, strict=True))
    flagged = sorted({s for m in records for s in ((m.get("flags") or {}).get("flagged") or [])})
    return {
        "contested": len(races),
        "by_gap": counts,
        "no_winner": sum(r.arbiter is None for r in races),
        "honest_grabs": len(honest),
        "median_hold_ms": round(statistics.median(waits), 1) if waits else None,
        "cheater_median_edge_ms": round(statistics.median(edges), 1) if edges else None,
        "cheater_median_tolerance_ms": round(statistics.median(tolerances), 1)
        if tolerances
        else None,
        "cheater_edge_beyond_tolerance": beyond if edges else None,
        "cheater_max_edge_ms": round(max(edges), 1) if edges else None,
        "flagged_seats": flagged,
    }
