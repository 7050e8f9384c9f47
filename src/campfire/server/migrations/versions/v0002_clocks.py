"""Clocks and bot takeover: a table's settings, each action's cause and the clocks after it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``game_tables.settings``, ``actions.cause`` and ``actions.clocks``."""
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("cause", sa.String(16), nullable=True))
        batch.add_column(sa.Column("clocks", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop the three columns."""
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("clocks")
        batch.drop_column("cause")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("settings")
