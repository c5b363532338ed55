"""match_wakeups: matches asleep out of memory, and when each is due to wake

A match that has waited for its players longer than ``RAMPART_HIBERNATE_AFTER_S`` with nobody
connected leaves memory; its row says when its next deadline falls due (wall ms) and carries
its turn clocks and who is away since when. Start-up loads only the matches without a row.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 09:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_wakeups",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.BigInteger(), nullable=True),
        sa.Column("carry", sa.JSON(), nullable=False),
        sa.Column("taken_by", sa.String(length=64), nullable=True),
        sa.Column("taken_until", sa.BigInteger(), nullable=True),
        sa.Column("slept_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_match_wakeups_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_match_wakeups")),
    )
    op.create_index(op.f("ix_match_wakeups_due_at"), "match_wakeups", ["due_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_match_wakeups_due_at"), table_name="match_wakeups")
    op.drop_table("match_wakeups")
