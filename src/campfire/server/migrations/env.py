"""Alembic's environment: migrate the connection that :func:`campfire.server.db.migrate` passes.

Run through the API only (``campfire serve`` applies the migrations at start); the connection
comes in ``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

from campfire.server.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the API drives these migrations
    raise RuntimeError("campfire's migrations run through campfire.server.db.migrate()")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
