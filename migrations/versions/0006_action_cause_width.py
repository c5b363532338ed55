"""match_actions.cause widened to 32 characters: ``forfeit_abandoned`` has 17

A seat forfeited by abandonment is logged with cause ``forfeit_abandoned``, one character more
than the column's 16. SQLite does not enforce a VARCHAR's length, so only PostgreSQL refused
it: the write failed, the session was rebuilt and forfeited the seat again, without end.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 02:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_actions") as batch:
        batch.alter_column("cause", existing_type=sa.String(length=16), type_=sa.String(length=32))


def downgrade() -> None:
    with op.batch_alter_table("match_actions") as batch:
        batch.alter_column("cause", existing_type=sa.String(length=32), type_=sa.String(length=16))
