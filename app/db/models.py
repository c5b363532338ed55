"""ORM models: accounts, lobbies, matches, match seats, the action log, tournaments, ladders."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.accounts.names import MAX_SKELETON_LENGTH, name_key, name_skeleton

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


def key_of_inserted_name(context: DefaultExecutionContext) -> str:
    """An account row inserted without its name key gets the key of its name."""
    parameters: dict[str, Any] = context.get_current_parameters()  # type: ignore[no-untyped-call]
    return name_key(str(parameters["name"]))


def skeleton_of_inserted_name(context: DefaultExecutionContext) -> str:
    """An account row inserted without its look-alike key gets the one of its name."""
    parameters: dict[str, Any] = context.get_current_parameters()  # type: ignore[no-untyped-call]
    return name_skeleton(str(parameters["name"]))


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Account(Base):
    """A player: a guest (no password) or registered (argon2 hash); names never repeat."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # The name's comparison key (``app.accounts.names.name_key``), guests and registered alike.
    # Always set (migration 0004 filled it for older guests); at most 40 characters.
    name_key: Mapped[str | None] = mapped_column(
        String(40), unique=True, default=key_of_inserted_name
    )
    # Its look-alike key (``app.accounts.names.name_skeleton``): unique too, so no name looks
    # like another in any case. Always set (migration 0008 filled it).
    name_skeleton: Mapped[str | None] = mapped_column(
        String(MAX_SKELETON_LENGTH), unique=True, default=skeleton_of_inserted_name
    )
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Moderation (``app.moderation``): granted from the command line; a banned account's
    # tokens are refused; a muted player's chat is refused until ``muted_until``.
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    banned: Mapped[bool] = mapped_column(Boolean, default=False)
    muted_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A bot account: a program its author runs through the API, registered as one (never
    # turned into one later). Shown as a bot wherever its name shows.
    bot: Mapped[bool] = mapped_column(Boolean, default=False)

    @property
    def is_guest(self) -> bool:
        return self.password_hash is None


class Lobby(Base):
    """A table being set up; ``members`` holds one entry per seat (player, bot or empty)."""

    __tablename__ = "lobbies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    seat_count: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    invite_code: Mapped[str | None] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    hot_seat: Mapped[bool] = mapped_column(Boolean, default=False)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    members: Mapped[list[Any]] = mapped_column(JSON, default=list)
    match_id: Mapped[int | None] = mapped_column(Integer)
    # Bumped by every saved change: clients keep the newest snapshot whichever way
    # (REST reply, refetch or lobby feed) it reached them first.
    revision: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Match(Base):
    """One match: engine, seed and options (with the action log, enough to replay it)."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    seat_count: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="running", index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    lobby_id: Mapped[int | None] = mapped_column(Integer)
    # Wall clock (ms since the epoch) at which match time 0 was; restarts resume from it.
    started_wall_ms: Mapped[int] = mapped_column(BigInteger)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    ledger: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    forfeits: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Grab-race suspicion flags per seat (``app/races/suspicion.py``), written with the result.
    flags: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # A rated match an admin voided (status ``voided``): who, when, why (``app.moderation``).
    voided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    voided_by: Mapped[int | None] = mapped_column(Integer)
    void_reason: Mapped[str | None] = mapped_column(String(500))

    __table_args__ = (Index("ix_matches_started_at", "started_at"),)


class MatchSeat(Base):
    """Who sat where: an account or a server-side bot, with its castle name and ledger change."""

    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(60))
    ledger_delta: Mapped[int | None] = mapped_column(Integer)


class MatchAction(Base):
    """One accepted version of a match: the action (or tick), its time and its full events.

    The log is the source of truth: ``setup(seed, options)`` plus these rows in version order
    rebuilds the match. ``cause`` says who or what acted: player, bot, timeout, forfeit, tick.
    """

    __tablename__ = "match_actions"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    account_id: Mapped[int | None] = mapped_column(Integer)
    client_seq: Mapped[int | None] = mapped_column(BigInteger)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at_ms: Mapped[int] = mapped_column(BigInteger)
    cause: Mapped[str] = mapped_column(String(32))  # ``forfeit_abandoned`` has 17
    events: Mapped[list[Any]] = mapped_column(JSON)
    arbitration: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchWakeup(Base):
    """A sleeping match (``app/sessions/sleep.py``): out of memory until someone comes or
    ``due_at`` (wall ms; None: nothing is ever due) passes. ``carry`` holds what its log does
    not (turn clocks, who is away since when); ``taken_by`` is the process waking it, until
    ``taken_until`` (wall ms), so a due match is woken by one process only."""

    __tablename__ = "match_wakeups"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    due_at: Mapped[int | None] = mapped_column(BigInteger, index=True)
    carry: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    taken_by: Mapped[str | None] = mapped_column(String(64))
    taken_until: Mapped[int | None] = mapped_column(BigInteger)
    slept_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# ----- tournaments and ladders -----------------------------------------------------------------


class Tournament(Base):
    """An organiser's tournament: the spec (game, format, rounds, time control, options) and
    where it stands (draft, registration, running, finished)."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32), index=True)
    format: Mapped[str] = mapped_column(String(24))
    table_size: Mapped[int] = mapped_column(Integer, default=2)
    # The organiser's number (None: the format decides); ``planned_rounds`` is fixed at start.
    rounds: Mapped[int | None] = mapped_column(Integer)
    planned_rounds: Mapped[int | None] = mapped_column(Integer)
    late_join_until: Mapped[int | None] = mapped_column(Integer)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    # Whether bot accounts may register (the organiser's choice; server bots are added by him).
    allow_bots: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="draft", index=True)
    organiser_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TournamentEntry(Base):
    """One entrant: an account or a server-side bot, its seed, and whether it still plays."""

    __tablename__ = "tournament_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(32))
    # The account is a bot account (copied at registration: an account never changes kind).
    bot_account: Mapped[bool] = mapped_column(Boolean, default=False)
    name: Mapped[str] = mapped_column(String(60))
    # Seed order (0 best) is fixed at the start from skill; late joiners come after.
    seed: Mapped[int | None] = mapped_column(Integer)
    skill: Mapped[float | None] = mapped_column(Float)
    joined_round: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")
    withdrawn_round: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentRound(Base):
    """A paired round; its byes are entry ids."""

    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="running")
    byes: Mapped[list[Any]] = mapped_column(JSON, default=list)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("tournament_id", "number"),)


