"""Ladders: every rated match moves its game's ladder of its pool (and the custom ladders of
that pool its players joined): the 1500-point ledger and the skill rating, with one rating
event per player and ladder. Real-time and correspondence play are separate pools
(``app.scoring.pools``): each game has a ladder in each pool it can be played in.

A ladder entry belongs to an account (a bot account's too), or to a server bot's kind and
level ("Heuristic bot (hard)", ``app.sessions.bots.bot_identity``): each level is rated as a
player of its own, and never against itself. Applying a match is idempotent: a ladder that
already has rating events for the match is skipped, so start-up can safely catch up.
Queries are synchronous functions of a ``Session`` (async callers use ``run_sync``); writes
go through ``writes.Writer``.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from app.accounts.names import title
from app.cluster.locks import Locks
from app.db.models import (
    Account,
    Ladder,
    LadderEntry,
    Match,
    MatchSeat,
    Pairing,
    RatingEvent,
    utcnow,
)
from app.errors import AppError, Conflict, Forbidden, NotFound
from app.games import playable
from app.scoring.pools import DEFAULT_POOL, Pool, pool_of
from app.scoring.ratings import SkillRating, System, rate_seats, system_for
from app.sessions.bots import bot_identity, bot_label
from app.sessions.timecontrol import REALTIME_ONLY, REALTIME_ONLY_GAMES
from app.tournaments.background import BackgroundTasks
from app.tournaments.writes import Writer
from engines.base import Outcome

log = logging.getLogger(__name__)


def ladder_json(ladder: Ladder) -> dict[str, Any]:
    return {
        "id": ladder.id,
        "game": ladder.game,
        "name": ladder.name,
        "kind": ladder.kind,
        "pool": ladder.pool,
        "organiser_id": ladder.organiser_id,
    }


def entry_json(
    entry: LadderEntry, rank: int | None = None, bot_account: bool = False
) -> dict[str, Any]:
    """An entry as the API shows it; ``bot_account``: its account is a bot account."""
    ratings = {
        system: SkillRating.from_json(data).to_json() for system, data in entry.ratings.items()
    }
    return {
        "id": entry.id,
        "ladder_id": entry.ladder_id,
        "rank": rank,
        "account_id": entry.account_id,
        "bot": entry.bot,
        "bot_account": bot_account,
        "name": entry.name,
        "points": entry.points,
        "played": entry.played,
        "wins": entry.wins,
        "draws": entry.draws,
        "losses": entry.losses,
        "ratings": ratings,
        "provisional": all(r["provisional"] for r in ratings.values()) if ratings else True,
    }


def rating_of(entry: LadderEntry, system: System) -> SkillRating:
    data = entry.ratings.get(system)
    return SkillRating.from_json(data) if data else SkillRating.initial(system)


# ----- queries -----------------------------------------------------------------------------


def get(session: Session, ladder_id: int) -> Ladder:
    """Refuses ``NotFound`` ``ladder/not_found``."""
    ladder = session.get(Ladder, ladder_id)
    if ladder is None:
        raise NotFound("ladder/not_found", f"no ladder {ladder_id}")
    return ladder


def listing(session: Session, game: str | None = None, pool: Pool | None = None) -> list[Ladder]:
    """Ladders by id, of ``game`` and ``pool`` if given."""
    query = select(Ladder).order_by(Ladder.id)
    if game:
        query = query.where(Ladder.game == game)
    if pool is not None:
        query = query.where(Ladder.pool == pool)
    return list(session.execute(query).scalars())


def find_game_ladder(session: Session, game: str, pool: Pool = DEFAULT_POOL) -> Ladder | None:
    """The game's own ladder of ``pool``: the oldest, should two processes ever have made one
    each (every reader and writer then picks the same, as the listing orders by id)."""
    query = (
        select(Ladder)
        .where(Ladder.game == game, Ladder.kind == "game", Ladder.pool == pool)
        .order_by(Ladder.id)
    )
    return session.execute(query).scalars().first()


def leaderboard(session: Session, ladder_id: int, limit: int, offset: int) -> list[LadderEntry]:
    """Entries by ledger points (then games played), after ``get`` has checked the ladder."""
    get(session, ladder_id)
    query = leaderboard_query(ladder_id, limit, offset)
    return list(session.execute(query).scalars())


def leaderboard_query(ladder_id: int, limit: int, offset: int) -> Select[LadderEntry]:
    """A leaderboard page, in the order of the ``ix_ladder_entries_board`` index."""
    return (
        select(LadderEntry)
        .where(LadderEntry.ladder_id == ladder_id)
        .order_by(LadderEntry.points.desc(), LadderEntry.played.desc(), LadderEntry.id)
        .limit(limit)
        .offset(offset)
    )


def bot_accounts(session: Session, entries: list[LadderEntry]) -> set[int]:
    """The ids of the bot accounts among the entries' accounts (one query)."""
    ids = {e.account_id for e in entries if e.account_id is not None}
    if not ids:
        return set()
    query = select(Account.id).where(Account.id.in_(ids), Account.bot.is_(True))
    return set(session.execute(query).scalars())


