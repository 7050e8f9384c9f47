"""Turn-based play: each turn-based table's deadlines, as wall-clock times.

Two nullable columns of ``game_tables``: ``turn_deadline``, the earliest moment a seat to act at a
turn-based table (``{"kind": "turn"}`` clock) runs out of time (indexed: the server looks for
the deadlines that passed, including those that passed while no server ran), and ``turn``, the
deadline of each seat whose turn it is (``[[seat, unix seconds], ...]``; the "your turn" list
reads it). Existing tables keep every row; none of them is turn-based.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``turn_deadline`` (indexed) and ``turn``."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("turn", sa.JSON(), nullable=True))
    op.create_index("ix_game_tables_turn_deadline", "game_tables", ["turn_deadline"])


def downgrade() -> None:
    """Drop the two columns (a turn-based table's clock is then read back from its log)."""
    op.drop_index("ix_game_tables_turn_deadline", table_name="game_tables")
    # plain ALTER TABLE … DROP COLUMN (SQLite 3.35+): a batch would copy the table, which its
    # foreign keys forbid
    for column in ("turn", "turn_deadline"):
        op.drop_column("game_tables", column)
