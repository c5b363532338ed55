"""The process's services built, started and stopped (``running``), one function per concern.

Each concern is a context manager that builds its services, starts them and, on the way out,
stops them; ``running`` enters them in dependency order, so they stop in the reverse one
(quick play and the tournaments before the hub, the hub before the cluster node, the
database last), and a start-up that fails half-way stops what it had started.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from importlib.metadata import entry_points

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.accounts.guard import AccountGuard
from app.cluster.locks import Locks
from app.config import Settings
from app.db.action_log import ActionLogWriter
from app.db.engine import create_engine, create_sessionmaker
from app.lobby.feed import LobbyFeed
from app.lobby.service import LobbyService
from app.matchmaking.rematch import RematchService
from app.matchmaking.service import QueueService
from app.matchmaking.store import MemoryQueue, QueueStore, RedisQueue
from app.moderation.service import ModerationService
from app.node import ClusterNode
from app.notify.service import notifying
from app.ops.metrics import METRICS
from app.ops.ratelimits import EdgeLimits
from app.realtime.frames import FrameFlusher
from app.realtime.pinger import Pinger
from app.realtime.services import Services
from app.sessions.hub import Hub
from app.tournaments.ladders import LadderService, ensure_game_ladders
from app.tournaments.read_cache import TournamentReads
from app.tournaments.service import TournamentService
from app.tournaments.writes import Writer
from engines import registry
from engines.base import Engine

# The entry-point group of the games ``RAMPART_BENCH_GAMES=1`` adds: a benchmark declares its
# game there (in pyproject.toml), so the server itself names no benchmark.
BENCH_GAMES_GROUP = "rampart.bench_games"


class GameSetupError(RuntimeError):
    """An extra game could not be registered (the setting that asked for it is named)."""


def register_extra_engines(settings: Settings) -> None:
    """Register ``RAMPART_EXTRA_ENGINES`` ("module:Class,...") and, with
    ``RAMPART_BENCH_GAMES=1``, every game of the ``rampart.bench_games`` entry points."""
    for target in (t.strip() for t in settings.extra_engines.split(",") if t.strip()):
        module_name, _, class_name = target.partition(":")
        if not class_name:
            raise GameSetupError(f"RAMPART_EXTRA_ENGINES: {target!r} is not module:Class")
        _register(getattr(importlib.import_module(module_name), class_name)())
    if settings.bench_games:
        declared = entry_points(group=BENCH_GAMES_GROUP)
        if not declared:
            raise GameSetupError(
                f"RAMPART_BENCH_GAMES=1, but no installed package declares a {BENCH_GAMES_GROUP}"
                " entry point (install this checkout: pip install -e .)"
            )
        for point in declared:
            _register(point.load()())


def _register(engine: Engine) -> None:
    if engine.id not in registry.ids():
        registry.register(engine)


@dataclass(frozen=True, slots=True)
class Storage:
    """The database: its engine and sessions, the action log's writer and the writes of the
    tournaments, ladders and moderation (``Writer``)."""

    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    action_log: ActionLogWriter
    writer: Writer


@asynccontextmanager
async def storage(settings: Settings) -> AsyncIterator[Storage]:
    engine = create_engine(settings.database_url)
    sessionmaker = create_sessionmaker(engine)
    action_log = ActionLogWriter(engine)
    action_log.start()
    writer = Writer(engine, sessionmaker)
    try:
        yield Storage(engine, sessionmaker, action_log, writer)
    finally:
        writer.dispose()
        await action_log.stop()
        await engine.dispose()


@asynccontextmanager
async def edge(settings: Settings) -> AsyncIterator[tuple[AccountGuard, EdgeLimits]]:
    """The password workers and the limits on client addresses and accounts."""
    guard = AccountGuard(settings)
    limits = EdgeLimits(settings)
    limits.start()
    try:
        yield guard, limits
    finally:
        guard.close()
        await limits.close()


@asynccontextmanager
async def pinger() -> AsyncIterator[Pinger]:
    """The protocol pings of every match socket."""
    pings = Pinger()
    try:
        yield pings
    finally:
        pings.stop()


@asynccontextmanager
async def cluster(
    settings: Settings, hub: Hub, feed: LobbyFeed
) -> AsyncIterator[ClusterNode | None]:
    """With ``RAMPART_REDIS_URL``, this process joins the cluster before the hub rebuilds any
    match (its claims need the directory); None on its own."""
    if not settings.redis_url:
        yield None
        return
    node = ClusterNode(settings)
    await node.start(hub, feed)
    try:
        yield node
    finally:
        await node.stop()


@asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[Services]:
    """Every service built and started; stopped in reverse order on the way out."""
    async with AsyncExitStack() as stack:
        store = await stack.enter_async_context(storage(settings))
        guard, limits = await stack.enter_async_context(edge(settings))
        pings = await stack.enter_async_context(pinger())
        hub = Hub(settings, store.sessionmaker, store.action_log)
        feed = LobbyFeed()
        flusher = FrameFlusher()
        # A commit's broadcasts leave in the same turn of the loop as the commit.
        store.action_log.after_commit = flusher.run_now
        node = await stack.enter_async_context(cluster(settings, hub, feed))
        locks = node.locks if node is not None else Locks()
        stack.push_async_callback(hub.stop)  # after everything below has stopped
        ladders = LadderService(store.writer, locks)
        stack.push_async_callback(ladders.stop)
        tournaments = TournamentService(hub, store.writer, feed, locks)
        stack.push_async_callback(tournaments.stop)
        feed.on_told = tournaments.told
        if node is not None:
            node.serve_tournaments(tournaments)
        moderation = ModerationService(hub, store.writer, locks, feed)
        stack.push_async_callback(moderation.stop)
        await moderation.load()
        if node is not None:
            moderation.connect(node.bus.on, node.bus.send)
        lobbies = LobbyService(hub, feed, locks)
        # Quick play: one queue for the cluster in Redis, else this process's own.
        queue_store: QueueStore = RedisQueue(node.redis) if node is not None else MemoryQueue()
        quick_play = QueueService(queue_store, lobbies, store.sessionmaker, feed, locks)
        stack.push_async_callback(quick_play.stop)
        services = Services(
            settings=settings,
            sessionmaker=store.sessionmaker,
            hub=hub,
            lobby_feed=feed,
            lobbies=lobbies,
            queue=quick_play,
            rematches=RematchService(hub, lobbies, store.sessionmaker, feed, locks),
            ladders=ladders,
            tournaments=tournaments,
            tournament_reads=TournamentReads(),
            moderation=moderation,
            account_guard=guard,
            limits=limits,
            pinger=pings,
            flusher=flusher,
            cluster=node.directory if node is not None else None,
        )
        # E-mail about correspondence matches: listening before the matches are rebuilt.
        notifier = await stack.enter_async_context(notifying(settings, store.sessionmaker, hub))
        await start_matches(services, store.writer, node)
        notifier.catch_up_soon()  # the mails a hard crash left unqueued
        METRICS.watch(hub.live_count, pings.__len__)
        stack.callback(METRICS.unwatch)
        # Start-up objects (modules, ORM metadata, engines, rebuilt matches) live for the whole
        # process: keep them out of the cyclic collector so its pauses stay short under load.
        gc.collect()
        gc.freeze()
        yield services


async def start_matches(services: Services, writer: Writer, node: ClusterNode | None) -> None:
    """The matches rebuilt, results that came in while the process was down applied, and
    quick play's rounds started."""
    hub, ladders, tournaments = services.hub, services.ladders, services.tournaments
    hub.finish_listeners.append(ladders.on_match_finished)
    hub.finish_listeners.append(tournaments.on_match_finished)
    hub.turn_listeners.append(services.lobby_feed.your_turn)
    await hub.start()
    # Every game's own ladder exists before the first result or request needs it (made on
    # first use instead, a result and a listing could each make one at the same moment).
    await writer.run(ensure_game_ladders)
    await ladders.catch_up()
    await tournaments.resume()
    if node is not None:
        node.adopt_orphans(hub)
    services.queue.start()
