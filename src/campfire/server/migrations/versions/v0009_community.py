"""Moderation and quick match: ``reports``, ``blocks``, a user's suspension, ``quick_match``.

A report of a player for the operator (who reported whom, a category, a reason; open until the
operator closes it), a user's block of another (no shared tables, no chat from them), and the
operator's suspension of an account (when, until when, why); the quick match queue (the
people waiting for a table, shared by every server process). Every existing table, seat, log,
record and account is left as it was: no account is suspended (``docs/accounts.md``,
"Moderation").

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the suspension's columns, the reports, the blocks and the quick match queue."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("suspended", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("suspended_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("suspended_reason", sa.String(length=500), nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=True),
        sa.Column("reported_id", sa.Integer(), nullable=True),
        sa.Column("reported_name", sa.String(length=64), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("category", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"], name="fk_reports_reporter_id_users"),
        sa.ForeignKeyConstraint(["reported_id"], ["users.id"], name="fk_reports_reported_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    op.create_index("ix_reports_reported_id", "reports", ["reported_id"])
    op.create_index("ix_reports_created", "reports", ["created"])
    op.create_table(
        "blocks",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("blocked_id", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_blocks_user_id_users"),
        sa.ForeignKeyConstraint(["blocked_id"], ["users.id"], name="fk_blocks_blocked_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_blocks"),
        sa.UniqueConstraint("user_id", "blocked_id", name="uq_blocks_user_blocked"),
    )
    op.create_index("ix_blocks_user_id", "blocks", ["user_id"])
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "quick_match",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("level", sa.String(length=16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("token", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id_hash", name="pk_quick_match"),
    )
    op.create_index("ix_quick_match_user_id", "quick_match", ["user_id"])
    op.create_index("ix_quick_match_client", "quick_match", ["client"])
    op.create_index("ix_quick_match_created", "quick_match", ["created"])


def downgrade() -> None:
    """Drop the queue, the reports, the blocks and the suspensions (the accounts stay)."""
    op.drop_index("ix_quick_match_created", table_name="quick_match")
    op.drop_index("ix_quick_match_client", table_name="quick_match")
    op.drop_index("ix_quick_match_user_id", table_name="quick_match")
    op.drop_table("quick_match")
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_index("ix_blocks_user_id", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_reports_created", table_name="reports")
    op.drop_index("ix_reports_reported_id", table_name="reports")
    op.drop_index("ix_reports_reporter_id", table_name="reports")
    op.drop_table("reports")
    # plain ALTER TABLE … DROP COLUMN (SQLite 3.35+): a batch would copy the table, which the
    # foreign keys of the seats and ratings that name a user forbid
    for column in ("suspended_reason", "suspended_until", "suspended"):
        op.drop_column("users", column)
