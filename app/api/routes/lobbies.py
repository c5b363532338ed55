"""Lobby REST: create, list, show, join, leave, castle name, vote, bots, start."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.deps import (
    OPTIONAL_TOKEN,
    CurrentPlayer,
    LimitsDep,
    LobbiesDep,
    OptionalPlayer,
    SessionDep,
)
from app.api.errors import declared
from app.api.filters import GameFilter
from app.api.params import IdPath
from app.api.responses.lobbies import LobbyOut, StartedOut
from app.api.schemas import AddBots, CastleName, JoinLobby, NewLobby, Vote
from app.api.throttles import count_new_table
from app.db.models import Lobby
from app.db.repositories import LobbyRepository
from app.lobby.service import lobby_json, member_ids
from app.ops.ratelimits import TooMany

router = APIRouter(prefix="/api/lobbies", tags=["lobbies"])


def shown(lobby: Lobby, viewer_id: int | None) -> dict[str, Any]:
    data = lobby_json(lobby)
    if viewer_id not in member_ids(lobby):
        data.pop("invite_code")
    return data


# A host at the cap of open public tables may try again once one has started or emptied.
OPEN_TABLES_RETRY_S = 30.0

# What a change to a table can be refused with (the codes are in LobbyService's docstrings).
CHANGE = declared(400, 401, 403, 404, 409, 422, 503)


@router.get(
    "",
    response_model=list[LobbyOut],
    response_model_exclude_unset=True,
    responses=declared(422, 503),
)
async def list_lobbies(db: SessionDep, game: GameFilter = None) -> list[dict[str, Any]]:
    """Open public tables."""
    return [shown(lobby, None) for lobby in await LobbyRepository(db).list_open(game)]


@router.post(
    "",
    status_code=201,
    response_model=LobbyOut,
    response_model_exclude_unset=True,
    responses=declared(400, 401, 404, 422, 429, 503),
)
async def create_lobby(
    body: NewLobby,
    request: Request,
    player: CurrentPlayer,
    db: SessionDep,
    lobbies: LobbiesDep,
    limits: LimitsDep,
) -> dict[str, Any]:
    """Raise a table. New tables are limited per account and per client address
    (``rate/limited``, 429 with ``Retry-After``), and a player may have at most
    ``RAMPART_OPEN_TABLES_PER_ACCOUNT`` open public tables (``lobby/too_many_open``, 429)."""
    if body.public and 0 < limits.open_tables <= await LobbyRepository(db).open_public_count(
        player.id
    ):
        raise TooMany(
            "lobby/too_many_open",
            f"you have {limits.open_tables} open public tables already; start or leave one",
            OPEN_TABLES_RETRY_S,
        )
    await count_new_table(request, limits, player.id)
    lobby = await lobbies.create(
        db,
        player,
        game=body.game,
        seats=body.seats,
        options=body.options,
        public=body.public,
        rated=body.rated,
        hot_seat=body.hot_seat,
        time_control=body.time_control.model_dump(exclude_none=True),
    )
    return shown(lobby, player.id)


@router.get(
    "/{lobby_id}",
    response_model=LobbyOut,
    response_model_exclude_unset=True,
    responses=declared(401, 404, 422, 503),
    openapi_extra=OPTIONAL_TOKEN,
)
async def get_lobby(lobby_id: IdPath, db: SessionDep, player: OptionalPlayer) -> dict[str, Any]:
    return shown(await LobbyRepository(db).get(lobby_id), player.id if player else None)


@router.post(
    "/{lobby_id}/join", response_model=LobbyOut, response_model_exclude_unset=True, responses=CHANGE
)
async def join_lobby(
    lobby_id: IdPath, body: JoinLobby, player: CurrentPlayer, db: SessionDep, lobbies: LobbiesDep
) -> dict[str, Any]:
    lobby = await lobbies.join(db, player, lobby_id, invite_code=body.invite_code, seat=body.seat)
    return shown(lobby, player.id)


@router.post(
    "/{lobby_id}/leave",
    response_model=LobbyOut,
    response_model_exclude_unset=True,
    responses=declared(401, 404, 409, 422, 503),
)
async def leave_lobby(
    lobby_id: IdPath, player: CurrentPlayer, db: SessionDep, lobbies: LobbiesDep
) -> dict[str, Any]:
    return shown(await lobbies.leave(db, player, lobby_id), player.id)


@router.post(
    "/{lobby_id}/castle",
    response_model=LobbyOut,
    response_model_exclude_unset=True,
    responses=CHANGE,
)
async def name_castle(
    lobby_id: IdPath, body: CastleName, player: CurrentPlayer, db: SessionDep, lobbies: LobbiesDep
) -> dict[str, Any]:
    lobby = await lobbies.name_castle(db, player, lobby_id, body.name.strip(), body.seat)
    return shown(lobby, player.id)


@router.post(
    "/{lobby_id}/vote", response_model=LobbyOut, response_model_exclude_unset=True, responses=CHANGE
)
async def vote(
    lobby_id: IdPath, body: Vote, player: CurrentPlayer, db: SessionDep, lobbies: LobbiesDep
) -> dict[str, Any]:
    lobby = await lobbies.vote(db, player, lobby_id, body.for_seat, body.seat)
    return shown(lobby, player.id)


@router.post(
    "/{lobby_id}/bots", response_model=LobbyOut, response_model_exclude_unset=True, responses=CHANGE
)
async def add_bots(
    lobby_id: IdPath, body: AddBots, player: CurrentPlayer, db: SessionDep, lobbies: LobbiesDep
) -> dict[str, Any]:
    lobby = await lobbies.add_bots(db, player, lobby_id, body.kind, body.count, body.difficulty)
    return shown(lobby, player.id)


@router.post(
    "/{lobby_id}/start",
    response_model_exclude_unset=True,
    responses=declared(401, 403, 404, 409, 422, 503),
)
async def start(
    lobby_id: IdPath, player: CurrentPlayer, db: SessionDep, lobbies: LobbiesDep
) -> StartedOut:
    """Start the match; returns ``match_id`` (and the name vote's result where it ran)."""
    lobby, match_id, vote = await lobbies.start(db, player, lobby_id)
    return StartedOut(
        match_id=match_id,
        first_seat=vote.first_seat if vote else None,
        votes={str(k): v for k, v in vote.tally.items()} if vote else None,
        lobby=LobbyOut.model_validate(shown(lobby, player.id)),
    )
