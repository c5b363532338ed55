"""``create_app()``: the FastAPI application; its lifespan starts and stops the session hub."""

from __future__ import annotations

import gc
import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.accounts.guard import AccountGuard
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
    players,
    practice,
    queue,
    reports,
    tournaments,
    turns,
)
from app.cluster.locks import Locks
from app.config import Settings, get_settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.lobby.feed import LobbyFeed
from app.lobby.service import LobbyService
from app.matchmaking.rematch import RematchService
from app.matchmaking.service import QueueService
from app.matchmaking.store import MemoryQueue, QueueStore, RedisQueue
from app.moderation.service import ModerationService
from app.node import ClusterNode
from app.ops.logs import RequestIdMiddleware
from app.ops.metrics import METRICS, RequestMetricsMiddleware
from app.ops.ratelimits import EdgeLimits
from app.practice.service import install_practice_bots
from app.realtime import contract, gateway, lobby_socket
from app.realtime.frames import FrameFlusher
from app.realtime.pinger import Pinger
from app.sessions.hub import Hub
from app.tournaments.ladders import LadderService, ensure_game_ladders
from app.tournaments.service import TournamentService
from app.tournaments.writes import Writer
from app.web import mount_static
from engines import registry
from engines.base import Engine


def register_extra_engines(settings: Settings) -> None:
    """Register ``RAMPART_EXTRA_ENGINES`` ("module:Class,...") and, with
    ``RAMPART_BENCH_GAMES=1``, the benchmark game ``tally``."""
    targets = [t.strip() for t in settings.extra_engines.split(",") if t.strip()]
    if settings.bench_games:
        targets.append("bench.tally.engine:TallyEngine")
    for target in targets:
        module_name, class_name = target.split(":")
        engine: Engine = getattr(importlib.import_module(module_name), class_name)()
        if engine.id not in registry.ids():
            registry.register(engine)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    register_extra_engines(settings)
    install_practice_bots()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_engine(settings.database_url)
        sessionmaker = create_sessionmaker(engine)
        action_log = ActionLogWriter(engine)
        action_log.start()
        hub = Hub(settings, sessionmaker, action_log)
        feed = LobbyFeed()
        # Several processes: join the cluster before rebuilding matches (claims need it).
        node = ClusterNode(settings) if settings.redis_url else None
        if node is not None:
            await node.start(hub, feed)
        locks = node.locks if node is not None else Locks()
        app.state.cluster = node.directory if node is not None else None
        app.state.settings = settings
        app.state.account_guard = account_guard = AccountGuard(settings)
        app.state.limits = edge_limits = EdgeLimits(settings)
        edge_limits.start()
        app.state.db_engine = engine
        app.state.sessionmaker = sessionmaker
        app.state.hub = hub

        async def hand_over() -> None:
            """SIGTERM, before uvicorn closes any connection (``app.ops.shutdown``)."""
            app.state.draining = True
            await hub.hand_over()

        app.state.draining = False
        app.state.hand_over = hand_over
        app.state.pinger = pinger = Pinger()
        app.state.flusher = flusher = FrameFlusher()
        # A commit's broadcasts leave in the same turn of the loop as the commit.
        action_log.after_commit = flusher.run_now
        app.state.lobby_feed = feed
        app.state.lobbies = lobbies = LobbyService(hub, feed, locks)
        # Quick play: one queue for the cluster in Redis, else this process's own.
        store: QueueStore = RedisQueue(node.redis) if node is not None else MemoryQueue()
        app.state.queue = quick_play = QueueService(store, lobbies, sessionmaker, feed, locks)
        app.state.rematches = RematchService(hub, lobbies, sessionmaker, feed, locks)
        writer = Writer(engine, sessionmaker)
        ladder_service = LadderService(writer, locks)
        tournament_service = TournamentService(hub, writer, feed, locks)
        feed.on_told = tournament_service.told
        if node is not None:
            node.serve_tournaments(tournament_service)
        app.state.ladders = ladder_service
        app.state.moderation = moderation = ModerationService(hub, writer, locks, feed)
        await moderation.load()
        if node is not None:
            moderation.connect(node.bus.on, node.bus.send)
        app.state.tournaments = tournament_service
        hub.finish_listeners.append(ladder_service.on_match_finished)
        hub.finish_listeners.append(tournament_service.on_match_finished)
        hub.turn_listeners.append(feed.your_turn)
        await hub.start()
        # Every game's own ladder exists before the first result or request needs it (made on
        # first use instead, a result and a listing could each make one at the same moment).
        await writer.run(ensure_game_ladders)
        await ladder_service.catch_up()
        await tournament_service.resume()
        if node is not None:
            node.adopt_orphans(hub)
        quick_play.start()
        # Start-up objects (modules, ORM metadata, engines, rebuilt matches) live for the whole
        # process: keep them out of the cyclic collector so its pauses stay short under load.
        METRICS.watch(hub.live_count, pinger.__len__)
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            METRICS.unwatch()
            await quick_play.stop()
            await moderation.stop()
            await tournament_service.stop()
            await ladder_service.stop()
            await hub.stop()
            if node is not None:
                await node.stop()
            pinger.stop()
            account_guard.close()
            await edge_limits.close()
            writer.dispose()
            await action_log.stop()
            await engine.dispose()

    app = FastAPI(
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
    )
    for router in routers:
        app.include_router(router)
    app.include_router(gateway.router)
    app.include_router(lobby_socket.router)
    app.include_router(contract.router)
    mount_static(app)
    return app
