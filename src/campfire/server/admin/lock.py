"""Whether a server uses the database: :class:`ServerLock`.

Every server process holds it shared while it runs; the ``campfire admin`` commands that must
not run beside a server (a restore, a close without a server) take it exclusively.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.engine import Connection as SAConnection


class ServerLock:
    """The lock every server process holds (shared) on its database while it runs.

    SQLite: an ``flock`` on the file ``DATABASE.serve-lock`` beside the database. PostgreSQL: a
    session advisory lock whose key is made from the database's name and the search path (one
    per schema: the test runs share one database). A process that dies, even by ``kill -9``,
    lets go of either at once. Admin commands that must not run beside a server (a restore, a
    close without a server) take it exclusively (:meth:`try_exclusive`).
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._file: TextIO | None = None
        self._connection: SAConnection | None = None

    @property
    def path(self) -> Path | None:
        """The lock file of an SQLite database (``None``: another database, or in memory)."""
        database = self.engine.url.database
        if self.engine.dialect.name != "sqlite" or not database or database == ":memory:":
            return None
        return Path(database).with_name(Path(database).name + ".serve-lock")

    def _key(self, connection: SAConnection) -> int:
        from sqlalchemy import text

        # the search path as the URL sets it (current_schema() is NULL while it names a schema
        # that does not exist yet, as during a restore into an emptied one)
        names = connection.execute(
            text("SELECT current_database(), current_setting('search_path')")
        ).one()
        digest = hashlib.sha256(f"campfire-serve/{names[0]}/{names[1]}".encode()).digest()
        return int.from_bytes(digest[:8], "big", signed=True)

    def _flock(self, exclusive: bool, wait: bool) -> bool:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX (Windows): no lock, nothing refused
            return True
        path = self.path
        if path is None:
            return True
        handle = path.open("a+", encoding="utf-8")
        flags = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(handle.fileno(), flags)
        except BlockingIOError:
            handle.close()
            return False
        self._file = handle
        return True

    def _advisory(self, exclusive: bool, wait: bool) -> bool:
        from sqlalchemy import text

        if self.engine.dialect.name != "postgresql":
            return True
        connection = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            key = self._key(connection)
            function = {
                (False, True): "pg_advisory_lock_shared",
                (True, False): "pg_try_advisory_lock",
                (False, False): "pg_try_advisory_lock_shared",
                (True, True): "pg_advisory_lock",
            }[(exclusive, wait)]
            got = connection.execute(text(f"SELECT {function}(:key)"), {"key": key}).scalar()
        except BaseException:
            connection.close()
            raise
        if got is False:
            connection.close()
            return False
        self._connection = connection
        return True

    def hold_shared(self) -> None:
        """A server starts: hold the lock shared (waits while an admin command holds it)."""
        self._flock(exclusive=False, wait=True)
        self._advisory(exclusive=False, wait=True)

    def try_exclusive(self) -> bool:
        """Hold the lock alone: ``False`` (and nothing held) while a server holds it."""
        if not self._flock(exclusive=True, wait=False):
            return False
        if not self._advisory(exclusive=True, wait=False):
            self.release()
            return False
        return True

    def release(self) -> None:
        """Let go of the lock."""
        if self._file is not None:
            self._file.close()  # closing the file releases the flock
            self._file = None
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()  # the session's advisory locks go with it
            self._connection = None
