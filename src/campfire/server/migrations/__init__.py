"""Alembic migrations of the server's database, applied at start by :func:`..db.migrate`."""
