"""Request dependencies as ``Annotated`` aliases: ``SessionDep``, ``CurrentPlayer``, ..."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import Account
from app.db.repositories import AccountRepository
from app.errors import Unauthorized
from app.lobby.service import LobbyService
from app.security import read_token
from app.sessions.hub import Hub

_bearer = HTTPBearer(auto_error=False)


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_session(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.sessionmaker() as session:
        yield session


async def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def get_lobbies(request: Request) -> LobbyService:
    service: LobbyService = request.app.state.lobbies
    return service


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[AsyncSession, Depends(get_session)]
HubDep = Annotated[Hub, Depends(get_hub)]
LobbiesDep = Annotated[LobbyService, Depends(get_lobbies)]
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
