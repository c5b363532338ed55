"""Moderation: admins, bans and mutes on accounts; voided matches; reports; the audit log

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 02:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMNs (SQLite supports them): a batch rebuild of ``accounts`` would drop the
    # table, which foreign keys from other tables refuse on a database with rows.
    op.add_column(
        "accounts", sa.Column("is_admin", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "accounts", sa.Column("banned", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("accounts", sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
    op.add_column("matches", sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("matches", sa.Column("voided_by", sa.Integer(), nullable=True))
    op.add_column("matches", sa.Column("void_reason", sa.String(length=500), nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("chat_text", sa.String(length=500), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolution", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["reporter_id"], ["accounts.id"], name=op.f("fk_reports_reporter_id_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_reports_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    op.create_index(op.f("ix_reports_status"), "reports", ["status"], unique=False)
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=60), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index(op.f("ix_audit_log_created_at"), "audit_log", ["created_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_audit_log_created_at"), table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_index(op.f("ix_reports_status"), table_name="reports")
    op.drop_table("reports")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("void_reason")
        batch.drop_column("voided_by")
        batch.drop_column("voided_at")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("muted_until")
        batch.drop_column("banned")
        batch.drop_column("is_admin")
