"""Tournament write transactions: each is one synchronous function of a ``Session`` that
checks, changes and returns what the caller must do next (matches to start, seats to resign).

They run through ``writes.Writer`` under the tournament's lock (``service.TournamentService``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from sqlalchemy.orm import Session

from app.accounts.names import title
from app.db.models import Match, MatchSeat, Tournament, TournamentEntry, TournamentRound, utcnow
from app.db.models import Pairing as PairingRow
from app.errors import AppError, Conflict, Forbidden, NotFound
from app.games import playable
from app.lobby.service import rated_refusal
from app.scoring.ledger import settle
from app.scoring.pools import pool_of
from app.scoring.ratings import SkillRating, system_for
from app.sessions.bots import BOT_KINDS, BOT_LEVELS, bot_spec, has_bots
from app.sessions.timecontrol import realtime_only_refusal
from app.tournaments import director, formats, ladders, store
from app.tournaments.formats import Format, Status, TournamentSpec
from app.tournaments.store import spec_of
from engines import registry
from engines.base import ActionError, Outcome
from engines.botkit import DEFAULT_LEVEL


def _organised(session: Session, organiser_id: int, tid: int) -> Tournament:
    tournament = store.get(session, tid)
    if tournament.organiser_id != organiser_id:
        raise Forbidden("tournament/not_organiser", "only the organiser may do this")
    return tournament


def create(session: Session, organiser_id: int, fields: dict[str, Any]) -> int:
    """A draft tournament. Refuses ``tournament/bad_name`` (a name with invisible characters,
    ``app.accounts.names.title``), ``tournament/unknown_game``, the ``formats.validate`` codes,
    ``tournament/bad_options`` (the engine's code in the message), ``tournament/realtime_only``
    (days per move for a game with grab races) and, when rated, ``tournament/rated_options``
    (``app.lobby.service.rated_refusal``: its tables would pass a stacked deal on)."""
    named = fields.get("name")
    name = title(named, code="tournament/bad_name", what="A tournament name") if named else None
    engine = playable().get(fields["game"])
    if engine is None:
        raise NotFound("tournament/unknown_game", f"no game {fields['game']!r}")
    realtime_only = realtime_only_refusal(fields["game"], fields.get("time_control"), "tournament")
    if realtime_only is not None:
        raise realtime_only
    stacked = rated_refusal(dict(fields.get("options") or {}), "tournament")
    if fields.get("rated", True) and stacked is not None:
        raise stacked
    spec = TournamentSpec(
        game=fields["game"],
        format=Format(fields["format"]),
        table_size=fields["table_size"],
        rounds=fields.get("rounds"),
        late_join_until=fields.get("late_join_until"),
    )
    formats.validate(spec, min_seats=engine.min_seats, max_seats=engine.max_seats)
    options = dict(fields.get("options") or {})
    try:
        engine.setup(spec.table_size, 0, options)
    except ActionError as refusal:
        text = f"{refusal.code}: {refusal.message}"
        raise AppError("tournament/bad_options", text, status=422) from refusal
    tournament = Tournament(
        name=name or f"{engine.title} {spec.format.replace('_', ' ')}",
        game=spec.game,
        format=spec.format.value,
        table_size=spec.table_size,
        rounds=spec.rounds,
        late_join_until=spec.late_join_until,
        time_control=dict(fields.get("time_control") or {}),
        options=options,
        rated=bool(fields.get("rated", True)),
        allow_bots=bool(fields.get("allow_bots", False)),
        status=Status.DRAFT.value,
        organiser_id=organiser_id,
        current_round=0,
    )
    session.add(tournament)
    session.flush()
    return tournament.id


def open_registration(session: Session, organiser_id: int, tid: int) -> None:
    """Refuses ``tournament/not_organiser`` and ``tournament/not_draft``."""
    tournament = _organised(session, organiser_id, tid)
    if tournament.status != Status.DRAFT:
        raise Conflict("tournament/not_draft", f"the tournament is {tournament.status}")
    tournament.status = Status.REGISTRATION.value


def _new_entry(session: Session, tournament: Tournament, **fields: Any) -> TournamentEntry:
    """An entry that passed ``formats.check_join``; a late joiner is seeded after everyone."""
    listed = store.entries(session, tournament.id)
    formats.check_join(
        spec_of(tournament),
        Status(tournament.status),
        rounds_started=tournament.current_round,
        rounds=tournament.planned_rounds or 0,
        players=len(listed),
    )
    if tournament.status == Status.RUNNING:
        seeds = [e.seed for e in listed if e.seed is not None]
        fields.update(seed=max(seeds, default=-1) + 1, joined_round=tournament.current_round + 1)
    entry = TournamentEntry(tournament_id=tournament.id, status="active", **fields)
    session.add(entry)
    session.flush()
    return entry


def register(
    session: Session, player_id: int, name: str, tid: int, bot_account: bool = False
) -> TournamentEntry:
    """Refuses the ``check_join`` codes, ``tournament/already_registered`` and, for a bot
    account, ``tournament/no_bots`` (403) unless the organiser admits bots (``allow_bots``)."""
    tournament = store.get(session, tid)
    if bot_account and not tournament.allow_bots:
        raise Forbidden("tournament/no_bots", "this tournament admits no bot accounts")
    if any(e.account_id == player_id for e in store.entries(session, tid)):
        raise Conflict("tournament/already_registered", "you are registered already")
    return _new_entry(session, tournament, account_id=player_id, name=name, bot_account=bot_account)


def add_bots(
    session: Session,
    organiser_id: int,
    tid: int,
    kind: str,
    count: int,
    difficulty: str = DEFAULT_LEVEL,
) -> list[TournamentEntry]:
    """Enter ``count`` bots of ``kind`` at ``difficulty`` (stored as the seat's bot spec, as
    table bots are; named with the level unless normal). Refuses
    ``tournament/not_organiser``, ``tournament/bad_difficulty``, ``tournament/no_bots`` and
    the join codes."""
    tournament = _organised(session, organiser_id, tid)
    if difficulty not in BOT_LEVELS:
        text = f"bot difficulty must be one of {', '.join(BOT_LEVELS)}"
        raise AppError("tournament/bad_difficulty", text, status=422)
    if kind not in BOT_KINDS or not has_bots(registry.get(tournament.game)):
        raise AppError("tournament/no_bots", f"{tournament.game} has no {kind} bots", status=422)
    level = "" if difficulty == DEFAULT_LEVEL else f" ({difficulty})"
    added = []
    for _ in range(count):
        number = len(store.entries(session, tid)) + 1
        name = f"{kind.title()} bot {number}{level}"
        added.append(_new_entry(session, tournament, bot=bot_spec(kind, difficulty), name=name))
    return added


def withdraw(
    session: Session, actor_id: int, tid: int, entry_id: int | None
) -> list[tuple[int, int, int | None]]:
    """Withdraw the actor (or, for the organiser, ``entry_id``). Before the start the entry is
    removed; after it the player is not paired again. Returns the live matches to resign in as
    (match, seat, account). Refuses ``tournament/finished``, ``tournament/not_organiser`` and
    ``tournament/not_registered``."""
    tournament = store.get(session, tid)
    formats.check_withdraw(Status(tournament.status))
    listed = store.entries(session, tid)
    if entry_id is None:
        mine = [e for e in listed if e.account_id == actor_id and e.status == "active"]
    else:
        own = any(e.id == entry_id and e.account_id == actor_id for e in listed)
        if tournament.organiser_id != actor_id and not own:
            raise Forbidden("tournament/not_organiser", "only the organiser may do this")
        mine = [e for e in listed if e.id == entry_id and e.status == "active"]
    if not mine:
        raise Conflict("tournament/not_registered", "no such active entry")
    entry = mine[0]
    if tournament.status in (Status.DRAFT, Status.REGISTRATION):
        session.delete(entry)
        return []
    entry.status = "withdrawn"
    entry.withdrawn_round = tournament.current_round
    return [
        (row.match_id, row.entries.index(entry.id), entry.account_id)
        for row in store.pairings(session, tid)
        if row.status == "playing" and entry.id in row.entries and row.match_id is not None
    ]


def start(session: Session, organiser_id: int, tid: int) -> list[int]:
    """Seed by skill, fix the rounds, pair round 1; returns the matches to start. Refuses
    ``tournament/not_organiser``, the ``check_start`` codes and ``tournament/rated_options``
    (checked again: no rated table opens with a stacked deal, whatever changed the row)."""
    tournament = _organised(session, organiser_id, tid)
    listed = store.entries(session, tid)
    formats.check_start(Status(tournament.status), len(listed))
    stacked = rated_refusal(dict(tournament.options or {}), "tournament")
    if tournament.rated and stacked is not None:
        raise stacked
    pool = pool_of(tournament.time_control)
    ladder = ladders.find_game_ladder(session, tournament.game, pool)
    system = system_for(tournament.table_size)
    for entry in listed:
        rated = (
            ladders.entry_for(session, ladder.id, entry.account_id, entry.bot) if ladder else None
        )
        entry.skill = (
            ladders.rating_of(rated, system) if rated else SkillRating.initial(system)
        ).conservative
    listed.sort(key=lambda e: (-(e.skill or 0.0), e.id))
    for index, entry in enumerate(listed):
        entry.seed = index
    tournament.planned_rounds = formats.planned_rounds(spec_of(tournament), len(listed))
    tournament.status = Status.RUNNING.value
    tournament.started_at = utcnow()
    session.flush()
    return advance(session, tid)


def advance(session: Session, tid: int) -> list[int]:
    """Close a completed round and pair the next (again, past rounds of byes only), or finish
    the tournament when the director says it is over. Returns the new matches to start."""
    tournament = store.get(session, tid)
    while tournament.status == Status.RUNNING:
        round_rows, _, found = store.records(session, tid)
        if found and not found[-1].complete:
            return []
        if round_rows and round_rows[-1].status != "finished":
            round_rows[-1].status = "finished"
            round_rows[-1].finished_at = utcnow()
        listed = store.entries(session, tid)
        pairing = director.next_pairing(
            spec_of(tournament),
            [e.id for e in listed],
            [e.id for e in listed if e.status == "active"],
            found,
            tournament.planned_rounds or 0,
        )
        if pairing is None:
            tournament.status = Status.FINISHED.value
            tournament.finished_at = utcnow()
            return []
        round_row = TournamentRound(
            tournament_id=tid, number=len(found) + 1, byes=list(pairing.byes)
        )
        session.add(round_row)
        tournament.current_round = round_row.number
        session.flush()
        by_id = {e.id: e for e in listed}
        opened = []
        for table_no, table in enumerate(pairing.tables, start=1):
            match_id = _open_table(session, tournament, [by_id[p] for p in table.players])
            session.add(
                PairingRow(
                    round_id=round_row.id,
                    tournament_id=tid,
                    table_no=table_no,
                    entries=list(table.players),
                    match_id=match_id,
                    status="playing",
                    forfeited=[],
                )
            )
            opened.append(match_id)
        session.flush()
        if opened:
            return opened
    return []


def _open_table(session: Session, tournament: Tournament, players: list[TournamentEntry]) -> int:
    """The table's match, as ``MatchRepository.create`` makes them; seat 0 moves first."""
    options = dict(tournament.options or {})
    options["names"] = [p.name for p in players]
    options["first_seat"] = 0
    match = Match(
        game=tournament.game,
        seat_count=len(players),
        options=options,
        seed=secrets.randbits(62),
        rated=tournament.rated,
        time_control=dict(tournament.time_control or {}),
        lobby_id=None,
        started_wall_ms=int(time.time() * 1000),
        status="running",
        version=0,
        forfeits={},
    )
    session.add(match)
    session.flush()
    for seat, player in enumerate(players):
        session.add(
            MatchSeat(
                match_id=match.id,
                seat=seat,
                account_id=player.account_id,
                bot=player.bot,
                name=player.name,
            )
        )
    return match.id


def record(session: Session, match_id: int) -> int | None:
    """Store a finished tournament match's result in its pairing (entry ids, ledger changes,
    forfeits) and withdraw whoever abandoned it; returns the tournament, None if not ours.
    The tournament's own ledger is settled here from the outcome: a casual tournament's
    matches record none of their own (``app.sessions.results``)."""
    row = store.pairing_for_match(session, match_id)
    match = session.get(Match, match_id)
    if row is None or match is None or row.status == "finished" or match.status != "finished":
        return None
    assert match.result is not None
    outcome = Outcome.from_json(match.result)
    seat_entry = list(row.entries)
    forfeits = {int(seat): reason for seat, reason in (match.forfeits or {}).items()}
    changes = settle(outcome, forfeited=list(forfeits))
    row.placings = [[seat_entry[s] for s in group] for group in outcome.placings]
    row.changes = {str(seat_entry[s]): change for s, change in changes.items()}
    row.forfeited = sorted(seat_entry[s] for s in forfeits)
    row.status = "finished"
    abandoned = {seat_entry[s] for s, reason in forfeits.items() if reason == "abandoned"}
    tournament = store.get(session, row.tournament_id)
    for entry in store.entries(session, row.tournament_id):
        if entry.id in abandoned and entry.status == "active":
            entry.status = "withdrawn"
            entry.withdrawn_round = tournament.current_round
    return row.tournament_id


def record_and_advance(session: Session, match_id: int) -> tuple[int | None, list[int]]:
    tid = record(session, match_id)
    if tid is None:
        return None, []
    session.flush()
    return tid, advance(session, tid)


def catch_up(session: Session, tid: int) -> list[int]:
    """Start-up: results that came in while we were down, then pairing where due."""
    for row in store.pairings(session, tid):
        if row.status == "playing" and row.match_id is not None:
            record(session, row.match_id)
    session.flush()
    return advance(session, tid)
