"""Request dependencies as ``Annotated`` aliases: each service (``HubDep``, ``LimitsDep``, ...,
read from ``app.realtime.services.Services``), ``SessionDep``, ``CurrentPlayer``, ..."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.guard import AccountGuard
from app.cluster.directory import Directory
from app.config import Settings
from app.db.models import Account
from app.db.repositories import AccountRepository
from app.errors import Unauthorized
from app.lobby.service import LobbyService
from app.matchmaking.rematch import RematchService
from app.matchmaking.service import QueueService
from app.moderation.service import ModerationService
from app.ops.ratelimits import EdgeLimits
from app.realtime.services import ServicesDep
from app.security import read_token
from app.sessions.hub import Hub
from app.tournaments.ladders import LadderService
from app.tournaments.read_cache import TournamentReads
from app.tournaments.service import TournamentService

_bearer = HTTPBearer(auto_error=False)


async def get_settings(services: ServicesDep) -> Settings:
    return services.settings


async def get_session(services: ServicesDep) -> AsyncIterator[AsyncSession]:
    async with services.sessionmaker() as session:
        yield session


async def get_hub(services: ServicesDep) -> Hub:
    return services.hub


async def get_lobbies(services: ServicesDep) -> LobbyService:
    return services.lobbies


async def get_queue(services: ServicesDep) -> QueueService:
    return services.queue


async def get_rematches(services: ServicesDep) -> RematchService:
    return services.rematches


async def get_ladders(services: ServicesDep) -> LadderService:
    return services.ladders


async def get_tournaments(services: ServicesDep) -> TournamentService:
    return services.tournaments


async def get_tournament_reads(services: ServicesDep) -> TournamentReads:
    return services.tournament_reads


async def get_moderation(services: ServicesDep) -> ModerationService:
    return services.moderation


async def get_account_guard(services: ServicesDep) -> AccountGuard:
    return services.account_guard


async def get_limits(services: ServicesDep) -> EdgeLimits:
    return services.limits


async def get_cluster(services: ServicesDep) -> Directory | None:
    return services.cluster


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]
HubDep = Annotated[Hub, Depends(get_hub)]
LobbiesDep = Annotated[LobbyService, Depends(get_lobbies)]
QueueDep = Annotated[QueueService, Depends(get_queue)]
RematchesDep = Annotated[RematchService, Depends(get_rematches)]
LaddersDep = Annotated[LadderService, Depends(get_ladders)]
TournamentsDep = Annotated[TournamentService, Depends(get_tournaments)]
TournamentReadsDep = Annotated[TournamentReads, Depends(get_tournament_reads)]
ModerationDep = Annotated[ModerationService, Depends(get_moderation)]
GuardDep = Annotated[AccountGuard, Depends(get_account_guard)]
LimitsDep = Annotated[EdgeLimits, Depends(get_limits)]
# The cluster's directory of match owners; None when this process runs on its own.
ClusterDep = Annotated[Directory | None, Depends(get_cluster)]
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def optional_player(
    credentials: Bearer, settings: SettingsDep, db: SessionDep
) -> Account | None:
    """The account behind the bearer token, None without one; a bad token is refused
    (``auth/bad_token``, ``auth/expired``, ``auth/unknown_account``, ``auth/banned``)."""
    if credentials is None:
        return None
    account_id = read_token(settings.secret, credentials.credentials, settings.token_ttl_s)
    account = await AccountRepository(db).get(account_id)
    if account is None:
        raise Unauthorized("auth/unknown_account", "the token's account no longer exists")
    if account.banned:  # an admin banned it (``app.moderation``): every token stops at once
        raise Unauthorized("auth/banned", "this account is banned")
    return account


async def current_player(player: Annotated[Account | None, Depends(optional_player)]) -> Account:
    """The logged-in account; refuses ``auth/required`` without a bearer token."""
    if player is None:
        raise Unauthorized("auth/required", "send Authorization: Bearer <token>")
    return player


CurrentPlayer = Annotated[Account, Depends(current_player)]
OptionalPlayer = Annotated[Account | None, Depends(optional_player)]
# The ``openapi_extra`` of a route taking ``OptionalPlayer``: a token is optional (``{}``).
OPTIONAL_TOKEN: dict[str, Any] = {"security": [{"HTTPBearer": []}, {}]}
