"""The call to a table: the ``table_ready`` message each player of a tournament table gets on
every page he has open, and the tables still waiting for a player (queries on a ``Session``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Match, MatchSeat, Tournament, TournamentRound
from app.db.models import Pairing as PairingRow


def _message(
    tournament: Tournament, round_number: int, match: Match, seats: list[MatchSeat], *, fresh: bool
) -> dict[str, Any]:
    """``fresh``: the round has just been paired (the page counts down and goes); otherwise
    the table has been waiting since before this page connected (the page shows a notice)."""
    return {
        "type": "table_ready",
        "match_id": match.id,
        "game": match.game,
        "tournament_id": tournament.id,
        "tournament": tournament.name,
        "round": round_number,
        "names": [seat.name for seat in sorted(seats, key=lambda s: s.seat)],
        "fresh": fresh,
    }


def _tables(session: Session, match_ids: list[int]) -> list[tuple[Tournament, int, Match]]:
    """Each running tournament match of ``match_ids`` with its tournament and round number."""
    if not match_ids:
        return []
    query = (
        select(Tournament, TournamentRound.number, Match)
        .join(PairingRow, PairingRow.tournament_id == Tournament.id)
        .join(TournamentRound, TournamentRound.id == PairingRow.round_id)
        .join(Match, Match.id == PairingRow.match_id)
        .where(PairingRow.match_id.in_(match_ids), Match.status == "running")
        .order_by(Match.id)
    )
    return [(row[0], int(row[1]), row[2]) for row in session.execute(query)]


def _seats(session: Session, match_ids: list[int]) -> dict[int, list[MatchSeat]]:
    by_match: dict[int, list[MatchSeat]] = {}
    query = select(MatchSeat).where(MatchSeat.match_id.in_(match_ids))
    for seat in session.execute(query).scalars():
        by_match.setdefault(seat.match_id, []).append(seat)
    return by_match


def calls(session: Session, match_ids: list[int]) -> list[tuple[int, int, dict[str, Any]]]:
    """The fresh calls of newly opened tables: (account, match, message) for each player."""
    tables = _tables(session, match_ids)
    seats = _seats(session, [match.id for _, _, match in tables])
    out: list[tuple[int, int, dict[str, Any]]] = []
    for tournament, number, match in tables:
        mine = seats.get(match.id, [])
        message = _message(tournament, number, match, mine, fresh=True)
        out.extend((s.account_id, match.id, message) for s in mine if s.account_id is not None)
    return out


def waiting(session: Session, account_id: int) -> list[tuple[int, dict[str, Any]]]:
    """The tournament tables still being played where ``account_id`` holds a seat he has not
    forfeited: (match, message) for a page that has just connected."""
    query = (
        select(PairingRow.match_id)
        .join(MatchSeat, MatchSeat.match_id == PairingRow.match_id)
        .where(PairingRow.status == "playing", MatchSeat.account_id == account_id)
    )
    match_ids = [m for m in session.execute(query).scalars() if m is not None]
    tables = _tables(session, match_ids)
    seats = _seats(session, [match.id for _, _, match in tables])
    out: list[tuple[int, dict[str, Any]]] = []
    for tournament, number, match in tables:
        mine = seats.get(match.id, [])
        own = [s.seat for s in mine if s.account_id == account_id]
        if all(str(seat) in (match.forfeits or {}) for seat in own):
            continue
        out.append((match.id, _message(tournament, number, match, mine, fresh=False)))
    return out


def players(session: Session, match_id: int) -> list[int]:
    """The accounts seated at a match (told when its table closes)."""
    query = select(MatchSeat.account_id).where(
        MatchSeat.match_id == match_id, MatchSeat.account_id.is_not(None)
    )
    return sorted({a for a in session.execute(query).scalars() if a is not None})


def seats_of(session: Session, match_id: int, account_id: int) -> list[int]:
    """The seats of ``account_id`` at a match."""
    query = select(MatchSeat.seat).where(
        MatchSeat.match_id == match_id, MatchSeat.account_id == account_id
    )
    return sorted(session.execute(query).scalars())
