"""accounts.name_skeleton: names that look alike are one name; invisible marks and mixed scripts go

Two accounts could hold names that look the same: "Ada" and "Ada" in Cyrillic letters, or
"Ada" followed by a mark that draws nothing (U+180B, U+17B4, U+2D7F, ...). This adds the
look-alike key of every name (``app.accounts.names.name_skeleton``, a TR39 skeleton in any
case) under a unique constraint, after repairing the names it would refuse:

- a name that breaks today's rules loses its invisible characters (those of migration 0004,
  and now the default-ignorable ones and joiners that join nothing); one that still breaks
  them (it mixes scripts, say) becomes ``Player <id>``;
- when several accounts' names look alike, the oldest account (the lowest id: it held the
  name first) keeps it; each later one is renamed ``<name> #<id>`` (cut to fit 24
  characters), or ``Player <id>`` should that look like a name held too.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28 06:50:00
"""

import itertools
import unicodedata
from collections.abc import Iterator, Sequence

import sqlalchemy as sa
from alembic import op

from app.accounts.lookalikes import invisible_at
from app.accounts.names import (
    BLANK_LOOKING,
    MAX_KEY_LENGTH,
    MAX_NAME_LENGTH,
    MAX_SKELETON_LENGTH,
    REFUSED_CATEGORIES,
    NameInvalid,
    name_key,
    name_skeleton,
    normalise,
    player_name,
)

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

accounts = sa.table(
    "accounts",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("name_skeleton", sa.String),
)


def without_invisible(name: str) -> str:
    """``name`` without the characters today's rules refuse as invisible."""
    kept = "".join(
        ch
        for ch in unicodedata.normalize("NFKC", name)
        if (unicodedata.category(ch) not in REFUSED_CATEGORIES or ch in " \t")
        and ch not in BLANK_LOOKING
    )
    text = normalise(kept)
    while (hidden := invisible_at(text)) is not None:
        text = text[:hidden] + text[hidden + 1 :]
    return normalise(text)[:MAX_NAME_LENGTH].strip()


def tidy(name: str, account_id: int) -> str:
    """``name`` under today's rules, repaired as little as possible."""
    for candidate in (name, without_invisible(name)):
        try:
            return player_name(candidate)
        except NameInvalid:
            pass
    return f"Player {account_id}"


def with_suffix(name: str, suffix: str) -> str:
    return f"{name[: MAX_NAME_LENGTH - len(suffix) - 1].rstrip()} {suffix}"


def candidates(name: str, account_id: int) -> Iterator[str]:
    yield name
    yield with_suffix(name, f"#{account_id}")
    yield f"Player {account_id}"
    for n in itertools.count(2):
        yield f"Player {account_id}-{n}"


def free_name(name: str, account_id: int, keys: set[str], skeletons: set[str]) -> str:
    """The first of ``candidates`` that no account has yet, by key or by look."""
    for candidate in candidates(name, account_id):
        key, skeleton = name_key(candidate), name_skeleton(candidate)
        if len(key) > MAX_KEY_LENGTH or len(skeleton) > MAX_SKELETON_LENGTH:
            continue
        if key not in keys and skeleton not in skeletons:
            return candidate
    raise AssertionError("unreachable: candidates never ends")


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(MAX_SKELETON_LENGTH), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key).order_by(accounts.c.id)
    ).all()
    keys: set[str] = set()
    skeletons: set[str] = set()
    filled: list[dict[str, object]] = []  # the accounts that keep their name
    renamed: list[dict[str, object]] = []
    for row in rows:  # the oldest account first: it keeps a contested name
        name = free_name(tidy(row.name, row.id), row.id, keys, skeletons)
        key, skeleton = name_key(name), name_skeleton(name)
        keys.add(key)
        skeletons.add(skeleton)
        change = {"row_id": row.id, "new_name": name, "new_key": key, "new_skeleton": skeleton}
        (filled if (name, key) == (row.name, row.name_key) else renamed).append(change)
    by_id = accounts.c.id == sa.bindparam("row_id")
    # Clear the renamed rows' keys first: a key moving between rows must not collide midway.
    if renamed:
        connection.execute(accounts.update().where(by_id).values(name_key=None), renamed)
        connection.execute(
            accounts.update()
            .where(by_id)
            .values(
                name=sa.bindparam("new_name"),
                name_key=sa.bindparam("new_key"),
                name_skeleton=sa.bindparam("new_skeleton"),
            ),
            renamed,
        )
    if filled:
        connection.execute(
            accounts.update().where(by_id).values(name_skeleton=sa.bindparam("new_skeleton")),
            filled,
        )
    with op.batch_alter_table("accounts") as batch:
        batch.create_unique_constraint(batch.f("uq_accounts_name_skeleton"), ["name_skeleton"])


def downgrade() -> None:
    # Renamed accounts keep their new names: the old ones are the look-alikes this removed.
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint(batch.f("uq_accounts_name_skeleton"), type_="unique")
        batch.drop_column("name_skeleton")
