"""Match inspection: list and filter, one match, its event log (NDJSON), its state at a version."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import StreamingResponse
from sqlalchemy import select

from app.api.deps import OPTIONAL_TOKEN, ClusterDep, HubDep, OptionalPlayer, SessionDep
from app.api.errors import declared
from app.api.filters import GameFilter, MatchStatusFilter
from app.api.params import (
    IdPath,
    IdQuery,
    MomentQuery,
    SeatQuery,
    VersionQuery,
)
from app.api.responses.common import encoded
from app.api.responses.matches import MatchList, MatchOut, RouteOut, StateOut
from app.api.throttles import ANONYMOUS_READS
from app.db.models import Account, Match, MatchAction, MatchSeat, Pairing
from app.db.repositories import MATCH_COUNT_CAP, MatchFilter, MatchRepository
from app.errors import Forbidden
from app.sessions import wire
from app.sessions.bots import parse_bot_spec
from app.sessions.seat_names import AccountName, account_names
from engines.base import events_for

router = APIRouter(prefix="/api/matches", tags=["matches"])

HistoryOffset = Annotated[
    int, Query(ge=0, le=MATCH_COUNT_CAP, description="rows to skip (at most 10,000)")
]

# Options that stack hidden cards: shown only once the match is over.
HIDDEN_OPTIONS = frozenset({"deck", "decks"})


def seat_json(seat: MatchSeat, rated: bool, player: AccountName | None = None) -> dict[str, Any]:
    """A seat; a bot's stored spec (``heuristic:hard``) is shown as its kind and difficulty.
    ``name`` is the seat's castle name, ``player`` the seated account's name (None: a bot),
    ``bot_account`` whether that account is a bot account. A casual match's seat has no
    ``ledger_delta`` (null): only rated play moves the ledger."""
    kind, difficulty = parse_bot_spec(seat.bot) if seat.bot else (None, None)
    return {
        "seat": seat.seat,
        "account_id": seat.account_id,
        "name": seat.name,
        "player": player.name if player else None,
        "bot_account": bool(player and player.bot),
        "bot": kind,
        "difficulty": difficulty,
        "ledger_delta": seat.ledger_delta if rated else None,
    }


def match_json(
    match: Match, seats: list[MatchSeat], players: dict[int, AccountName] | None = None
) -> dict[str, Any]:
    """A match; ``players``: the seated accounts' names by id (``account_names``)."""
    names = players or {}
    finished = match.status != "running"
    options = (
        match.options
        if finished
        else {k: v for k, v in match.options.items() if k not in HIDDEN_OPTIONS}
    )
    return {
        "id": match.id,
        "game": match.game,
        "status": match.status,
        "rated": match.rated,
        "seats": [
            seat_json(seat, match.rated, names.get(seat.account_id) if seat.account_id else None)
            for seat in seats
        ],
        "options": options,
        "time_control": match.time_control,
        "started_at": match.started_at.isoformat(),
        "ended_at": match.ended_at.isoformat() if match.ended_at else None,
        "version": match.version,
        "result": match.result,
        "ledger": match.ledger if match.rated else None,
        "forfeits": match.forfeits,
        "flags": match.flags,
        "lobby_id": match.lobby_id,
    }


def viewer_seat(seats: list[MatchSeat], viewer: Account | None, wanted: int | None) -> int | None:
    """The seat whose view the requester gets: theirs (``wanted`` among several, as a hot
    seat holds them), else None (a spectator's). A ``wanted`` seat the requester does not
    hold is refused: ``match/not_your_seat`` (403)."""
    mine = [s.seat for s in seats if viewer is not None and s.account_id == viewer.id]
    if wanted is not None:
        if wanted not in mine:
            raise Forbidden("match/not_your_seat", f"seat {wanted} is not yours to see")
        return wanted
    return mine[0] if mine else None


@router.get(
    "",
    response_model=MatchList,
    response_model_exclude_unset=True,
    responses=declared(422, 429, 503),
    dependencies=[ANONYMOUS_READS],
)
async def list_matches(
    db: SessionDep,
    game: GameFilter = None,
    player: IdQuery = None,
    status: MatchStatusFilter = None,
    since: MomentQuery = None,
    until: MomentQuery = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: HistoryOffset = 0,
) -> Response:
    """The matches of the filters, newest first: ``total`` counts them up to 10,000
    (``total_capped`` when it stopped there), and pages reach as deep (``offset`` at most
    10,000): a count or an offset walks every row it passes."""
    repo = MatchRepository(db)
    spec = MatchFilter(game, player, status, since, until, limit, offset)
    total, matches = await repo.search(spec)
    seats = await repo.seats_of([m.id for m in matches])
    players = await account_names(db, [s for rows in seats.values() for s in rows])
    found = [match_json(m, seats.get(m.id, []), players) for m in matches]
    # Encoded as built (``encoded``): the list is a hot read; the tests check its model.
    return encoded({"total": total, "total_capped": total >= MATCH_COUNT_CAP, "matches": found})


