"""Tournament queries (synchronous, on a ``Session``: async callers use ``run_sync``), the pure
director's inputs rebuilt from the rows, and the JSON shapes of the REST API and lobby feed."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import Pairing as PairingRow
from app.db.models import Tournament, TournamentEntry, TournamentRound
from app.errors import NotFound
from app.tournaments import director
from app.tournaments.director import RoundRecord
from app.tournaments.formats import Format, TournamentSpec
from app.tournaments.pairing import Pairing, Table
from app.tournaments.standings import GameResult, Standing


def spec_of(tournament: Tournament) -> TournamentSpec:
    return TournamentSpec(
        game=tournament.game,
        format=Format(tournament.format),
        table_size=tournament.table_size,
        rounds=tournament.rounds,
        late_join_until=tournament.late_join_until,
        time_control=tournament.time_control or {},
        options=tournament.options or {},
    )


def tournament_json(tournament: Tournament, players: int | None = None) -> dict[str, Any]:
    return {
        "id": tournament.id,
        "name": tournament.name,
        "game": tournament.game,
        "format": tournament.format,
        "table_size": tournament.table_size,
        "rounds": tournament.planned_rounds or tournament.rounds,
        "late_join_until": tournament.late_join_until,
        "time_control": tournament.time_control,
        "options": tournament.options,
        "rated": tournament.rated,
        "allow_bots": tournament.allow_bots,
        "status": tournament.status,
        "organiser_id": tournament.organiser_id,
        "current_round": tournament.current_round,
        "players": players,
        "created_at": tournament.created_at.isoformat() if tournament.created_at else None,
        "started_at": tournament.started_at.isoformat() if tournament.started_at else None,
        "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
    }


def entry_json(entry: TournamentEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "account_id": entry.account_id,
        "bot": entry.bot,
        "bot_account": entry.bot_account,
        "name": entry.name,
        "seed": None if entry.seed is None else entry.seed + 1,
        "joined_round": entry.joined_round,
        "status": entry.status,
        "withdrawn_round": entry.withdrawn_round,
    }


def pairing_json(row: PairingRow, names: dict[int, str]) -> dict[str, Any]:
    return {
        "table": row.table_no,
        "entries": row.entries,
        "names": [names.get(e, "?") for e in row.entries],
        "match_id": row.match_id,
        "status": row.status,
        "placings": row.placings,
        "changes": row.changes,
        "forfeited": row.forfeited,
    }


def standing_json(standing: Standing, entry: TournamentEntry) -> dict[str, Any]:
    return {
        **standing.to_json(),
        "entry_id": entry.id,
        "account_id": entry.account_id,
        "bot": entry.bot,
        "bot_account": entry.bot_account,
        "name": entry.name,
    }


def get(session: Session, tournament_id: int) -> Tournament:
    """Refuses ``NotFound`` ``tournament/not_found``."""
    tournament = session.get(Tournament, tournament_id, populate_existing=True)
    if tournament is None:
        raise NotFound("tournament/not_found", f"no tournament {tournament_id}")
    return tournament


def search(
    session: Session, status: str | None = None, game: str | None = None, limit: int = 100
) -> list[tuple[Tournament, int]]:
    players = (
        select(func.count(TournamentEntry.id))
        .where(TournamentEntry.tournament_id == Tournament.id)
        .scalar_subquery()
    )
    query = select(Tournament, players).order_by(Tournament.id.desc()).limit(limit)
    if status:
        query = query.where(Tournament.status == status)
    if game:
        query = query.where(Tournament.game == game)
    return [(row[0], int(row[1])) for row in session.execute(query)]


def running_ids(session: Session) -> list[int]:
    query = select(Tournament.id).where(Tournament.status == "running")
    return list(session.execute(query).scalars())


def entries(session: Session, tournament_id: int) -> list[TournamentEntry]:
    """Entries in seed order (unseeded ones, before the start, in registration order)."""
    query = (
        select(TournamentEntry)
        .where(TournamentEntry.tournament_id == tournament_id)
        .order_by(TournamentEntry.seed.is_(None), TournamentEntry.seed, TournamentEntry.id)
    )
    return list(session.execute(query).scalars())


def entries_of(session: Session, account_id: int) -> list[tuple[Tournament, TournamentEntry]]:
    query = (
        select(Tournament, TournamentEntry)
        .join(TournamentEntry, TournamentEntry.tournament_id == Tournament.id)
        .where(TournamentEntry.account_id == account_id)
        .order_by(Tournament.id.desc())
    )
    return [(row[0], row[1]) for row in session.execute(query)]


def rounds(session: Session, tournament_id: int) -> list[TournamentRound]:
    query = (
        select(TournamentRound)
        .where(TournamentRound.tournament_id == tournament_id)
        .order_by(TournamentRound.number)
    )
    return list(session.execute(query).scalars())


def pairings(session: Session, tournament_id: int) -> list[PairingRow]:
    query = (
        select(PairingRow)
        .where(PairingRow.tournament_id == tournament_id)
        .order_by(PairingRow.round_id, PairingRow.table_no)
    )
    return list(session.execute(query).scalars())


def pairing_for_match(session: Session, match_id: int) -> PairingRow | None:
    query = select(PairingRow).where(PairingRow.match_id == match_id)
    return session.execute(query).scalars().first()


def records(
    session: Session, tournament_id: int
) -> tuple[list[TournamentRound], list[PairingRow], list[RoundRecord]]:
    """The rounds, their pairing rows, and the same as the pure director's records."""
    round_rows = rounds(session, tournament_id)
    rows = pairings(session, tournament_id)
    found: list[RoundRecord] = []
    for round_row in round_rows:
        mine = [r for r in rows if r.round_id == round_row.id]
        tables = tuple(Table(tuple(r.entries)) for r in mine)
        record = RoundRecord(round_row.number, Pairing(tables, tuple(round_row.byes or ())))
        record.results = [result_of(r, round_row.number) for r in mine if r.status == "finished"]
        found.append(record)
    return round_rows, rows, found


