"""A table's chat: the ``chat_lines`` table (``docs/protocol.md``, "Chat").

One row per line, with the table, the channel (``players`` or ``spectators``), the writer's
seat and nickname, the text and when it was sent. Existing tables keep every row and have no
chat yet; the action log and the records are untouched (chat is never part of a game).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``chat_lines`` with its index on the table."""
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_tables.id"],
            name="fk_chat_lines_table_id_game_tables",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_lines"),
    )
    op.create_index("ix_chat_lines_table_id", "chat_lines", ["table_id"])


def downgrade() -> None:
    """Drop ``chat_lines`` (the chat is lost; the games are not)."""
    op.drop_index("ix_chat_lines_table_id", table_name="chat_lines")
    op.drop_table("chat_lines")
