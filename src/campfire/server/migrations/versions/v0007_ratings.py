"""Ratings: ``ratings``, ``rating_history``, ``rated_games`` (``docs/accounts.md``, "Ratings").

A user's or a bot level's rating per game (and per player count), each change of one after a
rated game, and the games already rated (their key keeps a game from being rated twice, also
across restarts). Existing tables, seats, logs, records and accounts are untouched: games
played before were not rated, and stay so.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and their indexes."""
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("level", sa.String(length=16), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_ratings_user_id_users"),
        sa.PrimaryKeyConstraint("id", name="pk_ratings"),
        sa.UniqueConstraint("game", "players", "subject", name="uq_ratings_game_players_subject"),
    )
    op.create_index("ix_ratings_user_id", "ratings", ["user_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("rating_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("before", sa.Integer(), nullable=False),
        sa.Column("after", sa.Integer(), nullable=False),
        sa.Column("rated", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["rating_id"], ["ratings.id"], name="fk_rating_history_rating_id_ratings"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_rating_id", "rating_history", ["rating_id"])
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "game_number", name="pk_rated_games"),
    )


def downgrade() -> None:
    """Drop the ratings (every game and account stays)."""
    op.drop_table("rated_games")
    op.drop_index("ix_rating_history_rating_id", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_user_id", table_name="ratings")
    op.drop_table("ratings")
