"""Bot accounts, tournaments that admit them, and one ladder entry per server bot level

``accounts.bot`` flags an account a program plays through the API; ``tournaments.allow_bots``
lets bot accounts register, and ``tournament_entries.bot_account`` marks their entries.

Ladder entries of server bots are keyed by kind and level (``heuristic:normal``): a normal
bot's entry was keyed by the bare kind (``heuristic``), so it takes the key that new results
of normal bots are written under, and every bot entry takes the name they are written with
(``Heuristic bot (hard)``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 07:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The server bot kinds that have levels (``app.sessions.bots.BOT_KINDS``), and the levels, as
# of this revision.
LEVELLED_KINDS = ("heuristic", "random")
LEVELS = ("easy", "normal", "hard")


def upgrade() -> None:
    # Plain ADD COLUMNs (SQLite supports them): a batch rebuild of ``accounts`` would drop the
    # table, which foreign keys from other tables refuse on a database with rows.
    op.add_column(
        "accounts", sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "tournaments",
        sa.Column("allow_bots", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "tournament_entries",
        sa.Column("bot_account", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    entries = sa.table("ladder_entries", sa.column("bot", sa.String), sa.column("name", sa.String))
    for kind in LEVELLED_KINDS:
        op.execute(entries.update().where(entries.c.bot == kind).values(bot=f"{kind}:normal"))
        for level in LEVELS:
            op.execute(
                entries.update()
                .where(entries.c.bot == f"{kind}:{level}")
                .values(name=f"{kind.title()} bot ({level})")
            )


def downgrade() -> None:
    entries = sa.table("ladder_entries", sa.column("bot", sa.String), sa.column("name", sa.String))
    for kind in LEVELLED_KINDS:
        op.execute(
            entries.update()
            .where(entries.c.bot == f"{kind}:normal")
            .values(bot=kind, name=f"{kind} bot")
        )
    op.drop_column("tournament_entries", "bot_account")
    op.drop_column("tournaments", "allow_bots")
    op.drop_column("accounts", "bot")