def standings(session: Session, tournament_id: int) -> list[dict[str, Any]]:
    """The tournament's standings as the API shows them."""
    listed = entries(session, tournament_id)
    _, _, found = records(session, tournament_id)
    by_id = {e.id: e for e in listed}
    seeded = [e.id for e in listed]
    withdrawn = [e.id for e in listed if e.status == "withdrawn"]
    table = director.current_standings(seeded, found, withdrawn)
    return [standing_json(s, by_id[s.player]) for s in table]


def show(session: Session, tournament_id: int) -> dict[str, Any]:
    """The tournament with its entries."""
    tournament = get(session, tournament_id)
    listed = entries(session, tournament_id)
    return {**tournament_json(tournament, len(listed)), "entries": [entry_json(e) for e in listed]}


def rounds_json(session: Session, tournament_id: int) -> list[dict[str, Any]]:
    """Every round with its tables (pairings), byes and results."""
    get(session, tournament_id)
    names = {e.id: e.name for e in entries(session, tournament_id)}
    round_rows, rows, _ = records(session, tournament_id)
    return [
        {
            "number": r.number,
            "status": r.status,
            "byes": r.byes,
            "bye_names": [names.get(e) for e in r.byes],
            "pairings": [pairing_json(p, names) for p in rows if p.round_id == r.id],
        }
        for r in round_rows
    ]


def feed_message(session: Session, tournament_id: int) -> dict[str, Any]:
    """The lobby feed's ``tournament`` message: summary, standings, the current round's tables."""
    tournament = get(session, tournament_id)
    listed = entries(session, tournament_id)
    round_rows = rounds(session, tournament_id)
    current = round_rows[-1].id if round_rows else None
    names = {e.id: e.name for e in listed}
    return {
        "type": "tournament",
        "tournament": tournament_json(tournament, len(listed)),
        "standings": standings(session, tournament_id),
        "pairings": [
            pairing_json(p, names)
            for p in pairings(session, tournament_id)
            if p.round_id == current
        ],
    }


def result_of(row: PairingRow, round_number: int) -> GameResult:
    return GameResult(
        round=round_number,
        players=tuple(row.entries),
        placings=tuple(tuple(group) for group in row.placings or ()),
        changes={int(k): int(v) for k, v in (row.changes or {}).items()},
        forfeited=frozenset(row.forfeited or ()),
    )
