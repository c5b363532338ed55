"""A session's grab races: grabs fed to the arbiter, its decisions logged and answered.

The session stays the single writer: it asks the desk what is due, applies the winning grab
to the engine with ``at_ms = V`` and logs the decision records with that version. Times here
are match milliseconds as floats (``MatchClock.precise``); a client's ``dt`` is wall time,
scaled by the clock rate (1 outside tests).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from app.ops.metrics import METRICS
from app.races.arbiter import Arbiter
from app.races.claims import Claim, Decision
from app.races.links import LOCAL, LinkStats
from app.sessions import wire
from app.sessions.bots import BotSeat
from app.sessions.commands import GrabInput
from engines.base import ActionError, Engine, Event, State

if TYPE_CHECKING:
    from app.sessions.commands import Submit
    from app.sessions.session import GameSession

BOT_RETRY_MS = 200

RACE_GAMES = frozenset({"ambush"})


class RaceDesk:
    """Owns one match's arbiter and the decision records not yet written to the log."""

    def __init__(self, seed: int, *, cooldown_ms: int, rate: float) -> None:
        self.arbiter = Arbiter(seed, cooldown_ms=cooldown_ms)
        self.rate = rate
        self.unlogged: list[dict[str, Any]] = []
        self.held: set[tuple[int | None, int, int]] = set()

    @classmethod
    def for_match(cls, engine: Engine, state: State, seed: int, rate: float) -> RaceDesk | None:
        """A desk for games with grab races (Ambush!), else None."""
        if engine.id not in RACE_GAMES:
            return None
        options = engine.view(state, None).get("options") or {}
        return cls(seed, cooldown_ms=int(options.get("grab_cooldown_ms", 250)), rate=rate)

    # ----- links ---------------------------------------------------------------------------

    def refresh_links(self, seats: int, peers: Iterable[Any], bots: Iterable[int]) -> None:
        """Each seat's link is its slowest connection. A seat with none cannot bring a claim
        over the network and a bot is timed exactly: windows do not wait for either."""
        slowest: dict[int, LinkStats] = {}
        for peer in peers:
            meter = getattr(peer, "meter", None)
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

    def grab(
        self,
        peer: Any,
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
        sends = getattr(peer, "sends", None)
        meter = getattr(peer, "meter", None)
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

    def resume(self, version: int, now: float, living: Iterable[int]) -> None:
        """After a restart mid-race: the race goes on (held claims were never acknowledged)."""
        self.arbiter.start_race(version, now, living)

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


def broadcast(peer: Any, text: str, version: int) -> None:
    """A numbered broadcast: a connection that keeps send times stamps when it leaves (the
    ``S_ref`` of a grab that refers to it); any other listener just gets the text."""
    send_numbered = getattr(peer, "send_numbered", None)
    if send_numbered is not None:
        send_numbered(text, version)
    else:
        peer.send_text(text)


def race_pings(peer: Any, *, on: bool) -> None:
    """Ping the connection every 250 ms while a race is possible (DESIGN.md sec. 5 step 1)."""
    if hasattr(peer, "race_possible"):
        peer.race_possible = on
        peer.wake_pings()


def reply_for(decision: Decision, decided_at: int) -> dict[str, Any]:
    claim = decision.claim
    assert claim.client_seq is not None
    reply = wire.grab_result(claim.client_seq, claim.cell, decision.won, decided_at, decision.code)
    reply["v"] = claim.v
    return reply


def _unique(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for record in records:
        if not any(record is other for other in seen):
            seen.append(record)
    return seen


# ----- the session's grab-race steps (here so the session module stays readable) ---------


def living(session: GameSession) -> list[int]:
    return sorted(session.engine.to_act(session.state))


def race_grab(
    session: GameSession, command: Submit, key: tuple[int | None, int], measured: GrabInput
) -> None:
    """A player's grab goes to the arbiter; it is answered once decided."""
    assert session.races is not None
    session.races.refresh_links(len(session.seats), session.peers, session.bots)
    cell = command.action.get("cell")
    decision = session.races.grab(
        command.peer, command.seat, key, command.client_seq, cell, measured
    )
    if decision is not None:
        grab_reply(session, decision)


def due_bot_grabs(session: GameSession, now: int) -> None:
    """Bots' due grabs reach the arbiter before any window closes: a bot is timed
    exactly, so its claim must not miss a settlement it belongs to."""
    for bot in list(session.bots.values()):
        due = bot.due_at()
        is_grab = bot.plan is not None and bot.plan.action.get("type") == "grab"
        if is_grab and due is not None and due <= now:
            race_bot_grab(session, bot, now)


def race_bot_grab(session: GameSession, bot: BotSeat, now: int) -> None:
    """A server bot's grab, timed exactly at its planned moment (its reaction)."""
    assert session.races is not None and bot.plan is not None
    at_ms = max(min(bot.plan.at_ms, now), 0)
    cell = bot.plan.action.get("cell")
    refused = session.races.bot_grab(bot.seat, cell, at_ms, session.clock.precise())
    bot.plan = None
    if refused is not None:
        bot.retry_at = now + BOT_RETRY_MS
        bot.replan(session.engine.view(session.state, bot.seat), session._legal(bot.seat), now + 1)


async def settle_grabs(session: GameSession) -> bool:
    """Decide the next cell whose window has closed; the winner is applied to the engine
    at ``at_ms = V`` and logged with the decision. True if anything was decided."""
    assert session.races is not None
    session.races.refresh_links(len(session.seats), session.peers, session.bots)
    applied: list[list[Event]] = []

    def accept(claim: Claim) -> str | None:
        action = {"type": "grab", "cell": claim.cell}
        try:
            applied.append(session.engine.apply(session.state, claim.seat, action, claim.v))
        except ActionError as refusal:
            return refusal.code
        return None

    decisions = session.races.decide(session.clock.precise(), accept)
    if not decisions:
        return False
    winner = next((d for d in decisions if d.won), None)
    if winner is None:
        for decision in decisions:
            grab_reply(session, decision)
        return True
    claim = winner.claim
    sender = claim.token[0] if isinstance(claim.token, tuple) else None

    def reply_all(version: int) -> None:
        for decision in decisions:
            grab_reply(session, decision)

    await session._commit(
        claim.seat,
        {"type": "grab", "cell": claim.cell},
        claim.v,
        applied[-1],
        "player" if sender is not None else "bot",
        account_id=sender.account_id if sender is not None else None,
        client_seq=claim.client_seq,
        arbitration={"mode": "arbiter", "decisions": [winner.record]},
        before_broadcast=reply_all,
    )
    return True


def grab_reply(session: GameSession, decision: Decision) -> None:
    """``grab_result`` to the connection that sent the grab (bots get none)."""
    claim = decision.claim
    if claim.client_seq is None or not isinstance(claim.token, tuple):
        return
    peer, key = claim.token
    reply = reply_for(decision, session.clock.now())
    previous = session.replies.get(key)
    if previous is None or claim.client_seq >= previous[0]:
        session.replies[key] = (claim.client_seq, reply)
    peer.send_text(wire.dumps(reply))
