"""Migration 0008 on a database at 0007 holding look-alike names: every account gets its
look-alike key, invisible marks and mixed scripts are repaired, and the oldest account keeps a
contested name while later ones are renamed, validly and uniquely."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command

from app.__main__ import alembic_config, migrate
from app.accounts.names import name_key, name_skeleton, player_name
from tests.app.accounts.test_accounts_migration import PASSWORD, run
from tests.app.conftest import BACKENDS
from tests.app.support import new_pg_database

GREEK_KATE = "\u039a\u0391\u03a4\u0395"
CYRILLIC_ADA = "\u0430\u0501\u0430"
OLD_ACCOUNTS = [
    # id, name as stored at 0007 (its key is the 0007 name key), registered?
    (1, "Ada", True),
    (2, CYRILLIC_ADA, False),  # all Cyrillic, looks like "ada"
    (3, "KATE", False),
    (4, GREEK_KATE, True),  # registered, but after the guest KATE
    (5, "Ada\u180b", False),  # a Mongolian variation selector after "Ada"
    (6, "\u0410da", False),  # a Cyrillic A in a Latin name
    (7, "Zo\u00eb", False),
    (8, "Ill", False),
    (9, "lll", False),
    (10, "Player 6", False),  # a name the repair of account 6 wants
    (11, "\u2d5c\u2d7f\u2d59", False),  # Tifinagh with a joiner fonts draw as nothing
    (12, "\u179f\u1798\u17d2", False),  # Khmer ending with a coeng that joins nothing
]
EXPECTED_NAMES = {
    1: "Ada",
    2: f"{CYRILLIC_ADA} #2",
    3: "KATE",
    4: f"{GREEK_KATE} #4",
    5: "Ada #5",
    6: "Player 6",
    7: "Zo\u00eb",
    8: "Ill",
    9: "lll #9",
    10: "Player 6 #10",
    11: "\u2d5c\u2d59",
    12: "\u179f\u1798",
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_look_alike_names_are_told_apart_and_keyed(backend: str, tmp_path: Path) -> None:
    url = new_pg_database() if backend == "postgres" else f"sqlite+aiosqlite:///{tmp_path}/m.db"
    command.upgrade(alembic_config(url), "0007")
    now = datetime.now(UTC)
    run(
        url,
        "INSERT INTO accounts (id, name, name_key, password_hash, created_at)"
        " VALUES (:id, :name, :key, :hash, :at)",
        [
            {
                "id": i,
                "name": name,
                "key": name_key(name),
                "hash": PASSWORD if registered else None,
                "at": now,
            }
            for i, name, registered in OLD_ACCOUNTS
        ],
    )
    migrate(url)
    rows = run(url, "SELECT id, name, name_key, name_skeleton FROM accounts ORDER BY id")
    assert {row[0]: row[1] for row in rows} == EXPECTED_NAMES
    for _id, name, key, skeleton in rows:
        assert player_name(str(name)) == name  # every name follows today's rules
        assert (key, skeleton) == (name_key(str(name)), name_skeleton(str(name)))
    assert len({row[3] for row in rows}) == len(rows)
    # From now on the database itself refuses a second name that looks like one held.
    with pytest.raises(Exception, match=r"(?i)unique"):
        run(
            url,
            "INSERT INTO accounts (name, name_key, name_skeleton, created_at)"
            " VALUES (:name, :key, :skeleton, :at)",
            [{"name": "ADA", "key": "ada?", "skeleton": name_skeleton("Ada"), "at": now}],
        )
    command.downgrade(alembic_config(url), "0007")
    assert run(url, "SELECT name FROM accounts WHERE id = 5") == [("Ada #5",)]
    migrate(url)  # and up again: the names are already apart
    assert run(url, "SELECT count(*) FROM accounts WHERE name_skeleton IS NULL") == [(0,)]
