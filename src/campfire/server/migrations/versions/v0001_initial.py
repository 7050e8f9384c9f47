"""The first schema: tables, seats, the action log and finished records.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "game_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_game_tables"),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("nickname", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_seats"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_seats_table_id_game_tables"
        ),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "actions",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("notation", sa.String(200), nullable=False),
        sa.Column("received", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "game_number", "seq", name="pk_actions"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_actions_table_id_game_tables"
        ),
    )
    op.create_table(
        "records",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "game_number", name="pk_records"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_records_table_id_game_tables"
        ),
    )


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_table("records")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_game_tables_status", "game_tables")
    op.drop_table("game_tables")