def entry_for(
    session: Session, ladder_id: int, account_id: int | None, bot: str | None
) -> LadderEntry | None:
    query = select(LadderEntry).where(LadderEntry.ladder_id == ladder_id)
    if account_id is not None:
        query = query.where(LadderEntry.account_id == account_id)
    else:
        query = query.where(LadderEntry.account_id.is_(None), LadderEntry.bot == bot)
    return session.execute(query).scalars().first()


def entries_of(session: Session, account_id: int) -> list[tuple[Ladder, LadderEntry]]:
    query = (
        select(Ladder, LadderEntry)
        .join(LadderEntry, LadderEntry.ladder_id == Ladder.id)
        .where(LadderEntry.account_id == account_id)
        .order_by(Ladder.id)
    )
    return [(row[0], row[1]) for row in session.execute(query)]


def history(
    session: Session, account_id: int, game: str | None = None, limit: int = 500
) -> list[tuple[Ladder, RatingEvent]]:
    query = (
        select(Ladder, RatingEvent)
        .join(RatingEvent, RatingEvent.ladder_id == Ladder.id)
        .join(LadderEntry, LadderEntry.id == RatingEvent.entry_id)
        .where(LadderEntry.account_id == account_id)
        .order_by(RatingEvent.id)
        .limit(limit)
    )
    if game:
        query = query.where(Ladder.game == game)
    return [(row[0], row[1]) for row in session.execute(query)]


# ----- writes ------------------------------------------------------------------------------


def game_ladder(session: Session, game: str, pool: Pool = DEFAULT_POOL) -> Ladder:
    """The game's own ladder of ``pool``, created on first use (a correspondence one is named
    "<title> (correspondence)")."""
    ladder = find_game_ladder(session, game, pool)
    if ladder is None:
        title = playable()[game].title if game in playable() else game
        name = title if pool == DEFAULT_POOL else f"{title} ({pool})"
        ladder = Ladder(game=game, name=name, kind="game", pool=pool)
        session.add(ladder)
        session.flush()
    return ladder


def ensure_game_ladders(session: Session) -> None:
    """Every game's ladder of each pool it is played in (real-time only games: one)."""
    for game in sorted(playable()):
        game_ladder(session, game)
        if game not in REALTIME_ONLY_GAMES:
            game_ladder(session, game, "correspondence")


def create_ladder(
    session: Session, organiser_id: int, game: str, name: str, pool: Pool = DEFAULT_POOL
) -> Ladder:
    """A custom ladder of ``pool``. Refuses ``ladder/unknown_game``, ``ladder/bad_name``
    (blank, or with invisible characters: ``app.accounts.names.title``) and
    ``ladder/realtime_only`` (a correspondence ladder of a game played only in real time)."""
    if game not in playable():
        raise NotFound("ladder/unknown_game", f"no game {game!r}")
    if pool != DEFAULT_POOL and game in REALTIME_ONLY_GAMES:
        raise AppError("ladder/realtime_only", REALTIME_ONLY.format(game=game), status=422)
    name = title(name, code="ladder/bad_name", what="A ladder name")
    ladder = Ladder(game=game, name=name, kind="custom", organiser_id=organiser_id, pool=pool)
    session.add(ladder)
    session.flush()
    return ladder


def join_ladder(session: Session, ladder_id: int, account_id: int, name: str) -> LadderEntry:
    """Join a custom ladder at 1500. Refuses ``ladder/not_custom`` (game ladders fill from
    rated play) and ``ladder/already_joined``."""
    ladder = get(session, ladder_id)
    if ladder.kind != "custom":
        raise Forbidden("ladder/not_custom", "game ladders fill themselves from rated play")
    if entry_for(session, ladder_id, account_id, None) is not None:
        raise Conflict("ladder/already_joined", "you are on this ladder already")
    entry = LadderEntry(ladder_id=ladder_id, account_id=account_id, name=name, ratings={})
    session.add(entry)
    session.flush()
    return entry


def apply_match(session: Session, match_id: int) -> list[int]:
    """Move every ladder of the match's pool this finished rated match counts for; returns
    their ids. Casual, unfinished and hot-seat matches (one account in two seats) move
    nothing, nor does a match of one server bot identity alone (rated against itself)."""
    match = session.get(Match, match_id)
    if match is None or not match.rated or match.status != "finished" or not match.result:
        return []
    query = select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
    seats = list(session.execute(query).scalars())
    accounts = [s.account_id for s in seats if s.account_id is not None]
    if len(accounts) != len(set(accounts)) or len({_player(s) for s in seats}) < 2:
        return []
    pool = pool_of(match.time_control)
    ladders = [
        game_ladder(session, match.game, pool),
        *_custom_ladders(session, match.game, pool, seats),
    ]
    moved = []
    for ladder in ladders:
        done = select(func.count(RatingEvent.id)).where(
            RatingEvent.ladder_id == ladder.id, RatingEvent.match_id == match_id
        )
        if not session.execute(done).scalar_one():
            _apply(session, ladder, match, seats)
            moved.append(ladder.id)
    return moved


