"""``python -m app --host H --port P``: migrate the database to head, then serve; ``python -m app
backup|restore PATH``: the operator's commands (``app.cli``)."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import redis
import uvicorn
from alembic import command
from alembic.config import Config

from app.cli import COMMANDS as OPERATOR_COMMANDS
from app.cli import run as run_operator_command
from app.collector import CollectorPolicy
from app.config import Settings, get_settings
from app.db.engine import ensure_sqlite_dir
from app.ops.db_lock import hold_while_running
from app.ops.logs import announce, configure_logging
from app.ops.shutdown import DrainingServer
from app.realtime.frames import FrameProtocol
from app.realtime.headers import HeaderDeadlineProtocol

ROOT = Path(__file__).resolve().parent.parent
MIGRATE_LOCK = "rampart:lock:migrate"


def alembic_config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def migrate(database_url: str) -> None:
    """Bring the schema to the newest revision (idempotent)."""
    ensure_sqlite_dir(database_url)
    command.upgrade(alembic_config(database_url), "head")


def serve_command(port: int, host: str = "127.0.0.1") -> list[str]:
    """The command line that serves Rampart from another process (tests and benchmarks start
    it this way), logging warnings only unless ``RAMPART_LOG_LEVEL`` says otherwise."""
    serve = ["-m", "app", "--host", host, "--port", str(port)]
    return [sys.executable, *serve]


def node_settings(settings: Settings, host: str, port: int) -> Settings:
    """With Redis, the settings this process joins the cluster with: its URL defaults to the
    address it serves on (its host name when it listens on every interface)."""
    if not settings.redis_url or settings.node_url:
        return settings
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    return settings.model_copy(update={"node_url": f"http://{host}:{port}"})


def tune_gc() -> CollectorPolicy:
    """Keep the cyclic garbage collector's stalls off the move path (``app.collector``):
    start-up's objects are frozen now, survivors every second, and a full collection runs
    only when the heap has doubled (or more, after one that found no garbage)."""
    policy = CollectorPolicy()
    policy.install()
    policy.run_in_background()
    return policy


def event_loop() -> str:
    """The event loop uvicorn runs: ``RAMPART_LOOP`` (``uvloop`` or ``asyncio``), uvloop by
    default (a dependency: less server CPU per move than asyncio's selector loop in every
    interleaved pair bench/PERF.md measured; ``asyncio`` to compare)."""
    return os.environ.get("RAMPART_LOOP", "uvloop")


def hand_over_of(app: Any) -> Awaitable[None] | None:
    """The app's hand-over of its matches (``Hub.hand_over``; None before its lifespan has
    started the hub)."""
    from app.realtime.services import provided  # the whole app: imported once it serves

    services = provided(app)
    return services.hub.hand_over() if services is not None else None


def main() -> None:
    if sys.argv[1:2] and sys.argv[1] in OPERATOR_COMMANDS:
        sys.exit(run_operator_command(sys.argv[1:], migrate))
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    # warning by default: uvicorn logs every websocket open and close at info.
    parser.add_argument("--log-level", default=os.environ.get("RAMPART_LOG_LEVEL", "warning"))
    args = parser.parse_args()
    settings = node_settings(get_settings(), args.host, args.port)
    configure_logging(args.log_level, settings.log_format)
    # Held until the process ends: a restore refuses while any server uses the database.
    hold_while_running(settings.database_url)
    if settings.redis_url:
        # Several processes may start at once: one migrates, the others then find head.
        with redis.Redis.from_url(settings.redis_url).lock(MIGRATE_LOCK, timeout=300):
            migrate(settings.database_url)
    else:
        migrate(settings.database_url)
    from app.main import create_app

    announce(f"Rampart on http://{args.host}:{args.port} (API docs at /docs)")
    tune_gc()
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws=FrameProtocol,
        # A request line and headers must arrive within RAMPART_HEADER_TIMEOUT_S.
        http=HeaderDeadlineProtocol.with_timeout(settings.header_timeout_s),
        loop=event_loop(),
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
        access_log=False,
        log_config=None,  # uvicorn's loggers propagate to ours (app.ops.logs)
    )
    # SIGTERM: the matches are handed over before uvicorn closes their sockets (app.ops.shutdown).
    server = DrainingServer(config, hand_over=lambda: hand_over_of(app))
    server.run()
    if not server.started:
        sys.exit(3)  # as uvicorn.run: the app did not start


if __name__ == "__main__":
    main()
