"""Table leases: which server process owns a table, until when (several processes).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``table_leases`` (one row per table owned by a process, with its expiry)."""
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(80), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_table_leases_table_id_game_tables"
        ),
        sa.PrimaryKeyConstraint("table_id", name="pk_table_leases"),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])


def downgrade() -> None:
    """Drop ``table_leases``."""
    op.drop_index("ix_table_leases_owner", table_name="table_leases")
    op.drop_table("table_leases")
