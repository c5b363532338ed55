"""Migration 0004 on an old database: every account gets its name key, names are tidied, and
accounts that now share a name are told apart (registered players, then the oldest, keep it)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from app.__main__ import alembic_config, migrate
from app.db.engine import create_engine
from tests.app.conftest import BACKENDS
from tests.app.support import new_pg_database

PASSWORD = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"
OLD_ACCOUNTS = [
    # id, name as stored before, the old key (registered players only), registered?
    (1, "Ada", "ada", True),
    (2, "ada", None, False),
    (3, "ADA", None, False),
    (4, "", None, False),  # "   " was stored stripped
    (5, "Ev\u200bil", None, False),
    (6, "\u202eKing", None, False),
    (7, "Lone Wolf", None, False),
    (8, "lone  wolf", None, False),
    (9, "Evil", "evil", True),
    (10, "\uff2d\uff49\uff4c\uff4f", None, False),
]
EXPECTED = {
    1: ("Ada", "ada"),
    2: ("ada #2", "ada #2"),
    3: ("ADA #3", "ada #3"),
    4: ("Player 4", "player 4"),
    5: ("Evil #5", "evil #5"),  # the registered Evil (id 9) keeps the name
    6: ("King", "king"),
    7: ("Lone Wolf", "lone wolf"),
    8: ("lone wolf #8", "lone wolf #8"),
    9: ("Evil", "evil"),
    10: ("Milo", "milo"),
}


Row = tuple[object, ...]


def run(url: str, statement: str, rows: list[dict[str, object]] | None = None) -> list[Row]:
    """One statement on its own engine (the migrations run their own event loop too)."""

    async def go() -> list[Row]:
        engine = create_engine(url)
        try:
            async with engine.begin() as connection:
                result = await connection.execute(text(statement), rows or [{}])
                return [tuple(row) for row in result] if result.returns_rows else []
        finally:
            await engine.dispose()

    return asyncio.run(go())


@pytest.mark.parametrize("backend", BACKENDS)
def test_old_accounts_get_keys_and_duplicates_are_told_apart(backend: str, tmp_path: Path) -> None:
    url = new_pg_database() if backend == "postgres" else f"sqlite+aiosqlite:///{tmp_path}/m.db"
    command.upgrade(alembic_config(url), "0003")
    now = datetime.now(UTC)
    run(
        url,
        "INSERT INTO accounts (id, name, name_key, password_hash, created_at)"
        " VALUES (:id, :name, :key, :hash, :at)",
        [
            {"id": i, "name": name, "key": key, "hash": PASSWORD if registered else None, "at": now}
            for i, name, key, registered in OLD_ACCOUNTS
        ],
    )
    run(
        url,
        "INSERT INTO lobbies (id, game, seat_count, options, public, rated, hot_seat,"
        " time_control, status, host_id, members, created_at)"
        " VALUES (1, 'tally', 2, '{}', true, false, false, '{}', 'open', 2, '[]', :at)",
        [{"at": now}],
    )
    migrate(url)
    rows = run(url, "SELECT id, name, name_key FROM accounts ORDER BY id")
    assert {row[0]: (row[1], row[2]) for row in rows} == EXPECTED
    assert run(url, "SELECT host_id FROM lobbies") == [(2,)]
    # From now on the key is unique for guests too: the database itself refuses a repeat.
    with pytest.raises(Exception, match=r"(?i)unique"):
        run(
            url,
            "INSERT INTO accounts (name, name_key, created_at) VALUES ('x', 'king', :at)",
            [{"at": now}],
        )
    command.downgrade(alembic_config(url), "0003")
    keyed = run(url, "SELECT id FROM accounts WHERE name_key IS NOT NULL ORDER BY id")
    assert keyed == [(1,), (9,)]
