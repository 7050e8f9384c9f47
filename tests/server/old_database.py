"""A database made by an older schema, with a game in it: what a migration test upgrades.

Each migration's test (``test_the_..._migration_...``) makes one with :class:`OldDatabase` at
the revision before its own, adds the rows its migration touches, runs the migrations to the
head, checks that nothing was lost, and goes back down.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import select

from campfire.server.db import MIGRATIONS, make_engine, migrate, session_factory
from campfire.server.models import ActionRow, TableRow

__all__ = ["OldDatabase"]


class OldDatabase:
    """A fresh database at migration ``revision`` holding table 7 (Tracker, two players, game 1,
    seed 5, ``status``) and its first action, ``peek 0``."""

    def __init__(self, db_url: str, revision: str, status: str = "running") -> None:
        self.engine = make_engine(db_url)
        self.config = Config()
        self.config.set_main_option("script_location", str(MIGRATIONS))
        self.status = status
        with self.engine.begin() as connection:
            self.config.attributes["connection"] = connection
            command.upgrade(self.config, revision)
        self.run(
            "INSERT INTO game_tables (id, game, options, players, status, created, game_number,"
            f" seed) VALUES (7, 'tracker', '{{}}', 2, '{status}', '2026-01-01 00:00:00', 1, 5)",
            "INSERT INTO actions (table_id, game_number, seq, seat, notation, received)"
            " VALUES (7, 1, 0, 0, 'peek 0', '2026-01-01 00:00:01')",
        )

    def run(self, *statements: str) -> None:
        """Run SQL statements in one transaction (rows of the old schema)."""
        with self.engine.begin() as connection:
            for statement in statements:
                connection.exec_driver_sql(statement)

    def upgrade(self) -> TableRow:
        """Migrate to the head; the game's table as read back, its action checked kept."""
        migrate(self.engine)
        with session_factory(self.engine)() as session:
            row = session.get_one(TableRow, 7)
            assert row.status == self.status and row.seed == 5
            assert session.scalars(select(ActionRow.notation)).all() == ["peek 0"]
            session.expunge(row)
            return row

    def downgrade(self, revision: str) -> None:
        """Go back down to ``revision``."""
        with self.engine.begin() as connection:
            self.config.attributes["connection"] = connection
            command.downgrade(self.config, revision)
