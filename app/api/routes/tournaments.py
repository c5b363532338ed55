"""Tournament REST: create, list, show, open, register, bots, withdraw, start, rounds, pairings,
standings."""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from fastapi import APIRouter, Response
from pydantic import Field

from app.api.deps import CurrentPlayer, SessionDep, TournamentReadsDep, TournamentsDep
from app.api.errors import declared
from app.api.filters import GameFilter, TournamentStatusFilter
from app.api.params import BodyId, IdPath, Options, RoundPath, ShortText
from app.api.responses.common import encoded
from app.api.responses.tournaments import (
    EntryOut,
    RoundOut,
    StandingOut,
    TableOut,
    TournamentDetail,
    TournamentOut,
)
from app.api.schemas import Body, TimeControlIn
from app.api.throttles import ANONYMOUS_READS
from app.errors import NotFound
from app.tournaments import store
from app.tournaments.store import entry_json, tournament_json

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


class NewTournament(Body):
    name: str | None = Field(default=None, max_length=80)
    game: ShortText
    format: Literal["round_robin", "swiss", "single_elimination"]
    table_size: int = Field(default=2, ge=2, le=4)
    rounds: int | None = Field(default=None, ge=1, le=64)
    late_join_until: int | None = Field(default=None, ge=0, le=64)
    time_control: TimeControlIn = Field(default_factory=TimeControlIn)
    options: Options = Field(default_factory=dict)
    rated: bool = True
    allow_bots: bool = Field(
        default=False, description="bot accounts may register (else `tournament/no_bots`)"
    )


class AddBots(Body):
    kind: Literal["heuristic", "random"] = "heuristic"
    count: int = Field(default=1, ge=1, le=64)
    difficulty: Literal["easy", "normal", "hard"] = "normal"


class Withdraw(Body):
    entry_id: BodyId | None = None


# What a change to a tournament can be refused with (see ``app.tournaments.transactions``).
CHANGE = declared(400, 401, 403, 404, 409, 422, 503)
READ = declared(404, 422, 503)


async def shown(db: SessionDep, tid: int) -> dict[str, Any]:
    return await db.run_sync(partial(store.show, tournament_id=tid))


@router.post(
    "",
    status_code=201,
    response_model=TournamentDetail,
    response_model_exclude_unset=True,
    responses=declared(400, 401, 404, 422, 503),
)
async def create_tournament(
    body: NewTournament, player: CurrentPlayer, db: SessionDep, service: TournamentsDep
) -> dict[str, Any]:
    """A draft tournament; the caller organises it."""
    fields = body.model_dump()
    fields["time_control"] = body.time_control.model_dump(exclude_none=True)
    return await shown(db, await service.create(player, fields))


@router.get(
    "",
    response_model=list[TournamentOut],
    response_model_exclude_unset=True,
    responses=declared(422, 503),
)
async def list_tournaments(
    db: SessionDep, status: TournamentStatusFilter = None, game: GameFilter = None
) -> list[dict[str, Any]]:
    rows = await db.run_sync(partial(store.search, status=status, game=game))
    return [tournament_json(t, players) for t, players in rows]


@router.get(
    "/{tid}", response_model=TournamentDetail, response_model_exclude_unset=True, responses=READ
)
async def get_tournament(tid: IdPath, db: SessionDep) -> dict[str, Any]:
    return await shown(db, tid)


@router.post(
    "/{tid}/open",
    response_model=TournamentDetail,
    response_model_exclude_unset=True,
    responses=CHANGE,
)
async def open_registration(
    tid: IdPath, player: CurrentPlayer, db: SessionDep, service: TournamentsDep
) -> dict[str, Any]:
    await service.open(player, tid)
    return await shown(db, tid)


@router.post(
    "/{tid}/register",
    status_code=201,
    response_model=EntryOut,
    response_model_exclude_unset=True,
    responses=CHANGE,
)
async def register(tid: IdPath, player: CurrentPlayer, service: TournamentsDep) -> dict[str, Any]:
    return entry_json(await service.register(player, tid))


@router.post(
    "/{tid}/bots",
    status_code=201,
    response_model=list[EntryOut],
    response_model_exclude_unset=True,
    responses=CHANGE,
)
async def add_bots(
    tid: IdPath, body: AddBots, player: CurrentPlayer, service: TournamentsDep
) -> list[dict[str, Any]]:
    """The organiser enters server-side bots (``difficulty``: easy, normal or hard)."""
    added = await service.add_bots(player, tid, body.kind, body.count, body.difficulty)
    return [entry_json(e) for e in added]


@router.post(
    "/{tid}/withdraw",
    response_model=TournamentDetail,
    response_model_exclude_unset=True,
    responses=CHANGE,
)
async def withdraw(
    tid: IdPath, body: Withdraw, player: CurrentPlayer, db: SessionDep, service: TournamentsDep
) -> dict[str, Any]:
    """Withdraw yourself (or, as organiser, ``entry_id``)."""
    await service.withdraw(player, tid, body.entry_id)
    return await shown(db, tid)


@router.post(
    "/{tid}/start",
    response_model=TournamentDetail,
    response_model_exclude_unset=True,
    responses=CHANGE,
)
async def start(
    tid: IdPath, player: CurrentPlayer, db: SessionDep, service: TournamentsDep
) -> dict[str, Any]:
    """Seed by skill and pair round 1 (its tables open at once)."""
    await service.start(player, tid)
    return await shown(db, tid)


@router.get(
    "/{tid}/rounds",
    response_model=list[RoundOut],
    response_model_exclude_unset=True,
    responses=READ,
)
async def rounds(tid: IdPath, db: SessionDep, reads: TournamentReadsDep) -> Response:
    """Every round with its tables (pairings), byes and results (kept until the tournament
    changes: ``app.tournaments.read_cache``), encoded as kept (``encoded``)."""
    return encoded(await reads.rounds(db, tid))


@router.get(
    "/{tid}/rounds/{number}/pairings",
    response_model=list[TableOut],
    response_model_exclude_unset=True,
    responses=READ,
)
async def pairings(
    tid: IdPath, number: RoundPath, db: SessionDep, reads: TournamentReadsDep
) -> Response:
    for round_info in await reads.rounds(db, tid):
        if round_info["number"] == number:
            return encoded(round_info["pairings"])
    raise NotFound("tournament/no_round", f"no round {number}")


@router.get(
    "/{tid}/standings",
    response_model=list[StandingOut],
    response_model_exclude_unset=True,
    responses=declared(404, 422, 429, 503),
    dependencies=[ANONYMOUS_READS],
)
async def standings(tid: IdPath, db: SessionDep, reads: TournamentReadsDep) -> Response:
    """The tournament's 1500-point ledger with Buchholz, Sonneborn-Berger and head-to-head
    (kept until the tournament changes: ``app.tournaments.read_cache``), encoded as kept
    (``encoded``)."""
    return encoded(await reads.standings(db, tid))
