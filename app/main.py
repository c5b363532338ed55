"""``create_app()``: the FastAPI application: middleware, routes, and a lifespan that runs the
services (``app.wiring``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api.errors import declared, install_error_handlers
from app.api.limits import BodyLimit
from app.api.methods import AllowedMethods
from app.api.routes import (
    accounts,
    admin,
    games,
    health,
    ladders,
    lobbies,
    matches,
    metrics,
    notify,
    players,
    practice,
    queue,
    reports,
    tournaments,
    turns,
)
from app.config import Settings, get_settings
from app.ops.logs import RequestIdMiddleware
from app.ops.metrics import RequestMetricsMiddleware
from app.practice.service import install_practice_bots
from app.realtime import contract, gateway, lobby_socket
from app.realtime.entry import RampartApp
from app.realtime.services import provide
from app.web import mount_static
from app.wiring import register_extra_engines, running


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    register_extra_engines(settings)
    install_practice_bots()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        """The services (``app.wiring``) live as long as the application serves."""
        async with running(settings) as services:
            provide(app, services)
            yield

    app = RampartApp(
        title="Rampart",
        summary="A real-time multiplayer server for castle card games",
        version="0.1.0",
        lifespan=lifespan,
        # Any request may carry a body too large to read (``BodyLimit``).
        responses=declared(413),
    )
    install_error_handlers(app)
    app.add_middleware(BodyLimit)
    app.add_middleware(AllowedMethods)  # OPTIONS, and a 405 naming every allowed method
    app.add_middleware(RequestMetricsMiddleware)
    app.add_middleware(RequestIdMiddleware)
    routers = (
        accounts.router,
        turns.router,
        games.router,
        lobbies.router,
        matches.router,
        health.router,
        tournaments.router,
        ladders.router,
        players.router,
        practice.router,
        metrics.router,
        queue.router,
        queue.rematch_router,
        admin.router,
        reports.router,
        notify.router,
    )
    for router in routers:
        app.include_router(router)
    app.include_router(gateway.router)
    app.include_router(lobby_socket.router)
    app.include_router(contract.router)
    mount_static(app)
    return app
