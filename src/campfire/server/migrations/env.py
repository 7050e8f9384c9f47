"""Alembic's environment: migrate the connection that :func:`campfire.server.db.migrate` passes.

Run through the API only (``campfire serve`` applies the migrations at start); the connection
comes in ``config.attributes["connection"]``. Importing this module outside a migration (a
doctest run, for instance) does nothing.
"""

from __future__ import annotations

from alembic import context

from campfire.server.models import Base


def run_migrations() -> None:
    """Run the migrations on the connection the caller passed."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("campfire's migrations run through campfire.server.db.migrate()")
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # only while Alembic runs this script
    run_migrations()
