"""lobbies.revision: a counter bumped by every change to a table being set up

A browser hears of a lobby three ways (its own request's reply, a refetch, the lobby feed),
and they can arrive out of order: an older snapshot landing last showed the host a table
without the bots just added, with "Start" disabled. Clients now keep the highest revision.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 06:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("lobbies") as batch:
        batch.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("lobbies") as batch:
        batch.drop_column("revision")