@router.get(
    "/{match_id}",
    response_model=MatchOut,
    response_model_exclude_unset=True,
    responses=declared(404, 422, 429, 503),
    dependencies=[ANONYMOUS_READS],
)
async def get_match(match_id: IdPath, db: SessionDep, hub: HubDep) -> dict[str, Any]:
    """One match with seats, result and ledger changes; refuses ``match/not_found``."""
    repo = MatchRepository(db)
    match = await repo.get(match_id)
    seats = await repo.seats(match_id)
    data = match_json(match, seats, await account_names(db, seats))
    # A tournament's table: its result leads back to the tournament (None: no tournament).
    data["tournament_id"] = await db.scalar(
        select(Pairing.tournament_id).where(Pairing.match_id == match_id)
    )
    if match.status == "running":
        data["version"] = await hub.reads.latest(repo, match)
    return data


@router.get(
    "/{match_id}/route",
    response_model=RouteOut,
    response_model_exclude_unset=True,
    responses=declared(422, 503),
)
async def get_route(match_id: IdPath, cluster: ClusterDep) -> dict[str, Any]:
    """Where the match's socket should go: ``node`` names the process that serves it when
    several do (a balancer routes ``/ws/matches/{id}?node=<node>`` there), else null. Any
    process accepts any match socket; this only spares a relay hop."""
    node = None if cluster is None else await cluster.owner(match_id)
    return {"match_id": match_id, "node": node}


@router.get(
    "/{match_id}/events",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"application/x-ndjson": {}}, "description": "one JSON object a line"},
        **declared(401, 403, 404, 422, 429, 503),
    },
    openapi_extra=OPTIONAL_TOKEN,
    dependencies=[ANONYMOUS_READS],
)
async def get_events(
    match_id: IdPath,
    db: SessionDep,
    hub: HubDep,
    viewer: OptionalPlayer,
    seat: SeatQuery = None,
) -> StreamingResponse:
    """The event log as NDJSON, one version per line. While the match runs it is redacted for
    the requester (their seat's events; others' actions left out); after the end, complete.
    Each line is encoded once per audience and kept (``app.sessions.log_reads``). ``seat``
    names one of the requester's seats (a hot seat holds several); any other is refused with
    ``match/not_your_seat`` (403)."""
    repo = MatchRepository(db)
    match = await repo.get(match_id)
    seats = await repo.seats(match_id)
    complete = match.status != "running"
    as_seat = viewer_seat(seats, viewer, seat)

    def encode(row: MatchAction) -> str:
        line: dict[str, Any] = {
            "version": row.version,
            "at_ms": row.at_ms,
            "seat": row.seat,
            "cause": row.cause,
        }
        if complete:
            line.update(action=row.action, events=row.events, arbitration=row.arbitration)
        else:
            if row.seat is not None and row.seat == as_seat:
                line["action"] = row.action
            line["events"] = events_for(row.events, as_seat)
        return wire.dumps(line) + "\n"

    reads = hub.reads
    audience = "complete" if complete else ("seat", as_seat)
    chunks = await reads.logs.lines(repo, match_id, audience, encode)
    head: dict[str, Any] = {"version": 0, "type": "setup", "game": match.game}
    head["seats"] = [seat_json(s, match.rated) for s in seats]
    if complete:
        head.update(seed=match.seed, options=match.options)

    async def lines() -> AsyncIterator[str]:
        yield wire.dumps(head) + "\n"
        for chunk in chunks:
            yield chunk

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.get(
    "/{match_id}/state",
    response_model=StateOut,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 422, 429, 503),
    openapi_extra=OPTIONAL_TOKEN,
    dependencies=[ANONYMOUS_READS],
)
async def get_state(
    match_id: IdPath,
    db: SessionDep,
    hub: HubDep,
    viewer: OptionalPlayer,
    version: VersionQuery = None,
    seat: SeatQuery = None,
) -> Response:
    """The match at ``version`` (default: the latest): the requester's view, and once the
    match is over the whole engine state too. The latest version of a match this process
    plays comes from its live session; any other is rebuilt from the log, starting from a
    snapshot kept by an earlier rebuild (``app.sessions.reads``). ``seat`` names one of the
    requester's seats (a hot seat holds several). Refuses ``match/no_version`` (404) and
    ``match/not_your_seat`` (403: a seat the requester does not hold)."""
    repo = MatchRepository(db)
    match = await repo.get(match_id)
    as_seat = viewer_seat(await repo.seats(match_id), viewer, seat)
    reads = hub.reads
    seen = await reads.seen(repo, match, version, as_seat, whole=match.status != "running")
    data: dict[str, Any] = {
        "match_id": match_id,
        "version": seen.version,
        "seat": as_seat,
        "view": seen.view,
    }
    if seen.state is not None:
        data["state"] = seen.state
    # Encoded as built (``encoded``): checking a view per request would cost tens of times
    # the encoding; the engines' views are checked against their models by the tests.
    return encoded(data)
