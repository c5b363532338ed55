"""Alembic: head creates exactly the models' schema (no drift), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

import app.db.mail  # noqa: F401  (its tables join Base.metadata)
from app.__main__ import migrate
from app.db.engine import create_engine
from app.db.models import Base
from tests.app.conftest import BACKENDS
from tests.app.support import new_pg_database


def diff(url: str) -> list[object]:
    async def compare() -> list[object]:
        engine = create_engine(url)

        def run(connection: Connection) -> list[object]:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, Base.metadata))

        async with engine.connect() as connection:
            result = await connection.run_sync(run)
        await engine.dispose()
        return result

    return asyncio.run(compare())


@pytest.mark.parametrize("backend", BACKENDS)
def test_models_and_migrations_do_not_drift(backend: str, tmp_path: Path) -> None:
    url = new_pg_database() if backend == "postgres" else f"sqlite+aiosqlite:///{tmp_path}/m.db"
    migrate(url)
    migrate(url)  # idempotent: a second upgrade is a no-op
    assert diff(url) == []
