"""Server settings: one pydantic-settings ``Settings`` read from the environment."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from limits import parse_many
from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url

from app.security import load_or_create_secret

PLACEHOLDER_SECRETS = frozenset({"", "changeme", "change-me", "dev-secret-change-me", "secret"})
SECRET_FILE_NAME = "rampart.secret"
# Settings holding ``limits`` rate strings, checked at start-up.
RATE_SETTINGS = (
    "account_address_limit",
    "table_account_limit",
    "table_address_limit",
    "read_address_limit",
    "report_account_limit",
)


def default_secret_file(database_url: str) -> Path:
    """Where development keeps its generated secret: beside the SQLite file, else ``./data``."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return Path(str(url.database)).parent / SECRET_FILE_NAME
    return Path("data") / SECRET_FILE_NAME


class Settings(BaseSettings):
    """Every knob of the server; the embedded defaults run one process on SQLite.

    ``DATABASE_URL`` is read without prefix (the usual name); everything else is ``RAMPART_*``.
    ``secret`` signs bearer tokens: outside ``development`` a missing or placeholder one is
    refused; in development it is replaced by a random secret made on first run and kept in
    ``secret_file`` (mode 0600, beside the SQLite file by default). A real secret set in the
    environment always wins.
    """

    model_config = SettingsConfigDict(env_prefix="RAMPART_", extra="ignore")

    environment: str = "development"
    # Log lines as plain text, or one JSON object a line (``json``) with match, seat and request
    # ids (``app.ops.logs``).
    log_format: Literal["text", "json"] = "text"
    database_url: str = Field(
        default="sqlite+aiosqlite:///./data/rampart.db", validation_alias="DATABASE_URL"
    )
    secret: str = ""
    secret_file: str = ""
    token_ttl_s: int = 30 * 24 * 3600

    # Passwords: argon2 threads (0: half the cores, at least one) and how many hashes may
    # wait for them; limits on logins per name and per client address, and on registrations
    # with a password per address, each ``burst`` at once and ``per_min`` a minute
    # (``app.ops.ratelimits.bucket_rate``).
    password_workers: int = 0
    password_queue: int = 32
    login_name_burst: int = 5
    login_name_per_min: float = 5.0
    login_address_burst: int = 20
    login_address_per_min: float = 20.0
    register_address_burst: int = 10
    register_address_per_min: float = 5.0

    # Websocket edge: a token bucket per connection, and the largest message we parse.
    rate_per_s: float = 30.0
    rate_burst: int = 60
    max_message_bytes: int = 8192
    outbox_limit: int = 2048
    ping_interval_s: float = 1.0
    # A match or lobby socket that has not said hello this long after opening is closed 4408.
    hello_timeout_s: float = 10.0

    # Limits per client address and per account (``app.ops.ratelimits``), counted for the
    # whole cluster with Redis: ``limits`` rate strings ("60/minute;1000/day", every part
    # holds; empty: no limit), and counts (0: no limit).
    account_address_limit: str = "30/minute;500/day"
    table_account_limit: str = "20/minute;300/day"
    table_address_limit: str = "60/minute;1000/day"
    open_tables_per_account: int = 10
    read_address_limit: str = "300/minute"
    report_account_limit: str = "5/10 minutes"
    sockets_per_address: int = 200
    # A connection must finish its request line and headers this long after it opens (or
    # after its first byte of a later request), else it is closed.
    header_timeout_s: float = 10.0
    resume_buffer: int = 512

    # Time: seats disconnected longer than this forfeit (match milliseconds).
    disconnect_grace_ms: int = 60_000
    # How fast match time runs against wall time; tests speed whole matches up with it.
    clock_rate: float = 1.0

    # Extra engines "module:Class,module:Class" registered at start-up (tests, benchmarks).
    extra_engines: str = ""
    bench_games: bool = False

    # Several processes: Redis records which process owns each match and
    # carries the lobby feed and locks; empty runs one process on its own.
    redis_url: str = ""
    # How the other processes reach this one (``python -m app`` defaults it to its address),
    # and its name in Redis (defaults to that URL).
    node_url: str = ""
    node_id: str = ""
    # A process silent this long is dead: its matches move to the next process asked for them.
    node_ttl_s: float = 10.0

    # Sleeping matches (``app/sessions/sleep.py``): a running match with no socket attached,
    # awaiting only its human players and idle this long leaves memory until someone comes or
    # its next deadline falls due (0: matches never sleep). Due wake-ups are looked for every
    # ``wake_poll_s``.
    hibernate_after_s: float = 300.0
    wake_poll_s: float = 1.0

    # E-mail notifications (``app.notify``): the SMTP server, ``smtp://[user:pass@]host:port``
    # (``?starttls=1`` upgrades the connection), or ``smtps://`` for TLS from the first byte;
    # empty: no mail is sent. ``public_url`` is the base of the links in mails. A "your turn"
    # mail waits ``mail_batch_s`` so that a quick exchange of moves, or several matches,
    # make one mail; the sender looks for due mails every ``mail_poll_s``.
    smtp_url: str = ""
    smtp_from: str = "Rampart <rampart@localhost>"
    public_url: str = "http://127.0.0.1:8000"
    mail_batch_s: float = 300.0
    mail_poll_s: float = 5.0

    @model_validator(mode="after")
    def _resolve_secret(self) -> Settings:
        if self.secret.strip().lower() in PLACEHOLDER_SECRETS:
            if self.environment != "development":
                raise ValueError("RAMPART_SECRET must be set to a real secret outside development")
            path = Path(self.secret_file) if self.secret_file else None
            self.secret = load_or_create_secret(path or default_secret_file(self.database_url))
        if self.password_workers <= 0:
            self.password_workers = max(1, (os.cpu_count() or 2) // 2)
        if self.clock_rate <= 0:
            raise ValueError("RAMPART_CLOCK_RATE must be positive")
        for name in RATE_SETTINGS:
            rate = getattr(self, name)
            try:
                if rate.strip():
                    parse_many(rate)
            except ValueError as error:
                raise ValueError(f"RAMPART_{name.upper()}: {error}") from error
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
