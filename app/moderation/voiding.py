"""Voiding a rated match: its result stays in the record, but nothing it did to a ledger,
a ladder, a rating or a tournament's standings counts any more.

What a finished rated match changed, and how each is reversed:

- ``matches.ledger`` and ``match_seats.ledger_delta``: cleared (the match shows ``voided``);
- every ladder it moved (``rating_events`` of the match): its events are deleted and the
  ladder's entries are rebuilt from the events that remain, in their order, so points,
  played/wins/draws/losses and skill ratings are exactly what they would be had the match
  never been played (later matches' rating changes are recomputed, their events rewritten);
- a tournament table (``pairings``): its ledger changes become 0 and its placings one tied
  group, so the standings' points lose the match while the round stays complete (the pairings
  already made from it stand).

The audit record keeps everything that was reversed. Rebuilding a ladder replays its rated
matches (a moderator's action, not a hot path).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.db.models import (
    Account,
    LadderEntry,
    Match,
    MatchSeat,
    Pairing,
    RatingEvent,
    utcnow,
)
from app.errors import Conflict, NotFound
from app.moderation import audit
from app.scoring.ledger import START
from app.scoring.ratings import rate_match, system_for
from app.tournaments.ladders import count_result, entry_for, rating_of
from engines.base import Outcome


def tournament_of(session: Session, match_id: int) -> int | None:
    query = select(Pairing.tournament_id).where(Pairing.match_id == match_id)
    return session.execute(query).scalar_one_or_none()


def void_match(session: Session, admin: Account, match_id: int, reason: str) -> dict[str, Any]:
    """Void finished rated match ``match_id``; returns what was reversed (also audited).

    Refuses ``match/not_found`` (404), ``match/not_rated``, ``match/not_finished``,
    ``match/already_voided`` and ``match/not_recorded`` (a tournament match whose result the
    tournament has not recorded yet: retry in a moment), all 409.
    """
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound("match/not_found", f"no match {match_id}")
    if match.status == "voided":
        raise Conflict("match/already_voided", f"match {match_id} is voided already")
    if not match.rated:
        raise Conflict("match/not_rated", f"match {match_id} is not rated: nothing to void")
    if match.status != "finished" or match.result is None:
        raise Conflict("match/not_finished", f"match {match_id} is {match.status}")
    pairing = session.execute(
        select(Pairing).where(Pairing.match_id == match_id)
    ).scalar_one_or_none()
    if pairing is not None and pairing.status != "finished":
        raise Conflict("match/not_recorded", "the tournament has not recorded it yet; retry")
    events = list(
        session.execute(
            select(RatingEvent).where(RatingEvent.match_id == match_id).order_by(RatingEvent.id)
        ).scalars()
    )
    detail: dict[str, Any] = {
        "ledger": match.ledger,
        "rating_events": [event_json(e) for e in events],
        "ladders": sorted({e.ladder_id for e in events}),
        "pairing": None,
    }
    if pairing is not None:
        detail["pairing"] = {
            "id": pairing.id,
            "tournament_id": pairing.tournament_id,
            "placings": pairing.placings,
            "changes": pairing.changes,
        }
        pairing.changes = {str(entry): 0 for entry in pairing.entries}
        pairing.placings = [list(pairing.entries)]
    match.status = "voided"
    match.ledger = None
    match.voided_at = utcnow()
    match.voided_by = admin.id
    match.void_reason = reason
    session.execute(
        update(MatchSeat).where(MatchSeat.match_id == match_id).values(ledger_delta=None)
    )
    session.execute(delete(RatingEvent).where(RatingEvent.match_id == match_id))
    session.flush()
    for ladder_id in detail["ladders"]:
        rebuild_ladder(session, ladder_id)
    audit.record(session, admin, "void", reason=reason, match_id=match_id, detail=detail)
    return detail


def event_json(event: RatingEvent) -> dict[str, Any]:
    return {
        "ladder_id": event.ladder_id,
        "entry_id": event.entry_id,
        "system": event.system,
        "points_before": event.points_before,
        "points_change": event.points_change,
        "rating_before": event.rating_before,
        "rating_after": event.rating_after,
    }


def rebuild_ladder(session: Session, ladder_id: int) -> None:
    """Every entry of the ladder recomputed from its rating events, oldest first: each
    event's match re-rated from the ratings the events before it left (as
    ``ladders.apply_match`` did), its before/after rewritten."""
    entries = list(
        session.execute(select(LadderEntry).where(LadderEntry.ladder_id == ladder_id)).scalars()
    )
    for entry in entries:
        entry.points, entry.played, entry.wins, entry.draws, entry.losses = START, 0, 0, 0, 0
        entry.ratings = {}
    events = session.execute(
        select(RatingEvent).where(RatingEvent.ladder_id == ladder_id).order_by(RatingEvent.id)
    ).scalars()
    by_match: dict[int, list[RatingEvent]] = defaultdict(list)
    for event in events:
        by_match[event.match_id].append(event)
    for match_id, match_events in by_match.items():
        replay_match(session, ladder_id, match_id, match_events)
    session.flush()


def replay_match(
    session: Session, ladder_id: int, match_id: int, events: list[RatingEvent]
) -> None:
    """Apply one rated match to the ladder again; ``events`` are its events in seat order
    (``ladders._apply`` writes one per seat, in seat order)."""
    match = session.get(Match, match_id)
    assert match is not None and match.result is not None
    seats = list(
        session.execute(
            select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
        ).scalars()
    )
    assert len(seats) == len(events), f"match {match_id}: {len(events)} events, {len(seats)} seats"
    outcome = Outcome.from_json(match.result)
    system = system_for(len(seats))
    entries: dict[int, LadderEntry] = {}
    for row in seats:
        entry = entry_for(session, ladder_id, row.account_id, row.bot)
        assert entry is not None
        entries[row.seat] = entry
    before = {seat: rating_of(entry, system) for seat, entry in entries.items()}
    after = rate_match(before, outcome.placings)
    first = outcome.placings[0] if outcome.placings else []
    for (seat, entry), event in zip(entries.items(), events, strict=True):
        event.points_before = entry.points
        event.rating_before = before[seat].to_json()
        event.rating_after = after[seat].to_json()
        count_result(entry, seat, first, event.points_change, system, event.rating_after)