def _custom_ladders(
    session: Session, game: str, pool: Pool, seats: list[MatchSeat]
) -> list[Ladder]:
    """Custom ladders of the game and pool that every seat's player has joined (bots join
    none)."""
    if any(s.account_id is None for s in seats):
        return []
    found = []
    for ladder in listing(session, game, pool):
        if ladder.kind != "custom":
            continue
        members = select(func.count(LadderEntry.id)).where(
            LadderEntry.ladder_id == ladder.id,
            LadderEntry.account_id.in_([s.account_id for s in seats]),
        )
        if session.execute(members).scalar_one() == len(seats):
            found.append(ladder)
    return found


def _player(row: MatchSeat) -> tuple[int | None, str | None]:
    """Who a seat is on a ladder: its account, or its server bot's identity."""
    if row.account_id is not None:
        return row.account_id, None
    return None, bot_identity(row.bot or "")


def _entry(session: Session, ladder: Ladder, row: MatchSeat) -> LadderEntry:
    """The seat's player's entry on the ladder, created at 1500 on first use."""
    account_id, bot = _player(row)
    entry = entry_for(session, ladder.id, account_id, bot)
    if entry is None:
        account = session.get(Account, account_id) if account_id is not None else None
        name = account.name if account is not None else bot_label(bot or "")
        entry = LadderEntry(
            ladder_id=ladder.id, account_id=account_id, bot=bot, name=name, ratings={}
        )
        session.add(entry)
        session.flush()
    return entry


def _apply(session: Session, ladder: Ladder, match: Match, seats: list[MatchSeat]) -> None:
    assert match.result is not None
    outcome = Outcome.from_json(match.result)
    changes = {int(k): int(v) for k, v in (match.ledger or {}).items()}
    system = system_for(len(seats))
    entries = {row.seat: _entry(session, ladder, row) for row in seats}
    # Two seats of one server bot level share its entry: each is rated against the other
    # players only, and their ledger changes add up (what one took from the other cancels).
    ratings = {entry.id: rating_of(entry, system) for entry in entries.values()}
    rated = rate_seats(ratings, {seat: e.id for seat, e in entries.items()}, outcome.placings)
    first = outcome.placings[0] if outcome.placings else []
    tournament = select(Pairing.tournament_id).where(Pairing.match_id == match.id)
    tournament_id = session.execute(tournament).scalar_one_or_none()
    for seat, before, after in rated:
        entry = entries[seat]
        change = changes.get(seat, 0)
        session.add(
            RatingEvent(
                ladder_id=ladder.id,
                entry_id=entry.id,
                match_id=match.id,
                tournament_id=tournament_id,
                system=system,
                points_before=entry.points,
                points_change=change,
                rating_before=before.to_json(),
                rating_after=after.to_json(),
            )
        )
        count_result(entry, seat, first, change, system, after.to_json())


def count_result(
    entry: LadderEntry,
    seat: int,
    first: list[int],
    points_change: int,
    system: str,
    rating_after: dict[str, Any],
) -> None:
    """One rated match on a ladder entry: its points, its win, draw or loss (``first`` is
    the first place, shared in a draw), and its new skill rating."""
    entry.points += points_change
    entry.played += 1
    if seat in first and len(first) == 1:
        entry.wins += 1
    elif seat in first:
        entry.draws += 1
    else:
        entry.losses += 1
    entry.ratings = {**entry.ratings, system: rating_after}
    entry.updated_at = utcnow()


def unapplied_matches(session: Session) -> list[int]:
    done = select(RatingEvent.match_id)
    query = (
        select(Match.id)
        .where(Match.rated.is_(True), Match.status == "finished", Match.id.not_in(done))
        .order_by(Match.id)
    )
    return list(session.execute(query).scalars())


class LadderService:
    """Applies every finished rated match, in the order matches finish, one at a time."""

    def __init__(self, writer: Writer, locks: Locks | None = None) -> None:
        self.writer = writer
        # One writer for all ladders, cluster-wide: ratings depend on the order matches are
        # applied in, and each application reads the ratings the one before wrote.
        self.locks = locks or Locks()
        self._tasks = BackgroundTasks()

    def on_match_finished(self, match_id: int) -> None:
        """The hub's finish hook (synchronous): apply the match in a task of its own."""
        self._tasks.start(self.apply(match_id))

    async def apply(self, match_id: int) -> list[int]:
        async with self.locks.hold("ladders"):
            return await self.writer.run(partial(apply_match, match_id=match_id))

    async def catch_up(self) -> None:
        """Apply finished rated matches that moved no ladder yet (killed before we got to them)."""
        for match_id in await self.writer.run(unapplied_matches):
            try:
                await self.apply(match_id)
            except Exception:
                log.exception("ladder catch-up failed for match %s", match_id)

    async def stop(self) -> None:
        await self._tasks.cancel_all()
