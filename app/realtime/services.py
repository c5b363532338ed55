"""``Services``: the process's long-lived services, built once at start-up (``app.wiring``).

The routes and sockets reach them as typed dependencies (``ServicesDep`` here, one alias per
service in ``app.api.deps``), never through ``app.state``: ``provide`` stores the container
on the application and ``get_services`` reads it, and nothing else touches ``app.state``.
It lives in ``realtime/`` because it holds the sockets' own parts (``Pinger``,
``FrameFlusher``) and both the sockets and the REST routes (the layer above) read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.requests import HTTPConnection

from app.accounts.guard import AccountGuard
from app.cluster.directory import Directory
from app.config import Settings
from app.lobby.feed import LobbyFeed
from app.lobby.service import LobbyService
from app.matchmaking.rematch import RematchService
from app.matchmaking.service import QueueService
from app.moderation.service import ModerationService
from app.ops.ratelimits import EdgeLimits
from app.realtime.frames import FrameFlusher
from app.realtime.pinger import Pinger
from app.sessions.hub import Hub
from app.tournaments.ladders import LadderService
from app.tournaments.read_cache import TournamentReads
from app.tournaments.service import TournamentService


@dataclass(frozen=True, slots=True)
class Services:
    """Everything a request or a socket may need beyond its own input, one instance per
    process. ``cluster`` is None when the process runs on its own (no ``RAMPART_REDIS_URL``)."""

    settings: Settings
    sessionmaker: async_sessionmaker[AsyncSession]
    hub: Hub
    lobby_feed: LobbyFeed
    lobbies: LobbyService
    queue: QueueService
    rematches: RematchService
    ladders: LadderService
    tournaments: TournamentService
    tournament_reads: TournamentReads
    moderation: ModerationService
    account_guard: AccountGuard
    limits: EdgeLimits
    pinger: Pinger
    flusher: FrameFlusher
    cluster: Directory | None


def provide(app: FastAPI, services: Services | None) -> None:
    """Make ``services`` the application's (None once they have stopped)."""
    app.state.services = services


def provided(app: FastAPI) -> Services | None:
    """The application's services; None before its lifespan has started them."""
    services: Services | None = getattr(app.state, "services", None)
    return services


async def get_services(connection: HTTPConnection) -> Services:
    """The services of the application serving ``connection`` (a request or a websocket)."""
    services: Services = connection.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]
