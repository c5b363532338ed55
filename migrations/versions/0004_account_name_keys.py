"""accounts.name_key for every account: names normalised, unique across guests and players

Until now only registered players had a name key (their lower-cased name); guests had none,
so a guest could take a registered player's name and two guests could share one. This fills
the key (NFKC case folding, ``app.accounts.names.name_key``) for every account and tidies the
names themselves, so the existing unique constraint on ``name_key`` covers everyone:

- a name is normalised (NFKC, trimmed, inner whitespace collapsed); one that breaks today's
  rules (invisible or control characters, blank, too long) loses the offending characters or
  is cut, and becomes ``Player <id>`` when nothing visible is left;
- when several accounts end up with one key, registered players keep it first, then the
  oldest account; the others are renamed ``<name> #<id>`` (cut to fit 24 characters), or
  ``Player <id>`` should that be taken too.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26 01:20:00
"""

import itertools
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.accounts.names import (
    MAX_KEY_LENGTH,
    MAX_NAME_LENGTH,
    REFUSED_CATEGORIES,
    NameInvalid,
    name_key,
    normalise,
    player_name,
)

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

accounts = sa.table(
    "accounts",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("password_hash", sa.String),
)


def tidy(name: str, account_id: int) -> str:
    """``name`` under today's rules, repaired as little as possible."""
    try:
        return player_name(name)
    except NameInvalid:
        pass
    kept = "".join(
        ch
        for ch in unicodedata.normalize("NFKC", name)
        if unicodedata.category(ch) not in REFUSED_CATEGORIES or ch in " \t"
    )
    try:
        return player_name(normalise(kept)[:MAX_NAME_LENGTH].strip())
    except NameInvalid:
        return f"Player {account_id}"


def with_suffix(name: str, suffix: str) -> str:
    return f"{name[: MAX_NAME_LENGTH - len(suffix) - 1].rstrip()} {suffix}"


def free_name(name: str, account_id: int, taken: set[str]) -> str:
    """``name``, else ``name #<id>``, else ``Player <id>`` (numbered on): the first whose key
    no account has yet (and fits the column)."""
    numbered = (f"Player {account_id}-{n}" for n in itertools.count(2))
    candidates = itertools.chain(
        [name, with_suffix(name, f"#{account_id}"), f"Player {account_id}"], numbered
    )
    return next(
        candidate
        for candidate in candidates
        if name_key(candidate) not in taken and len(name_key(candidate)) <= MAX_KEY_LENGTH
    )


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key, accounts.c.password_hash)
    ).all()
    # Registered players first, then the oldest: they keep a contested name.
    rows.sort(key=lambda row: (row.password_hash is None, row.id))
    taken: set[str] = set()
    changes: list[tuple[int, str, str]] = []
    for row in rows:
        name = free_name(tidy(row.name, row.id), row.id, taken)
        key = name_key(name)
        taken.add(key)
        if (name, key) != (row.name, row.name_key):
            changes.append((row.id, name, key))
    # Clear the keys first: a key moving from one row to another must not collide midway.
    for account_id, _name, _key in changes:
        connection.execute(
            accounts.update().where(accounts.c.id == account_id).values(name_key=None)
        )
    for account_id, name, key in changes:
        connection.execute(
            accounts.update().where(accounts.c.id == account_id).values(name=name, name_key=key)
        )


def downgrade() -> None:
    # Guests had no key before this revision; registered players keep theirs.
    connection = op.get_bind()
    connection.execute(
        accounts.update().where(accounts.c.password_hash.is_(None)).values(name_key=None)
    )
