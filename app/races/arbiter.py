"""The grab-race arbiter: arbitrated times, settlement windows, tie-breaks.

A pure state machine: no clock, no I/O. The session feeds it grabs with their arrival times
(``submit``) and asks what is due (``due_at``, ``decide``); every time is a server millisecond
the caller passes in, so scripted timelines test it and its decisions replay.

A grab's arbitrated time is ``V = S_ref + dt``: when the broadcast ``ref`` left for that
connection plus the client's own reaction measurement. ``V`` is clamped so that
``arrival - V`` lies in ``[0, rtt_cap]`` of the connection's measured link: a client may
claim at most the round trip the server has seen it take, plus the jitter tolerance. A cell
is held until nobody could still bring an earlier claim, then the smallest ``V`` wins; claims
within ``tie_ms`` are settled by the arbiter's seeded RNG.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from app.races.claims import (
    BEFORE_CALL,
    HAND_BUSY,
    LATE,
    LOST,
    MIN_REACTION,
    MONOTONE,
    NO_RACE,
    NO_REF,
    PROBATION,
    PROBATION_CAP,
    RACE_OVER,
    REFUSED,
    RTT_CAP,
    SEAT_OUT,
    SUSPECT_CLAMPS,
    TAKEN,
    WON,
    CellKey,
    Claim,
    Decision,
    rounded,
    to_ms,
)
from app.races.links import LOCAL, MAX_CAP_MS, LinkStats
from app.races.suspicion import SeatStats, suspicion_flags
from engines.base import Rng

MIN_REACTION_MS = 100
TIE_MS = 2
# The arbiter draws from its own stream of the match seed: tie-breaks never shift the
# engine's deck shuffles, and the same seed and inputs give the same decisions.
_SALT = 0xA4B1_7E12_5EED_0004


@dataclass
class _Race:
    version: int
    started_at: float
    seats: frozenset[int]
    taken: dict[CellKey, int] = field(default_factory=dict)
    first_grab_done: set[int] = field(default_factory=set)


class Arbiter:
    """Decides one match's grab races. Feed it ``start_race``, ``submit`` and ``end_race``;
    call ``decide`` at ``due_at``; log each decision's ``record``."""

    def __init__(
        self,
        seed: int,
        *,
        cooldown_ms: int = 250,
        min_reaction_ms: int = MIN_REACTION_MS,
        tie_ms: int = TIE_MS,
    ) -> None:
        self.rng = Rng(seed ^ _SALT)
        self.cooldown_ms = cooldown_ms
        self.min_reaction_ms = min_reaction_ms
        self.tie_ms = tie_ms
        self.links: dict[int, LinkStats] = {}
        self.race: _Race | None = None
        self.last_race_version: int | None = None
        self.pending: list[Claim] = []
        self.next_free: dict[int, int] = {}
        self.last_v: dict[int, int] = {}
        self.stats: dict[int, SeatStats] = {}
        self._order = 0

    # ----- inputs --------------------------------------------------------------------------

    def update_link(self, seat: int, stats: LinkStats) -> None:
        """The seat's current link (the session passes the slowest of its connections)."""
        self.links[seat] = stats

    def cap(self, seat: int) -> float:
        return self.links.get(seat, LinkStats(None, 0.0, 0)).rtt_cap

    def start_race(
        self,
        version: int,
        started_at: float,
        seats: Iterable[int],
        *,
        cooldown_ms: int | None = None,
    ) -> None:
        """Ambush! was called at ``started_at`` in broadcast ``version``; ``seats`` may grab."""
        if cooldown_ms is not None:
            self.cooldown_ms = cooldown_ms
        self.race = _Race(version, started_at, frozenset(seats))
        self.last_race_version = version
        self.pending = []
        self.next_free = {}
        self.last_v = {}

    def end_race(self, now: float) -> list[Decision]:
        """The race is over: claims still held are refused (``ambush/race_over``)."""
        late = [self._refuse(c, RACE_OVER, now) for c in sorted(self.pending, key=_order)]
        self.pending = []
        self.race = None
        return late

    def submit(
        self,
        *,
        seat: int,
        cell: Any,
        arrival: float,
        ref: int | None,
        dt: float | None,
        s_ref: float | None,
        s_call: float | None,
        link: LinkStats,
        client_seq: int | None = None,
        token: Any = None,
    ) -> Decision | None:
        """A grab arrived: None while it is held, or its refusal at once.

        Refuses ``ambush/no_race`` (no race; ``ambush/race_over`` if it names the last race),
        ``ambush/seat_out`` (the seat is not in this race: out of the game),
        ``ambush/before_call`` (``ref`` predates the call: the client had not seen it),
        ``ambush/hand_busy`` (inside the seat's cooldown on arbitrated times, or its hand
        is already on that cell) and loses ``ambush/empty_cell`` (the cell is already won).
        """
        race = self.race
        v_raw = None if s_ref is None or dt is None else s_ref + dt
        claim = self._claim(seat, cell, arrival, ref, dt, s_ref, s_call, link, v_raw)
        claim.client_seq, claim.token = client_seq, token
        if race is None:
            last = self.last_race_version
            code = RACE_OVER if ref is not None and last is not None and ref >= last else NO_RACE
            return self._refuse(claim, code, arrival)
        if seat not in race.seats:
            return self._refuse(claim, SEAT_OUT, arrival)
        if ref is not None and ref < race.version:
            return self._refuse(claim, BEFORE_CALL, arrival)
        return self._admit(race, claim)

    def submit_exact(
        self, *, seat: int, cell: Any, at_ms: int, arrival: float, token: Any = None
    ) -> Decision | None:
        """A grab timed exactly by the server itself (a bot seat): ``V = at_ms``."""
        claim = Claim(seat, cell, arrival, None, None, None, None, LOCAL, at_ms, at_ms, [], 0)
        claim.order = self._next_order()
        claim.token = token
        if self.race is None:
            return self._refuse(claim, NO_RACE, arrival)
        return self._admit(self.race, claim)

    # ----- time ----------------------------------------------------------------------------

    def due_at(self) -> float | None:
        """When ``decide`` has something to settle (None: nothing held)."""
        if not self.pending:
            return None
        first = min(self.pending, key=_order)
        if self._busy(first.seat, first.v):
            return first.arrival
        return self._hold_until(first)

    def safe_after(self, at_ms: float) -> float:
        """The earliest moment no claim with ``V < at_ms`` can still arrive: the session
        ends a race at ``at_ms`` only then, so a grab still on the wire is not cut off."""
        race = self.race
        if race is None:
            return at_ms
        wait = at_ms
        for seat in race.seats:
            if self._earliest_next(seat) < at_ms:
                wait = max(wait, at_ms + self.cap(seat))
        return wait

    def decide(self, now: float, accept: Callable[[Claim], str | None]) -> list[Decision]:
        """Settle at most one cell whose window has closed (earliest claim first).

        ``accept(claim)`` applies the winner to the engine and returns None, or returns the
        engine's refusal code; the cell then goes to the next claim in order.
        """
        decisions: list[Decision] = []
        while self.pending:
            first = min(self.pending, key=_order)
            if self._busy(first.seat, first.v):
                self.pending.remove(first)
                decisions.append(self._refuse(first, HAND_BUSY, now))
                continue
            hold = self._hold_until(first)
            if now < hold:
                break
            decisions += self._settle(first.key, now, hold, accept)
            break
        return decisions

    # ----- suspicion -----------------------------------------------------------------------

    def flags(self) -> dict[str, Any]:
        """The per-seat suspicion flags of this match's races, for the match record."""
        return suspicion_flags(self.stats)

    # ----- internals -----------------------------------------------------------------------

    def _next_order(self) -> int:
        self._order += 1
        return self._order

    def _claim(
        self,
        seat: int,
        cell: Any,
        arrival: float,
        ref: int | None,
        dt: float | None,
        s_ref: float | None,
        s_call: float | None,
        link: LinkStats,
        v_raw: float | None,
    ) -> Claim:
        """Step 4: ``V = S_ref + dt`` clamped to ``[arrival - rtt_cap, arrival]``; no first
        grab sooner than ``min_reaction_ms`` after the call reached the seat; monotone."""
        clamps: list[str] = []
        cap = link.rtt_cap
        stats = self.stats.get(seat)
        if stats is not None and stats.clamped_too_often() and link.rtt_min is not None:
            # Probation: a seat that keeps claiming more than its link allows loses the
            # jitter tolerance, so shading dt stops paying; honest seats almost never get here.
            cap = min(cap, link.rtt_min)
            clamps.append(PROBATION)
        if v_raw is None:
            value, clamps = arrival, [*clamps, NO_REF]
        elif v_raw < arrival - cap:
            # Past the probation budget only: not suspect again, so an honest seat that fell
            # into probation on a bad link climbs out as its share of real clamps drops.
            kind = RTT_CAP if v_raw < arrival - link.rtt_cap else PROBATION_CAP
            value, clamps = arrival - cap, [*clamps, kind]
        elif v_raw > arrival:
            value, clamps = arrival, [*clamps, LATE]
        else:
            value = v_raw
        race = self.race
        to_this_race = race is not None and (ref is None or ref >= race.version)
        if race is not None and to_this_race and seat not in race.first_grab_done:
            floor = (s_call if s_call is not None else race.started_at) + self.min_reaction_ms
            if value < floor:
                value = floor
                clamps.append(MIN_REACTION)
        v = to_ms(value)
        last = self.last_v.get(seat)
        if last is not None and v <= last:
            v = last + 1
            clamps.append(MONOTONE)
        return Claim(
            seat, cell, arrival, ref, dt, s_ref, s_call, link, v_raw, v, clamps, self._next_order()
        )

    def _admit(self, race: _Race, claim: Claim) -> Decision | None:
        seat = claim.seat
        self.last_v[seat] = claim.v
        first_grab = seat not in race.first_grab_done
        race.first_grab_done.add(seat)
        stats = self.stats.setdefault(seat, SeatStats())
        stats.grabs += 1
        stats.suspect_clamps += bool(SUSPECT_CLAMPS.intersection(claim.clamps))
        if first_grab and claim.s_call is not None and claim.link is not LOCAL:
            stats.reactions.append(claim.v - to_ms(claim.s_call))
        if claim.key in race.taken:
            return self._refuse(claim, TAKEN, claim.arrival, outcome=LOST)
        if self._busy(seat, claim.v) or any(
            p.seat == seat and p.key == claim.key for p in self.pending
        ):
            return self._refuse(claim, HAND_BUSY, claim.arrival)
        self.pending.append(claim)
        return None

    def _busy(self, seat: int, v: int) -> bool:
        return v < self.next_free.get(seat, -(10**15))

    def _earliest_next(self, seat: int) -> float:
        """A lower bound on the V of the seat's next claim."""
        bound = -math.inf
        if seat in self.last_v:
            bound = self.last_v[seat] + 1
        return max(bound, self.next_free.get(seat, -math.inf))

    def _hold_until(self, first: Claim) -> float:
        """Step 5: held until the earliest claim's V (plus the tie margin) plus the largest
        ``rtt_cap`` of the seats that could still bring an earlier claim on that cell."""
        bound = first.v + self.tie_ms
        hold = float(bound)
        race = self.race
        if race is not None:
            claimed = {p.seat for p in self.pending if p.key == first.key}
            for seat in race.seats - claimed:
                if self._earliest_next(seat) <= bound:
                    hold = max(hold, bound + min(self.cap(seat), MAX_CAP_MS))
        return max(hold, first.arrival)

    def _settle(
        self, key: CellKey, now: float, hold: float, accept: Callable[[Claim], str | None]
    ) -> list[Decision]:
        claims = sorted((p for p in self.pending if p.key == key), key=_order)
        self.pending = [p for p in self.pending if p.key != key]
        decisions: list[Decision] = []
        remaining: list[Claim] = []
        for claim in claims:
            if self._busy(claim.seat, claim.v):
                decisions.append(self._refuse(claim, HAND_BUSY, now))
            else:
                remaining.append(claim)
        winner: Claim | None = None
        tie_draws: list[dict[str, Any]] = []
        while remaining and winner is None:
            lead = remaining[0]
            tied = sorted((c for c in remaining if c.v <= lead.v + self.tie_ms), key=_by_seat)
            pick = tied[0]
            if len(tied) > 1:
                position = self.rng.position
                pick = tied[self.rng.randbelow(len(tied))]
                tie_draws.append(
                    {"seats": [c.seat for c in tied], "rng_position": position, "pick": pick.seat}
                )
            code = accept(pick)
            remaining.remove(pick)
            if code is None:
                winner = pick
            else:
                decisions.append(self._refuse(pick, code, now))
        if winner is not None:
            assert self.race is not None
            self.race.taken[key] = winner.v
            self.next_free[winner.seat] = winner.v + self.cooldown_ms
            decisions.append(Decision(winner, WON, None, now))
        decisions += [Decision(c, LOST, TAKEN, now) for c in remaining]
        record = {
            "kind": "settlement",
            "cell": claims[0].cell,
            "held_until": rounded(hold),
            "decided_at": rounded(now),
            "winner": None if winner is None else winner.seat,
            "ties": tie_draws,
            "claims": [
                {**d.claim.inputs(), "outcome": d.outcome, "code": d.code}
                for d in sorted(decisions, key=lambda d: _order(d.claim))
            ],
        }
        for decision in decisions:
            decision.record = record
        return decisions

    def _refuse(self, claim: Claim, code: str, now: float, *, outcome: str = REFUSED) -> Decision:
        record = {
            "kind": "refusal",
            "decided_at": rounded(now),
            "claims": [{**claim.inputs(), "outcome": outcome, "code": code}],
        }
        return Decision(claim, outcome, code, now, record)


def _order(claim: Claim) -> tuple[int, int]:
    return (claim.v, claim.order)


def _by_seat(claim: Claim) -> tuple[int, int]:
    return (claim.seat, claim.order)