class Pairing(Base):
    """One table of a round: entries in seat order, its match, and (once over) the result in
    entry ids with each entry's ledger change."""

    __tablename__ = "pairings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    table_no: Mapped[int] = mapped_column(Integer)
    entries: Mapped[list[Any]] = mapped_column(JSON)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    placings: Mapped[list[Any] | None] = mapped_column(JSON)
    changes: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    forfeited: Mapped[list[Any]] = mapped_column(JSON, default=list)


class Ladder(Base):
    """A rating ladder: one per game and pool (``kind`` game, moved by every rated match of it
    in its ``pool``, ``app.scoring.pools``) or a custom one an organiser creates (moved by
    rated matches of its pool whose players all joined it)."""

    __tablename__ = "ladders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(16), default="game")
    pool: Mapped[str] = mapped_column(String(16), default="realtime", server_default="realtime")
    organiser_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LadderEntry(Base):
    """A player's (or a bot kind's) place on a ladder: the 1500-point ledger and the skill
    ratings (``ratings``: system -> SkillRating JSON)."""

    __tablename__ = "ladder_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ladder_id: Mapped[int] = mapped_column(ForeignKey("ladders.id"), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(60))
    points: Mapped[int] = mapped_column(Integer, default=1500)
    played: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    ratings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# The leaderboard's order (``app.tournaments.ladders.leaderboard``): a page is read off this
# index instead of sorting the whole ladder for every request.
Index(
    "ix_ladder_entries_board",
    LadderEntry.ladder_id,
    LadderEntry.points.desc(),
    LadderEntry.played.desc(),
    LadderEntry.id,
)


class RatingEvent(Base):
    """What one rated match did to one ladder entry: ledger and skill, before and after."""

    __tablename__ = "rating_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ladder_id: Mapped[int] = mapped_column(ForeignKey("ladders.id"), index=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("ladder_entries.id"), index=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    tournament_id: Mapped[int | None] = mapped_column(Integer)
    system: Mapped[str] = mapped_column(String(16))
    points_before: Mapped[int] = mapped_column(Integer)
    points_change: Mapped[int] = mapped_column(Integer)
    rating_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    rating_after: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# ----- moderation ---------------------------------------------------------------------------


class Report(Base):
    """A player's report of a match or of one chat line in it; an admin closes it."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    seat: Mapped[int | None] = mapped_column(Integer)
    chat_text: Mapped[str | None] = mapped_column(String(500))
    reason: Mapped[str] = mapped_column(String(500))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_by: Mapped[int | None] = mapped_column(Integer)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    resolution: Mapped[str | None] = mapped_column(String(500))


class AuditRecord(Base):
    """One admin action: who (an admin's account, or ``cli``), what, on whom, why, and what
    it changed (``detail``: a void's reversed ledger and rating events)."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    admin_id: Mapped[int | None] = mapped_column(Integer)
    actor: Mapped[str] = mapped_column(String(60))
    action: Mapped[str] = mapped_column(String(32))
    account_id: Mapped[int | None] = mapped_column(Integer)
    match_id: Mapped[int | None] = mapped_column(Integer)
    report_id: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(500), default="")
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )
