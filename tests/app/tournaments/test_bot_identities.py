"""Each server bot level is a ladder player of its own ("Heuristic bot (hard)"), never rated
against itself; a bot account's entry says it is a bot account."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.db.models import Account, Base, LadderEntry, Match, MatchSeat, RatingEvent
from app.scoring.ledger import settle
from app.scoring.ratings import SkillRating, rate_match, rate_seats
from app.sessions.bots import bot_identity, bot_label
from app.tournaments import ladders
from engines.base import Outcome, SeatResult


@pytest.fixture
def session() -> Iterator[Session]:
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine) as db:
        yield db


def finished(
    db: Session, seats: list[tuple[int | None, str | None]], placings: list[list[int]]
) -> int:
    """A finished rated Ambush! match of ``seats`` (account id, bot spec), in ``placings``."""
    outcome = Outcome(
        placings,
        {
            s: SeatResult(destroyed=s not in placings[0], resigned=False, damage=0.2)
            for s in range(len(seats))
        },
        "test",
    )
    match = Match(
        game="ambush",
        seat_count=len(seats),
        seed=1,
        status="finished",
        rated=True,
        started_wall_ms=0,
        result=outcome.to_json(),
        ledger={str(k): v for k, v in settle(outcome).items()},
    )
    db.add(match)
    db.flush()
    for seat, (account_id, bot) in enumerate(seats):
        db.add(
            MatchSeat(match_id=match.id, seat=seat, account_id=account_id, bot=bot, name=f"C{seat}")
        )
    db.flush()
    return match.id


def board(db: Session) -> dict[str, LadderEntry]:
    return {e.name: e for e in db.execute(select(LadderEntry)).scalars()}


def test_each_bot_level_is_its_own_ladder_player(session: Session) -> None:
    ada = Account(name="Ada")
    session.add(ada)
    session.flush()
    # A normal bot's seat stores the bare kind; it is the same player as "heuristic:normal".
    for bot in ("heuristic:hard", "heuristic", "heuristic:normal", "random:easy"):
        ladders.apply_match(session, finished(session, [(ada.id, None), (None, bot)], [[1], [0]]))
    entries = board(session)
    assert sorted(entries) == [
        "Ada",
        "Heuristic bot (hard)",
        "Heuristic bot (normal)",
        "Random bot (easy)",
    ]
    assert entries["Heuristic bot (normal)"].played == 2
    assert entries["Heuristic bot (normal)"].bot == "heuristic:normal"
    assert entries["Heuristic bot (hard)"].played == 1 and entries["Ada"].played == 4
    # The ledger stays zero-sum over the whole ladder.
    assert sum(e.points - 1500 for e in entries.values()) == 0


def test_a_bot_level_is_never_rated_against_itself(session: Session) -> None:
    ada = Account(name="Ada")
    session.add(ada)
    session.flush()
    hard = "heuristic:hard"
    # Alone at a table, one bot level plays only itself: no ladder moves.
    alone = finished(session, [(None, hard), (None, hard)], [[0], [1]])
    assert ladders.apply_match(session, alone) == []
    assert board(session) == {}
    # Ada first, the two hard bots second and third: each bot seat is rated against Ada only.
    three = finished(session, [(None, hard), (ada.id, None), (None, hard)], [[1], [2], [0]])
    assert ladders.apply_match(session, three)
    entries = board(session)
    bot = entries["Heuristic bot (hard)"]
    assert bot.played == 2 and bot.losses == 2
    events = list(session.execute(select(RatingEvent).where(RatingEvent.entry_id == bot.id)))
    assert len(events) == 2
    # Both seats lost to Ada: the bot's rating falls twice, never rises for beating itself.
    first, second = (row[0] for row in events)
    assert first.rating_after["mu"] < first.rating_before["mu"]
    assert second.rating_before == first.rating_after
    assert second.rating_after["mu"] < second.rating_before["mu"]
    # What one hard seat took from the other cancels on its entry.
    ledger = session.get(Match, three).ledger or {}
    assert bot.points - 1500 == ledger["0"] + ledger["2"] == -ledger["1"]


def test_rate_seats_with_one_seat_each_is_rate_match() -> None:
    start = {"a": SkillRating.initial("openskill"), "b": SkillRating("openskill", 30.0, 6.0, 0.0)}
    players = {0: "a", 1: "b", 2: "c"}
    apart = {seat: after for seat, _, after in rate_seats(start, players, [[2], [0], [1]])}
    together = rate_match({0: start["a"], 1: start["b"]}, [[2], [0], [1]])
    assert apart == together


def test_a_bot_is_named_by_kind_and_level() -> None:
    assert bot_identity("heuristic") == "heuristic:normal"
    assert bot_label("heuristic") == "Heuristic bot (normal)"
    assert bot_label("random:hard") == "Random bot (hard)"
