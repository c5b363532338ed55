"""Alembic environment: runs migrations on the async engine of DATABASE_URL."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

import app.db.mail  # noqa: F401  (its tables join Base.metadata)
from app.config import get_settings
from app.db.engine import create_engine
from app.db.models import Base

config = context.config
if config.config_file_name is not None and not config.attributes.get("database_url"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)
target_metadata = Base.metadata


def _url() -> str:
    return str(config.attributes.get("database_url") or get_settings().database_url)


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # A batch migration rebuilds a table (copy, drop, rename): with foreign keys on,
        # dropping a table that other rows reference fails. Off for the migration (it must be
        # set outside a transaction), and every reference checked after it.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
    if sqlite:
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"the migration left broken foreign keys: {broken[:5]}")
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")


async def _run_async() -> None:
    engine = create_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    asyncio.run(_run_async())
