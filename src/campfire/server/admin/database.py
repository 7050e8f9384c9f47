"""The database an admin command operates on: its URL, an engine on it, the server lock.

``--database-url`` defaults to that of ``campfire serve``; messages show a URL without its
password. :func:`no_server` holds the :class:`~.lock.ServerLock` alone while a command that
must not run beside a server works.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from campfire.core import CampfireError
from campfire.i18n import _

from .lock import ServerLock

if TYPE_CHECKING:
    from sqlalchemy import Engine


def database_url(args: argparse.Namespace) -> str:
    """The URL ``--database-url`` gives, or that of ``campfire serve``."""
    from ..db import default_database_url

    url: str = args.database_url or default_database_url()
    return url


def shown_url(url: str) -> str:
    """``url`` without its password (what messages show)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "<URL>"


def sqlite_path(url: str) -> Path | None:
    """The file of an SQLite URL (``None``: not SQLite)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise CampfireError(
            _("the database {url} is in memory: there is nothing to operate on").format(url=url)
        )
    return Path(parsed.database)


def open_engine(url: str, *, must_exist: bool = True, migrate_schema: bool = True) -> Engine:
    """An engine on ``url``, reached once; the schema migrated to the newest (as serve does)."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..db import make_engine, migrate

    path = sqlite_path(url)
    if path is not None and must_exist and not path.is_file():
        raise CampfireError(
            _(
                "there is no database at {path}; give the server's with --database-url (the "
                "default is that of 'campfire serve')"
            ).format(path=path)
        )
    engine = make_engine(url)
    try:
        with engine.connect():
            pass
        if migrate_schema:
            migrate(engine, shared=True)
    except SQLAlchemyError as exc:
        engine.dispose()
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise CampfireError(
            _("cannot reach the database {url}: {reason}").format(
                url=shown_url(url), reason=reason[0] if reason else type(exc).__name__
            )
        ) from None
    return engine


@contextlib.contextmanager
def no_server(engine: Engine, doing: str) -> Iterator[ServerLock]:
    """Hold the server lock alone while the block runs; refuse if a server uses the database."""
    lock = ServerLock(engine)
    if not lock.try_exclusive():
        raise CampfireError(
            _(
                "a server is using the database {url}: stop it first (systemctl stop campfire, "
                "or Ctrl+C in its terminal; every process of --workers N), then {doing}"
            ).format(url=shown_url(str(engine.url)), doing=doing)
        )
    try:
        yield lock
    finally:
        lock.release()


def server_running(engine: Engine) -> bool:
    """Whether a server holds the :class:`ServerLock` of ``engine``'s database now."""
    lock = ServerLock(engine)
    if lock.try_exclusive():
        lock.release()
        return False
    return True
