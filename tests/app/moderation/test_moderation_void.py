"""Voiding on the database itself (``app.moderation.voiding``): a tournament match against a
bot, later matches re-rated, the tournament's standings back to where they were, audited."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, delete, select
from sqlalchemy.orm import Session

from app.__main__ import migrate
from app.db.models import (
    Account,
    AuditRecord,
    LadderEntry,
    Match,
    MatchSeat,
    Pairing,
    RatingEvent,
    Tournament,
    TournamentEntry,
    TournamentRound,
)
from app.errors import Conflict
from app.moderation.voiding import void_match
from app.scoring.ledger import settle
from app.tournaments import ladders, store
from engines.base import Outcome, SeatResult

BOT = "heuristic:normal"


@pytest.fixture
def db(tmp_path: Path) -> Session:
    migrate(f"sqlite+aiosqlite:///{tmp_path}/void.db")
    return Session(create_engine(f"sqlite:///{tmp_path}/void.db"))


def duel(session: Session, player: Account, winner_seat: int, damage: float) -> Match:
    """A finished rated duel of ``player`` (seat 0) against a bot (seat 1), on the ladder."""
    loser = 1 - winner_seat
    outcome = Outcome(
        [[winner_seat], [loser]],
        {winner_seat: SeatResult(False, False, 0.0), loser: SeatResult(True, False, damage)},
        "destroyed",
    )
    ledger = settle(outcome)
    match = Match(
        game="rampage",
        seat_count=2,
        seed=1,
        status="finished",
        rated=True,
        started_wall_ms=0,
        result=outcome.to_json(),
        ledger={str(k): v for k, v in ledger.items()},
    )
    session.add(match)
    session.flush()
    session.add(MatchSeat(match_id=match.id, seat=0, account_id=player.id, name=player.name))
    session.add(MatchSeat(match_id=match.id, seat=1, bot=BOT, name="Crag Keep"))
    session.flush()
    return match


def ladder_rows(session: Session) -> dict[object, tuple[object, ...]]:
    rows = session.execute(select(LadderEntry).order_by(LadderEntry.id)).scalars()
    return {
        (row.account_id, row.bot): (
            row.points,
            row.played,
            row.wins,
            row.losses,
            dict(row.ratings),
        )
        for row in rows
    }


def test_voiding_a_tournament_match_re_rates_the_rest_and_restores_standings(
    db: Session,
) -> None:
    admin = Account(name="Root", is_admin=True)
    ann = Account(name="Ann")
    db.add_all([admin, ann])
    db.flush()
    tournament = Tournament(name="Cup", game="rampage", format="swiss", organiser_id=admin.id)
    db.add(tournament)
    db.flush()
    ann_entry = TournamentEntry(tournament_id=tournament.id, account_id=ann.id, name="Ann")
    bot_entry = TournamentEntry(tournament_id=tournament.id, bot=BOT, name="Crag Keep")
    round_row = TournamentRound(tournament_id=tournament.id, number=1)
    db.add_all([ann_entry, bot_entry, round_row])
    db.flush()
    before_standings = store.standings(db, tournament.id)

    rigged = duel(db, ann, winner_seat=0, damage=1.0)
    ledger = {int(k): v for k, v in (rigged.ledger or {}).items()}
    db.add(
        Pairing(
            round_id=round_row.id,
            tournament_id=tournament.id,
            table_no=1,
            entries=[ann_entry.id, bot_entry.id],
            match_id=rigged.id,
            status="finished",
            placings=[[ann_entry.id], [bot_entry.id]],
            changes={str(ann_entry.id): ledger[0], str(bot_entry.id): ledger[1]},
        )
    )
    ladders.apply_match(db, rigged.id)
    later = duel(db, ann, winner_seat=1, damage=0.5)
    ladders.apply_match(db, later.id)
    assert store.standings(db, tournament.id) != before_standings

    reversed_ = void_match(db, admin, rigged.id, "rigged")
    assert reversed_["pairing"]["changes"] == {
        str(ann_entry.id): ledger[0],
        str(bot_entry.id): ledger[1],
    }
    assert [s["points"] for s in store.standings(db, tournament.id)] == [1500, 1500]
    assert db.get(Match, rigged.id).status == "voided"  # type: ignore[union-attr]
    assert db.execute(select(RatingEvent.match_id)).scalars().all() == [later.id] * 2
    voided_ladder = ladder_rows(db)

    db.execute(delete(LadderEntry))
    db.execute(delete(RatingEvent))
    db.flush()
    ladders.apply_match(db, later.id)  # the ladder had only the later match been played
    replayed = ladder_rows(db)
    assert voided_ladder == replayed
    assert voided_ladder[(ann.id, None)][:4] == (1500 + settle_of(later, 0), 1, 0, 1)

    audit = db.execute(select(AuditRecord)).scalars().one()
    assert (audit.action, audit.match_id, audit.reason) == ("void", rigged.id, "rigged")
    assert len(audit.detail["rating_events"]) == 2
    with pytest.raises(Conflict):
        void_match(db, admin, rigged.id, "again")


def settle_of(match: Match, seat: int) -> int:
    return int((match.ledger or {})[str(seat)])
