"""ladders: a rating pool (realtime or correspondence)

Correspondence matches (days per move) are rated apart from real-time ones, on ladders of
their own; every ladder made before is a real-time one.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 09:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.add_column(
            sa.Column("pool", sa.String(16), nullable=False, server_default="realtime")
        )


def downgrade() -> None:
    with op.batch_alter_table("ladders") as batch:
        batch.drop_column("pool")
