"""Ladder REST: ladders (one per game, and custom ones), leaderboards with the 1500-point ledger
and skill ratings, and joining a custom ladder."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import Field

from app.api.deps import CurrentPlayer, LaddersDep, SessionDep
from app.api.errors import declared
from app.api.filters import GameFilter
from app.api.params import IdPath, ShortText
from app.api.responses.common import encoded
from app.api.responses.ladders import LadderEntryOut, LadderOut
from app.api.schemas import Body
from app.api.throttles import ANONYMOUS_READS
from app.scoring.pools import DEFAULT_POOL, Pool
from app.tournaments import ladders as ladder_store
from app.tournaments.ladders import entry_json, ladder_json

router = APIRouter(prefix="/api/ladders", tags=["ladders"])

BoardOffset = Annotated[int, Query(ge=0, le=10_000, description="rows to skip (at most 10,000)")]


PoolFilter = Annotated[
    Pool,
    Query(description="the rating pool: `realtime` (the default) or `correspondence`"),
]


class NewLadder(Body):
    game: ShortText
    name: str = Field(min_length=1, max_length=80)
    pool: Pool = Field(
        default=DEFAULT_POOL,
        description="the rated matches it counts: `realtime` or `correspondence` (days per move)",
    )


@router.get(
    "",
    response_model=list[LadderOut],
    response_model_exclude_unset=True,
    responses=declared(422, 503),
)
async def list_ladders(
    db: SessionDep, ladders: LaddersDep, game: GameFilter = None, pool: PoolFilter = DEFAULT_POOL
) -> list[dict[str, Any]]:
    """Every game's ladder (created on first look) and the custom ones, of one rating pool:
    correspondence matches (days per move) are rated apart from real-time ones."""
    await ladders.writer.run(ladder_store.ensure_game_ladders)
    work = partial(ladder_store.listing, game=game, pool=pool)
    return [ladder_json(lad) for lad in await db.run_sync(work)]


@router.post(
    "",
    status_code=201,
    response_model=LadderOut,
    response_model_exclude_unset=True,
    responses=declared(400, 401, 404, 422, 503),
)
async def create_ladder(
    body: NewLadder, player: CurrentPlayer, db: SessionDep, ladders: LaddersDep
) -> dict[str, Any]:
    """A custom ladder; rated matches of its pool move it when every player at the table has
    joined it."""
    work = partial(
        ladder_store.create_ladder,
        organiser_id=player.id,
        game=body.game,
        name=body.name,
        pool=body.pool,
    )
    return ladder_json(await ladders.writer.run(work))


@router.get(
    "/{ladder_id}",
    response_model=LadderOut,
    response_model_exclude_unset=True,
    responses=declared(404, 422, 503),
)
async def get_ladder(ladder_id: IdPath, db: SessionDep) -> dict[str, Any]:
    return ladder_json(await db.run_sync(partial(ladder_store.get, ladder_id=ladder_id)))


@router.get(
    "/{ladder_id}/entries",
    response_model=list[LadderEntryOut],
    response_model_exclude_unset=True,
    responses=declared(404, 422, 429, 503),
    dependencies=[ANONYMOUS_READS],
)
async def leaderboard(
    ladder_id: IdPath,
    db: SessionDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: BoardOffset = 0,
) -> Response:
    """The leaderboard: the 1500-point ledger first, the skill ratings beside it. Pages are
    read off the board's index, down to ``offset`` 10,000 (a deeper one walks every entry it
    skips). Encoded as built (``encoded``: up to 500 entries a page)."""
    work = partial(ladder_store.leaderboard, ladder_id=ladder_id, limit=limit, offset=offset)
    entries = await db.run_sync(work)
    bots = await db.run_sync(partial(ladder_store.bot_accounts, entries=entries))
    return encoded(
        [entry_json(e, offset + i + 1, e.account_id in bots) for i, e in enumerate(entries)]
    )


@router.post(
    "/{ladder_id}/join",
    status_code=201,
    response_model=LadderEntryOut,
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 409, 422, 503),
)
async def join_ladder(
    ladder_id: IdPath, player: CurrentPlayer, ladders: LaddersDep
) -> dict[str, Any]:
    """Join a custom ladder at 1500 points."""
    work = partial(
        ladder_store.join_ladder, ladder_id=ladder_id, account_id=player.id, name=player.name
    )
    return entry_json(await ladders.writer.run(work), bot_account=player.bot)
