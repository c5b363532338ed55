"""A session's grab races: grabs fed to the arbiter, its decisions logged and answered.

The session stays the single writer: ``app/sessions/deadlines.py`` tells it when a cell's
window has closed (``window_closed``); the session then has the desk ``settle`` it, trying the
claims in order with its own apply (the grab applied to the engine at ``at_ms = V``), and logs
the decision records with the winner's version. The desk never touches the engine's state.
Times here are match milliseconds as floats (``MatchClock.precise``); a client's ``dt`` is wall
time, scaled by the clock rate (1 outside tests).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from app.ops.metrics import METRICS
from app.races.arbiter import Arbiter
from app.races.claims import Claim, Decision
from app.races.links import LOCAL, LinkStats
from app.sessions.clock import MatchClock
from app.sessions.commands import Change, GrabInput, History, Submit
from app.sessions.listener import MatchPeer
from engines.base import ActionError, Engine, Event, State

# The session's apply of one claim: the grab action of ``seat`` at match time ``at_ms``,
# its events, or ActionError.
ApplyGrab = Callable[[int, dict[str, Any], int], list[Event]]

RACE_GAMES = frozenset({"ambush"})


@dataclass
class Settlement:
    """A cell's race decided: every decision on it, and the winner's (if any) with the events
    its grab made when applied to the engine at ``at_ms = V``."""

    decisions: list[Decision]
    winner: Decision | None
    events: list[Event]

    def change(self, answer: Callable[[Decision], None]) -> Change | None:
        """The winner's grab as the change to log, every decision on the cell given to
        ``answer`` once it is logged (before the broadcast); with no winner, no change, and
        the refusals are answered now."""

        def answer_all(version: int = 0) -> None:
            for decision in self.decisions:
                answer(decision)

        winner = self.winner
        if winner is None:
            answer_all()
            return None
        claim = winner.claim
        sender = claim.token[0] if isinstance(claim.token, tuple) else None
        return Change(
            claim.seat,
            {"type": "grab", "cell": claim.cell},
            claim.v,
            self.events,
            "player" if sender is not None else "bot",
            account_id=sender.account_id if sender is not None else None,
            client_seq=claim.client_seq,
            arbitration={"mode": "arbiter", "decisions": [winner.record]},
            before_broadcast=answer_all,
        )


class RaceDesk:
    """Owns one match's arbiter and the decision records not yet written to the log."""

    def __init__(self, seed: int, *, cooldown_ms: int, rate: float) -> None:
        self.arbiter = Arbiter(seed, cooldown_ms=cooldown_ms)
        self.rate = rate
        self.unlogged: list[dict[str, Any]] = []
        self.held: set[tuple[int | None, int, int]] = set()

    @classmethod
    def for_match(
        cls,
        engine: Engine,
        state: State,
        seed: int,
        clock: MatchClock,
        history: History,
        version: int,
    ) -> RaceDesk | None:
        """A desk for games with grab races (Ambush!), else None. A match loaded in the
        middle of a race (a restart) goes on with it: its held claims were never
        acknowledged, so none is lost."""
        if engine.id not in RACE_GAMES:
            return None
        view = engine.view(state, None)
        options = view.get("options") or {}
        cooldown_ms = int(options.get("grab_cooldown_ms", 250))
        desk = cls(seed, cooldown_ms=cooldown_ms, rate=clock.rate)
        if view.get("phase") == "ambush":
            called = [v for v, raw, _ in history.entries if '"ambush_called"' in raw]
            living = sorted(engine.to_act(state))
            desk.arbiter.start_race(called[-1] if called else version, clock.precise(), living)
        return desk

    # ----- links ---------------------------------------------------------------------------

    def refresh_links(self, seats: int, peers: Iterable[MatchPeer], bots: Iterable[int]) -> None:
        """Each seat's link is its slowest connection. A seat with none cannot bring a claim
        over the network and a bot is timed exactly: windows do not wait for either."""
        slowest: dict[int, LinkStats] = {}
        for peer in peers:
            meter = peer.meter
            if peer.seat is None or meter is None:
                continue
            stats = meter.stats()
            known = slowest.get(peer.seat)
            if known is None or stats.rtt_cap > known.rtt_cap:
                slowest[peer.seat] = stats
        for seat in range(seats):
            self.arbiter.update_link(seat, slowest.get(seat, LOCAL))
        for seat in bots:
            self.arbiter.update_link(seat, LOCAL)

    # ----- inputs --------------------------------------------------------------------------

    def claim(
        self, command: Submit, seats: int, peers: Iterable[MatchPeer], bots: Iterable[int]
    ) -> Decision | None:
        """A player's ``grab`` command (measured by the gateway) to the arbiter, the seats'
        links refreshed first: its decision if made at once, else None (held, or a resend)."""
        assert command.measured is not None
        self.refresh_links(seats, peers, bots)
        peer, seat, cell = command.peer, command.seat, command.action.get("cell")
        key = (peer.account_id, seat)
        return self.grab(peer, seat, key, command.client_seq, cell, command.measured)

    def grab(
        self,
        peer: MatchPeer,
        seat: int,
        key: tuple[int | None, int],
        client_seq: int,
        cell: Any,
        measured: GrabInput,
    ) -> Decision | None:
        """Hand a player's grab to the arbiter; a resend of a held grab is ignored (None)."""
        held = (key[0], key[1], client_seq)
        if held in self.held:
            return None
        sends, meter = peer.sends, peer.meter
        race = self.arbiter.race
        s_ref = sends.at(measured.ref) if sends is not None else None
        s_call = sends.at(race.version) if sends is not None and race is not None else None
        link = meter.stats() if meter is not None else LinkStats(None, 0.0, 0)
        dt = None if measured.dt is None else measured.dt * self.rate
        decision = self.arbiter.submit(
            seat=seat,
            cell=cell,
            arrival=measured.arrival,
            ref=measured.ref,
            dt=dt,
            s_ref=s_ref,
            s_call=s_call,
            link=link,
            client_seq=client_seq,
            token=(peer, key),
        )
        if decision is None:
            self.held.add(held)
        else:
            self.unlogged.append(decision.record)
        return decision

    def bot_grab(self, seat: int, cell: Any, at_ms: int, now: float) -> Decision | None:
        decision = self.arbiter.submit_exact(seat=seat, cell=cell, at_ms=at_ms, arrival=now)
        if decision is not None:
            self.unlogged.append(decision.record)
        return decision

    def observe(
        self, version: int, events: list[Event], now: float, living: Iterable[int]
    ) -> list[Decision]:
        """A version is about to be logged: a call opens a race, its end closes it (claims
        still held are refused; their records go into this very version's row)."""
        ended: list[Decision] = []
        for event in events:
            if event["type"] == "race_ended":
                ended += self.arbiter.end_race(now)
            elif event["type"] == "ambush_called":
                self.arbiter.start_race(version, now, living)
                METRICS.races.inc()
        self._forget(ended)
        self.unlogged += [d.record for d in ended]
        return ended

    # ----- time ----------------------------------------------------------------------------

    def due_at(self) -> int | None:
        due = self.arbiter.due_at()
        return None if due is None else math.ceil(due)

    def tick_at(self, deadline: int) -> int:
        """When the engine's race deadline may fire: once no grab with an earlier V can
        still arrive, and every held claim before it has been decided."""
        if self.arbiter.race is None:
            return deadline
        return max(deadline, math.ceil(self.arbiter.safe_after(deadline)))

    def holds_before(self, deadline: int) -> bool:
        """A held claim with V before ``deadline`` must be decided before it fires."""
        return any(claim.v < deadline for claim in self.arbiter.pending)

    def blocks(self, deadline: int, now: float) -> bool:
        if self.arbiter.race is None:
            return False
        return self.holds_before(deadline) or now < self.arbiter.safe_after(deadline)

    def window_closed(self, now: float) -> bool:
        """Whether ``settle`` has a cell to decide at ``now``."""
        due = self.arbiter.due_at()
        return due is not None and due <= now

    def settle(self, now: float, apply: ApplyGrab) -> Settlement | None:
        """Decide the next cell whose window has closed (None: none has): its claims go in
        order to ``apply`` (the session's), each at its ``V``, until one is accepted (the
        winner, whose events the session now holds); the others are refused with the
        engine's code."""
        applied: list[list[Event]] = []

        def accept(claim: Claim) -> str | None:
            action = {"type": "grab", "cell": claim.cell}
            try:
                applied.append(apply(claim.seat, action, claim.v))
            except ActionError as refusal:
                return refusal.code
            return None

        decisions = self.decide(now, accept)
        if not decisions:
            return None
        winner = next((d for d in decisions if d.won), None)
        return Settlement(decisions, winner, applied[-1] if winner is not None else [])

    def decide(self, now: float, accept: Callable[[Claim], str | None]) -> list[Decision]:
        decisions = self.arbiter.decide(now, accept)
        self._forget(decisions)
        for record in _unique(d.record for d in decisions if not d.won):
            if not any(d.won and d.record is record for d in decisions):
                self.unlogged.append(record)
        return decisions

    # ----- output --------------------------------------------------------------------------

    def attach(self, arbitration: dict[str, Any] | None) -> dict[str, Any] | None:
        """This version's arbitration: its own record plus any not yet logged."""
        if not self.unlogged:
            return arbitration
        records, self.unlogged = self.unlogged, []
        merged = dict(arbitration or {"mode": "arbiter"})
        merged["decisions"] = list(merged.get("decisions", [])) + records
        return merged

    def flags(self) -> dict[str, Any]:
        return self.arbiter.flags()

    def _forget(self, decisions: list[Decision]) -> None:
        for decision in decisions:
            claim = decision.claim
            if claim.client_seq is not None and isinstance(claim.token, tuple):
                _, key = claim.token
                self.held.discard((key[0], key[1], claim.client_seq))


def _unique(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for record in records:
        if not any(record is other for other in seen):
            seen.append(record)
    return seen
