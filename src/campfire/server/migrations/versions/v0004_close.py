"""Closing a table from the operator's side (``campfire admin close``).

Three nullable columns of ``game_tables``: the operator's message, when the close was asked
for (a running server carries it out and clears it) and when the table was closed. Existing
tables keep every row; none of them is closed.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``close_message``, ``close_requested`` (indexed) and ``closed``."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("close_message", sa.Text(), nullable=True))
        batch.add_column(sa.Column("close_requested", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("closed", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_game_tables_close_requested", "game_tables", ["close_requested"])


def downgrade() -> None:
    """Drop the three columns (a closed table stays finished)."""
    op.drop_index("ix_game_tables_close_requested", table_name="game_tables")
    # plain ALTER TABLE … DROP COLUMN (SQLite 3.35+): a batch would copy the table, which its
    # foreign keys forbid
    for column in ("closed", "close_requested", "close_message"):
        op.drop_column("game_tables", column)
