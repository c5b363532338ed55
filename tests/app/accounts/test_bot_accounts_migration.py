"""Migration 0010 on a database at 0009: accounts are not bots, tournaments admit none, and a
normal server bot's ladder entry (keyed by the bare kind) takes the key of its level, and each
bot entry the name new results are written with."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command

from app.__main__ import alembic_config, migrate
from tests.app.accounts.test_accounts_migration import run
from tests.app.conftest import BACKENDS
from tests.app.support import new_pg_database


@pytest.mark.parametrize("backend", BACKENDS)
def test_old_bot_entries_are_keyed_by_kind_and_level(backend: str, tmp_path: Path) -> None:
    url = new_pg_database() if backend == "postgres" else f"sqlite+aiosqlite:///{tmp_path}/m.db"
    command.upgrade(alembic_config(url), "0009")
    now = datetime.now(UTC)
    run(url, "INSERT INTO accounts (id, name, created_at) VALUES (1, 'Ada', :at)", [{"at": now}])
    run(url, "INSERT INTO ladders (id, game, name, kind, created_at) VALUES (1, 'ambush', 'A', "
             "'game', :at)", [{"at": now}])  # fmt: skip
    entries = [
        {"bot": "heuristic", "name": "heuristic bot", "account": None},
        {"bot": "heuristic:hard", "name": "heuristic bot (hard)", "account": None},
        {"bot": "random", "name": "random bot", "account": None},
        {"bot": None, "name": "Ada", "account": 1},
    ]
    run(
        url,
        "INSERT INTO ladder_entries (ladder_id, account_id, bot, name, points, played, wins,"
        " draws, losses, ratings, updated_at) VALUES (1, :account, :bot, :name, 1500, 0, 0, 0,"
        " 0, '{}', :at)",
        [{**entry, "at": now} for entry in entries],
    )
    migrate(url)
    rows = run(url, "SELECT bot, name FROM ladder_entries ORDER BY id")
    assert rows == [
        ("heuristic:normal", "Heuristic bot (normal)"),
        ("heuristic:hard", "Heuristic bot (hard)"),
        ("random:normal", "Random bot (normal)"),
        (None, "Ada"),
    ]
    assert run(url, "SELECT bot FROM accounts") == [(False,)]
