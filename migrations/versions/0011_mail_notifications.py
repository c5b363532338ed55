"""E-mail notifications: players' addresses and the outbox of mails

``account_emails`` holds a registered player's address (verified or not, notifications on or
off); ``mail_outbox`` the mails to send, each claimed and then marked sent by one sender.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 09:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "account_emails",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("verified_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("notifications", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_account_emails_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("account_id", name="pk_account_emails"),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_mail_outbox_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_mail_outbox"),
    )
    op.create_index("ix_mail_outbox_account_id", "mail_outbox", ["account_id"], unique=False)
    op.create_index("ix_mail_outbox_due", "mail_outbox", ["sent_at", "due_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_mail_outbox_due", table_name="mail_outbox")
    op.drop_index("ix_mail_outbox_account_id", table_name="mail_outbox")
    op.drop_table("mail_outbox")
    op.drop_table("account_emails")
