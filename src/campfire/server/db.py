"""The database: its URL, the engine, migrations at start, sessions.

The default database is an SQLite file in the user data directory
(``platformdirs.user_data_dir("campfire")/campfire.db``), created on first start; any
SQLAlchemy URL works, for PostgreSQL ``postgresql+psycopg://user@host/dbname``. The schema is
created and upgraded with the Alembic migrations shipped in this package (``migrations/``),
applied by :func:`migrate` every time the server starts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

from campfire.core import ErrorText, OptionError

from .logs import redact

__all__ = [
    "MIGRATIONS",
    "data_folder",
    "default_database_url",
    "make_engine",
    "migrate",
    "session_factory",
]

#: The Alembic script directory shipped in the package.
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def data_folder() -> Path:
    """The server's data folder (created if missing): the default database, the secret key.

    The user data directory, or ``CAMPFIRE_DATA_DIR``, which moves it as it does for the
    terminal app (a separate database for a second clone, a test, a portable setup).
    """
    override = os.environ.get("CAMPFIRE_DATA_DIR")
    folder = Path(override) if override else Path(platformdirs.user_data_dir("campfire"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def default_database_url() -> str:
    """The SQLite file in the data folder (:func:`data_folder`)."""
    return f"sqlite:///{data_folder() / 'campfire.db'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; raises :class:`OptionError` for a URL SQLAlchemy cannot read.

    SQLite files run in WAL mode with ``synchronous=NORMAL``: a committed action survives the
    server process being killed (not a power cut), and readers never wait for the writer.
    """
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise OptionError(
            ErrorText(
                "not a database URL: {url}; use sqlite:///PATH or "
                "postgresql+psycopg://USER@HOST:PORT/DBNAME",
                url=repr(redact(url)),
            )
        ) from None
    kwargs: dict[str, Any] = {}
    sqlite = parsed.get_backend_name() == "sqlite"
    if sqlite:
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        if parsed.database:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    else:
        kwargs["pool_pre_ping"] = True
    try:
        engine = create_engine(parsed, **kwargs)
    except (ImportError, ArgumentError) as exc:
        raise OptionError(
            ErrorText("cannot use the database URL {url}: {exc}", url=repr(redact(url)), exc=exc)
        ) from None
    if sqlite:

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

    return engine


def migrate(engine: Engine, shared: bool = False) -> None:
    """Bring the schema up to the newest migration (Alembic's ``upgrade head``).

    ``shared``: several processes start at once on one PostgreSQL database; they migrate one
    after the other (an advisory lock held for the transaction).
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if shared and engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(7215461)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions on ``engine`` whose objects stay readable after a commit."""
    return sessionmaker(engine, expire_on_commit=False)
