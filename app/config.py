"""Server settings: one pydantic-settings ``Settings`` read from the environment."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PLACEHOLDER_SECRETS = frozenset({"", "changeme", "change-me", "dev-secret-change-me", "secret"})


class Settings(BaseSettings):
    """Every knob of the server; the embedded defaults run one process on SQLite.

    ``DATABASE_URL`` is read without prefix (the usual name); everything else is ``RAMPART_*``.
    Outside ``development`` a placeholder ``secret`` is refused, since it signs bearer tokens.
    """

    model_config = SettingsConfigDict(env_prefix="RAMPART_", extra="ignore")

    environment: str = "development"
    database_url: str = Field(
        default="sqlite+aiosqlite:///./data/rampart.db", validation_alias="DATABASE_URL"
    )
    secret: str = "dev-secret-change-me"
    token_ttl_s: int = 30 * 24 * 3600

    # Websocket edge: a token bucket per connection, and the largest message we parse.
    rate_per_s: float = 30.0
    rate_burst: int = 60
    max_message_bytes: int = 8192
    outbox_limit: int = 2048
    ping_interval_s: float = 1.0
    hello_timeout_s: float = 30.0
    resume_buffer: int = 512

    # Time: seats disconnected longer than this forfeit (match milliseconds).
    disconnect_grace_ms: int = 60_000
    # How fast match time runs against wall time; tests speed whole matches up with it.
    clock_rate: float = 1.0

    # Extra engines "module:Class,module:Class" registered at start-up (tests, benchmarks).
    extra_engines: str = ""
    bench_games: bool = False

    # Several processes (DESIGN.md sec. 9): Redis records which process owns each match and
    # carries the lobby feed and locks; empty runs one process on its own.
    redis_url: str = ""
    # How the other processes reach this one (``python -m app`` defaults it to its address),
    # and its name in Redis (defaults to that URL).
    node_url: str = ""
    node_id: str = ""
    # A process silent this long is dead: its matches move to the next process asked for them.
    node_ttl_s: float = 10.0

    @model_validator(mode="after")
    def _refuse_placeholder_secret(self) -> Settings:
        if self.environment != "development" and self.secret.lower() in PLACEHOLDER_SECRETS:
            raise ValueError("RAMPART_SECRET must be set to a real secret outside development")
        if self.clock_rate <= 0:
            raise ValueError("RAMPART_CLOCK_RATE must be positive")
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
