"""``campfire admin``: backups, restores, the list of tables, closing a table, purging old ones.

- ``backup PATH`` — an SQLite database is copied online with SQLite's backup API (one read
  transaction: consistent while a server runs and writes, WAL included) into a single file; a
  PostgreSQL database is dumped with ``pg_dump`` (the command is printed, or run with
  ``--pg-dump``).
- ``restore PATH`` — puts a backup in the database's place, the replaced database kept beside
  it (``.before-restore-…``); refused while a server uses the database. The next
  ``campfire serve`` rebuilds every unfinished table from its log.
- ``tables`` — the tables, as a text table or JSON.
- ``close TABLE --message TEXT`` — a running server closes the table (it polls the database
  for such requests, :func:`watch_closes`) and tells its players (a ``closed`` frame); with no
  server running the command closes it itself. A closed table is finished for good; the game
  it was playing gets its record (unfinished, with ``meta.closed``).
- ``purge --finished-before DATE`` — deletes finished tables, each game's record exported
  first.

Whether a server uses the database is told by :class:`ServerLock`: every server process holds
it shared while it runs; the commands that must not run beside a server take it exclusively.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from campfire.core import CampfireError
from campfire.core.validate import int_arg
from campfire.i18n import _

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from sqlalchemy.engine import Connection as SAConnection
    from sqlalchemy.orm import Session, sessionmaker

    from .tables import LiveTable, Store, TableManager

__all__ = [
    "CLOSE_POLL_SECONDS",
    "MAX_MESSAGE",
    "ServerLock",
    "add_admin_command",
    "close_live",
    "close_table",
    "watch_closes",
]

log = logging.getLogger(__name__)

#: How often a server looks for tables to close (seconds).
CLOSE_POLL_SECONDS = 1.0
#: The longest message of ``campfire admin close``.
MAX_MESSAGE = 500
#: The statuses ``campfire admin tables --status`` takes.
STATUSES = ("open", "running", "finished")


# ----- is a server using the database? ------------------------------------------------------------


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


# ----- closing a table ----------------------------------------------------------------------------


def close_table(live: LiveTable, store: Store, message: str) -> None:
    """Close ``live`` in the database: finished for good, with the operator's ``message``.

    A game in progress gets its record now (unfinished: no outcome; ``meta.closed`` holds the
    message and the time), so it stays exportable and replayable. The caller holds the
    table's lock (a server) or is the only one using the database (an admin command).
    """
    from .models import TableRow, utcnow
    from .writer import store_record

    now = utcnow()
    record = None
    if live.table is not None and live.status == "running":
        meta = live.record_meta()
        meta["closed"] = {"message": message, "at": now.isoformat(timespec="seconds")}
        record = live.table.match.record(meta).dumps()
    with store.sessions.begin() as session:
        if store.fence is not None:  # several processes: only the table's owner writes
            store.fence(session, (live.id,))
        if record is not None:
            store_record(session, live.id, live.number, record)
        row = session.get_one(TableRow, live.id)
        row.status, row.close_message, row.closed = "finished", message, now
        row.close_requested = None
    live.status = "finished"
    live.closed = message


async def close_live(manager: TableManager, live: LiveTable, message: str) -> None:
    """Close a table this server process serves and tell its clients.

    Its bots, clocks and claim windows stop; every connection gets a fresh snapshot (status
    ``finished``) and then a ``closed`` frame with ``message``.
    """
    from . import protocol

    async with live.lock:
        if live.closed is not None:
            return
        current = asyncio.current_task()
        tasks = [live.bot_task, live.clock_task, *live.leave_tasks.values(), *live.window_tasks]
        for task in tasks:
            if task is not None and task is not current:
                task.cancel()
        live.leave_tasks.clear()
        live.window_tasks = []
        live.window = None
        await asyncio.to_thread(close_table, live, manager.store, message)
        if live.clocks is not None:
            live.clocks.sync([], manager.clock())
        frame = protocol.closed_frame(live.id, live.number, live.seq, message)
        for conn in list(live.connections):
            conn.push(live.snapshot(conn.seat, language=conn.language))
            conn.push(frame)
    log.info("table %s: closed by the operator", live.id)


def _requested(sessions: sessionmaker[Session]) -> list[tuple[int, str]]:
    from sqlalchemy import select

    from .models import TableRow

    with sessions() as session:
        rows = session.execute(
            select(TableRow.id, TableRow.close_message)
            .where(TableRow.close_requested.is_not(None))
            .order_by(TableRow.id)
            .limit(100)
        ).all()
    return [(int(i), str(m or "")) for i, m in rows]


def _clear_request(sessions: sessionmaker[Session], table_id: int) -> None:
    from sqlalchemy import update

    from .models import TableRow

    with sessions.begin() as session:
        session.execute(
            update(TableRow).where(TableRow.id == table_id).values(close_requested=None)
        )


async def carry_out_closes(manager: TableManager) -> int:
    """Close the tables ``campfire admin close`` asked for that this process may serve.

    A table another process owns (several processes) is left to its owner. Returns how many
    were closed.
    """
    from .tables import LobbyError

    closed = 0
    for table_id, message in await asyncio.to_thread(_requested, manager.store.sessions):
        try:
            live = manager.load(table_id)
        except LobbyError:  # another process owns it (cluster.Elsewhere): it closes it
            continue
        if live is None:
            continue
        if live.closed is not None:  # closed already: the request is void
            await asyncio.to_thread(_clear_request, manager.store.sessions, table_id)
            continue
        await close_live(manager, live, message)
        closed += 1
    return closed


async def watch_closes(manager: TableManager, interval: float = CLOSE_POLL_SECONDS) -> None:
    """Look for close requests every ``interval`` seconds until cancelled (a server's task)."""
    while True:
        await asyncio.sleep(interval)
        try:
            await carry_out_closes(manager)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("closing the tables asked for failed; trying again")


# ----- the command line ---------------------------------------------------------------------------


def add_admin_command(sub: Any) -> None:
    """Add ``admin`` and its actions to the ``campfire`` command's subparsers."""
    admin = sub.add_parser(
        "admin",
        help=_("operate a game server's database: backup, restore, tables, close, purge"),
        description=_(
            "Operate the database of 'campfire serve': back it up and restore it, list the "
            "tables, close a table with a message to its players, purge old finished tables. "
            "--database-url defaults to the server's (an SQLite file in the user data "
            "directory, or $CAMPFIRE_DATA_DIR)."
        ),
    )
    admin.set_defaults(func=lambda args: _no_action(admin))
    actions = admin.add_subparsers(dest="admin_command", metavar="ACTION", parser_class=type(admin))

    p = actions.add_parser(
        "backup",
        help=_("copy the database to PATH (online: the server may keep running)"),
        description=_(
            "Back up the database to PATH. SQLite: an online copy made with SQLite's backup "
            "API, consistent while the server runs and writes, as one self-contained file. "
            "PostgreSQL: prints the pg_dump command to run, or runs it with --pg-dump."
        ),
    )
    p.add_argument("path", metavar="PATH", help=_("the backup file to write"))
    _database_option(p)
    p.add_argument("--force", action="store_true", help=_("replace PATH if it exists"))
    p.add_argument(
        "--pg-dump",
        action="store_true",
        help=_("PostgreSQL: run pg_dump (custom format) rather than print its command"),
    )
    p.set_defaults(func=_cmd_backup)

    p = actions.add_parser(
        "restore",
        help=_("put a backup in the database's place (the server must be stopped)"),
        description=_(
            "Restore the backup PATH into the database. Refused while a server uses the "
            "database: stop it first. The database replaced is kept beside it as "
            "DATABASE.before-restore-TIME. The next 'campfire serve' rebuilds every unfinished "
            "table from its log. PostgreSQL: prints the pg_restore command, or runs it with "
            "--pg-restore."
        ),
    )
    p.add_argument("path", metavar="PATH", help=_("the backup file to restore"))
    _database_option(p)
    p.add_argument(
        "--force",
        action="store_true",
        help=_("replace an existing database without asking (it is kept all the same)"),
    )
    p.add_argument(
        "--pg-restore",
        action="store_true",
        help=_("PostgreSQL: run pg_restore rather than print its command"),
    )
    p.set_defaults(func=_cmd_restore)

    p = actions.add_parser(
        "tables",
        help=_("list the tables"),
        description=_(
            "List the tables: id, game, players, status, game number, sequence number "
            "(actions of the current game), created, last action."
        ),
    )
    p.add_argument(
        "--status",
        type=_statuses_arg,
        default=list(STATUSES),
        metavar="LIST",
        help=_("only these statuses, comma-separated: open, running, finished (default: all)"),
    )
    p.add_argument("--json", action="store_true", help=_("print the list as JSON"))
    _database_option(p)
    p.set_defaults(func=_cmd_tables)

    p = actions.add_parser(
        "close",
        help=_("close a table with a message to its players"),
        description=_(
            "Close a table: its game stops (its record is kept, unfinished), its players get "
            "MESSAGE, and it stays finished. A running server does it within a second or two "
            "(the command waits for it); with no server running the command does it itself."
        ),
    )
    p.add_argument("table", metavar="TABLE", type=int_arg("TABLE", 1, 2**31 - 1))
    p.add_argument(
        "--message",
        required=True,
        metavar="TEXT",
        help=_("what the players are told (1–{most} characters)").format(most=MAX_MESSAGE),
    )
    p.add_argument(
        "--wait",
        type=int_arg("--wait", 1, 3600),
        default=15,
        metavar="SECONDS",
        help=_("how long to wait for the running server to close it (default 15)"),
    )
    _database_option(p)
    p.set_defaults(func=_cmd_close)

    p = actions.add_parser(
        "purge",
        help=_("delete finished tables, their records exported first"),
        description=_(
            "Delete the tables finished before DATE with their actions and records. Each "
            "game's record is written to DIR first (as 'campfire replay' reads it); a table "
            "whose export failed is kept."
        ),
    )
    p.add_argument(
        "--finished-before",
        required=True,
        type=_date_arg,
        metavar="DATE",
        help=_("YYYY-MM-DD (midnight UTC) or an ISO 8601 time such as 2026-01-31T12:00+01:00"),
    )
    export = p.add_mutually_exclusive_group(required=True)
    export.add_argument("--export", metavar="DIR", help=_("write each game's record to DIR first"))
    export.add_argument(
        "--no-export", action="store_true", help=_("delete the records without exporting them")
    )
    p.add_argument(
        "--dry-run", action="store_true", help=_("say what would be deleted; change nothing")
    )
    _database_option(p)
    p.set_defaults(func=_cmd_purge)


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database-url",
        metavar="URL",
        default=None,
        help=_("the server's database (default: that of 'campfire serve')"),
    )


def _statuses_arg(text: str) -> list[str]:
    found = [s.strip() for s in text.split(",") if s.strip()]
    if not found or any(s not in STATUSES for s in found):
        raise argparse.ArgumentTypeError(
            _("a comma-separated list of {allowed} (got {got})").format(
                allowed=", ".join(STATUSES), got=repr(text[:40])
            )
        )
    return found


def _date_arg(text: str) -> datetime.datetime:
    try:
        when = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("a date YYYY-MM-DD or an ISO 8601 time YYYY-MM-DDTHH:MM[+HH:MM] (got {got})").format(
                got=repr(text[:40])
            )
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return when


# ----- the database -------------------------------------------------------------------------------


def _url(args: argparse.Namespace) -> str:
    from .db import default_database_url

    url: str = args.database_url or default_database_url()
    return url


def _shown(url: str) -> str:
    """``url`` without its password (what messages show)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "<URL>"


def _sqlite_path(url: str) -> Path | None:
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


def _engine(url: str, *, must_exist: bool = True, migrate_schema: bool = True) -> Engine:
    """An engine on ``url``, reached once; the schema migrated to the newest (as serve does)."""
    from sqlalchemy.exc import SQLAlchemyError

    from .db import make_engine, migrate

    path = _sqlite_path(url)
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
                url=_shown(url), reason=reason[0] if reason else type(exc).__name__
            )
        ) from None
    return engine


@contextlib.contextmanager
def _no_server(engine: Engine, doing: str) -> Iterator[ServerLock]:
    """Hold the server lock alone while the block runs; refuse if a server uses the database."""
    lock = ServerLock(engine)
    if not lock.try_exclusive():
        raise CampfireError(
            _(
                "a server is using the database {url}: stop it first (systemctl stop campfire, "
                "or Ctrl+C in its terminal; every process of --workers N), then {doing}"
            ).format(url=_shown(str(engine.url)), doing=doing)
        )
    try:
        yield lock
    finally:
        lock.release()


def _server_running(engine: Engine) -> bool:
    lock = ServerLock(engine)
    if lock.try_exclusive():
        lock.release()
        return False
    return True


# ----- backup and restore -------------------------------------------------------------------------


def _postgres_command(url: str, tool: str, path: Path) -> tuple[list[str], dict[str, str]]:
    """The ``pg_dump``/``pg_restore`` command for ``url`` and the environment it needs.

    The password, if the URL has one, goes in ``PGPASSWORD`` (never on the command line); a
    schema named by the URL's ``options=-csearch_path=SCHEMA`` is the one dumped.
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    connection = []
    if parsed.host:
        connection += ["--host", parsed.host]
    if parsed.port:
        connection += ["--port", str(parsed.port)]
    if parsed.username:
        connection += ["--username", parsed.username]
    schema = _search_path(parsed.query.get("options"))
    env = {"PGPASSWORD": parsed.password} if parsed.password else {}
    database = parsed.database or "postgres"
    if tool == "pg_dump":
        command = ["pg_dump", "--format=custom", f"--file={path}", *connection]
        command += [f"--schema={schema}"] if schema else []
        return [*command, database], env
    command = ["pg_restore", "--clean", "--if-exists", "--no-owner", "--exit-on-error"]
    return [*command, *connection, f"--dbname={database}", str(path)], env


def _search_path(options: Any) -> str | None:
    """The schema of a libpq ``options`` value such as ``-csearch_path=NAME``."""
    values = options if isinstance(options, tuple) else (options,) if options else ()
    for value in values:
        for part in str(value).split():
            for prefix in ("-csearch_path=", "--search_path="):
                if part.startswith(prefix):
                    return part[len(prefix) :].split(",")[0].strip() or None
    return None


def _shell(command: Sequence[str]) -> str:
    import shlex

    return " ".join(shlex.quote(part) for part in command)


def _run_postgres(command: list[str], env: dict[str, str]) -> None:
    if shutil.which(command[0]) is None:
        raise CampfireError(
            _(
                "{tool} is not installed here (Debian: apt-get install postgresql-client; its "
                "version must be at least the server's)"
            ).format(tool=command[0])
        )
    done = subprocess.run(command, env={**os.environ, **env}, check=False)
    if done.returncode != 0:
        raise CampfireError(
            _("{tool} failed (exit status {status}): see its messages above").format(
                tool=command[0], status=done.returncode
            )
        )


def _sqlite_connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=30)
    connection.execute("PRAGMA busy_timeout=30000")
    return connection


def _copy_sqlite(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` to ``target`` with the backup API, atomically.

    The copy is made in one step: one read transaction, so it is consistent while a server
    writes (in WAL mode writers do not wait for it); what the WAL holds is copied too. The
    result is one file in the rollback-journal mode, checked with ``integrity_check``.
    """
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = _sqlite_connect(source)
    try:
        dst = sqlite3.connect(str(partial))
        try:
            src.backup(dst)  # pages=-1: every page in one step
            dst.execute("PRAGMA journal_mode=DELETE")
            verdict = dst.execute("PRAGMA integrity_check").fetchone()
        finally:
            dst.close()
    finally:
        src.close()
    if verdict is None or verdict[0] != "ok":
        partial.unlink(missing_ok=True)
        raise CampfireError(
            _("the copy of {path} failed its integrity check: {verdict}").format(
                path=source, verdict=verdict[0] if verdict else "?"
            )
        )
    with partial.open("rb+") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, target)


def _counts(path: Path) -> tuple[int, int]:
    """The tables and actions an SQLite Campfire database holds."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = connection.execute("SELECT count(*) FROM game_tables").fetchone()[0]
        actions = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
    finally:
        connection.close()
    return int(tables), int(actions)


def _cmd_backup(args: argparse.Namespace) -> int:
    url = _url(args)
    target = Path(args.path)
    if target.exists() and not args.force:
        raise CampfireError(
            _("{path} exists: choose another PATH, or --force to replace it").format(path=target)
        )
    if target.is_dir():
        raise CampfireError(
            _("{path} is a directory: PATH names the backup file").format(path=target)
        )
    source = _sqlite_path(url)
    if source is None:
        command, env = _postgres_command(url, "pg_dump", target)
        if not args.pg_dump:
            raise CampfireError(
                _(
                    "the database is PostgreSQL: back it up with pg_dump (add --pg-dump to run "
                    "it from here; the password, if any, from ~/.pgpass or PGPASSWORD):\n"
                    "  {command}"
                ).format(command=_shell(command))
            )
        _run_postgres(command, env)
        print(
            _("backed up {url} to {path} (pg_dump, custom format)").format(
                url=_shown(url), path=target
            )
        )
        return 0
    if not source.is_file():
        raise CampfireError(_("there is no database at {path}").format(path=source))
    if target.resolve() == source.resolve():
        raise CampfireError(_("PATH is the database itself: choose another file"))
    target.parent.mkdir(parents=True, exist_ok=True)
    _copy_sqlite(source, target)
    tables, actions = _counts(target)
    print(
        _(
            "backed up {source} to {path} (tables: {tables}, actions: {actions}, bytes: {size})"
        ).format(
            source=source, path=target, tables=tables, actions=actions, size=target.stat().st_size
        )
    )
    return 0


def _check_backup(path: Path) -> None:
    """Refuse a file that is not an SQLite Campfire database in good health."""
    if not path.is_file():
        raise CampfireError(_("there is no backup file {path}").format(path=path))
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
            verdict = connection.execute("PRAGMA integrity_check").fetchone()
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise CampfireError(
            _("{path} is not an SQLite database ({reason})").format(path=path, reason=exc)
        ) from None
    if not {"game_tables", "actions", "alembic_version"} <= names:
        raise CampfireError(
            _("{path} is not a backup of a Campfire database (no game tables in it)").format(
                path=path
            )
        )
    if verdict is None or verdict[0] != "ok":
        raise CampfireError(_("{path} fails SQLite's integrity check").format(path=path))


def _confirm(question: str) -> bool:
    if not sys.stdin.isatty():
        return False
    answer = input(question + " ")
    return answer.strip().lower() in {_("y"), _("yes"), "y", "yes"}


def _cmd_restore(args: argparse.Namespace) -> int:
    url = _url(args)
    source = Path(args.path)
    target = _sqlite_path(url)
    if target is None:
        return _restore_postgres(url, source, args)
    _check_backup(source)
    if target.exists() and source.resolve() == target.resolve():
        raise CampfireError(_("PATH is the database itself: nothing to restore"))
    existing = target.is_file()
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    kept = target.with_name(f"{target.name}.before-restore-{stamp}")
    if existing and not args.force:
        question = _(
            "Replace the database {target} with {source}? The current one is kept as {kept}. [y/N]"
        ).format(target=target, source=source, kept=kept)
        if not _confirm(question):
            raise CampfireError(
                _(
                    "{target} exists: add --force to replace it (it is kept as "
                    "{target}.before-restore-TIME)"
                ).format(target=target)
            )
    from .db import make_engine

    target.parent.mkdir(parents=True, exist_ok=True)
    lock_engine = make_engine(url)  # (connects to nothing: the lock is a file beside it)
    try:
        with _no_server(lock_engine, _("restore again")):
            if existing:
                _copy_sqlite(target, kept)  # the WAL's committed content included
            restoring = target.with_name(target.name + ".restoring")
            _copy_sqlite(source, restoring)
            for suffix in ("-wal", "-shm"):
                target.with_name(target.name + suffix).unlink(missing_ok=True)
            os.replace(restoring, target)
    finally:
        lock_engine.dispose()
    tables, actions = _counts(target)
    print(
        _("restored {source} into {target} (tables: {tables}, actions: {actions})").format(
            source=source, target=target, tables=tables, actions=actions
        )
    )
    if existing:
        print(_("the database it replaced is kept as {kept}").format(kept=kept))
    print(_("start the server: it rebuilds every unfinished table from its log"))
    return 0


def _restore_postgres(url: str, source: Path, args: argparse.Namespace) -> int:
    command, env = _postgres_command(url, "pg_restore", source)
    if not args.pg_restore:
        raise CampfireError(
            _(
                "the database is PostgreSQL: stop every server process, then restore with "
                "pg_restore (add --pg-restore to run it from here; it replaces the tables the "
                "backup holds):\n  {command}"
            ).format(command=_shell(command))
        )
    if not source.is_file():
        raise CampfireError(_("there is no backup file {path}").format(path=source))
    if not args.force and not _confirm(
        _("Replace the Campfire tables of {url} with {source}? [y/N]").format(
            url=_shown(url), source=source
        )
    ):
        raise CampfireError(_("restoring replaces the database's tables: add --force"))
    engine = _engine(url, migrate_schema=False)
    try:
        with _no_server(engine, _("restore again")):
            _run_postgres(command, env)
    finally:
        engine.dispose()
    print(_("restored {source} into {url}").format(source=source, url=_shown(url)))
    print(_("start the server: it rebuilds every unfinished table from its log"))
    return 0


# ----- tables -------------------------------------------------------------------------------------


@dataclass
class TableLine:
    """One table as ``campfire admin tables`` lists it."""

    id: int
    game: str
    players: list[str]
    status: str
    closed: str | None
    game_number: int
    seq: int
    created: datetime.datetime
    last_action: datetime.datetime | None
    finished: datetime.datetime | None

    def to_json(self) -> dict[str, Any]:
        """The line as ``--json`` prints it."""
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "status": self.status,
            "closed": self.closed,
            "game_number": self.game_number,
            "seq": self.seq,
            "created": _iso(self.created),
            "last_action": _iso(self.last_action),
            "finished": _iso(self.finished),
        }


def _iso(when: datetime.datetime | None) -> str | None:
    if when is None:
        return None
    if when.tzinfo is None:  # SQLite gives naive times back: they are UTC
        when = when.replace(tzinfo=datetime.UTC)
    return when.isoformat(timespec="seconds")


def _utc(when: datetime.datetime | None) -> datetime.datetime | None:
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=datetime.UTC)
    return when


def _seat_name(kind: str, nickname: str | None, level: str | None) -> str:
    if kind == "bot":
        return _("bot ({level})").format(level=level or "easy")
    if kind == "human":
        return nickname or "?"
    return _("(open)")


def table_lines(
    sessions: sessionmaker[Session],
    statuses: Sequence[str],
    ids: Sequence[int] | None = None,
) -> list[TableLine]:
    """The tables whose status is one of ``statuses`` (only ``ids``, if given), by id."""
    from sqlalchemy import func, select

    from .models import ActionRow, RecordRow, SeatRow, TableRow

    with sessions() as session:
        query = select(TableRow).where(TableRow.status.in_(list(statuses)))
        if ids is not None:
            query = query.where(TableRow.id.in_(list(ids)))
        rows = session.scalars(query.order_by(TableRow.id)).all()
        found = [r.id for r in rows]
        seats: dict[int, list[str]] = {i: [] for i in found}
        for s in session.scalars(
            select(SeatRow).where(SeatRow.table_id.in_(found)).order_by(SeatRow.seat)
        ):
            seats[s.table_id].append(_seat_name(s.kind, s.nickname, s.level))
        actions = {
            (t, g): (int(n), last)
            for t, g, n, last in session.execute(
                select(
                    ActionRow.table_id,
                    ActionRow.game_number,
                    func.count(),
                    func.max(ActionRow.received),
                )
                .where(ActionRow.table_id.in_(found))
                .group_by(ActionRow.table_id, ActionRow.game_number)
            )
        }
        last_any: dict[int, datetime.datetime] = {}
        for (t, _g), (_n, last) in actions.items():
            when = _utc(last)
            if when is not None and (t not in last_any or when > last_any[t]):
                last_any[t] = when
        records = dict(
            session.execute(
                select(RecordRow.table_id, func.max(RecordRow.finished))
                .where(RecordRow.table_id.in_(found))
                .group_by(RecordRow.table_id)
            ).all()
        )
        out = []
        for r in rows:
            finished = _utc(records.get(r.id))
            closed = _utc(r.closed)
            if closed is not None and (finished is None or closed > finished):
                finished = closed
            out.append(
                TableLine(
                    id=r.id,
                    game=r.game,
                    players=seats[r.id],
                    status=r.status,
                    closed=r.close_message if r.closed is not None else None,
                    game_number=r.game_number,
                    seq=actions.get((r.id, r.game_number), (0, None))[0],
                    created=_utc(r.created) or r.created,
                    last_action=last_any.get(r.id),
                    finished=finished if r.status == "finished" else None,
                )
            )
        return out


def _when(value: datetime.datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value is not None else "-"


def _cmd_tables(args: argparse.Namespace) -> int:
    from .db import session_factory

    engine = _engine(_url(args))
    try:
        lines = table_lines(session_factory(engine), args.status)
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps([line.to_json() for line in lines], indent=2, ensure_ascii=False))
        return 0
    if not lines:
        print(_("no tables"))
        return 0
    header = [
        _("id"),
        _("game"),
        _("status"),
        _("game no."),
        _("seq"),
        _("created (UTC)"),
        _("last action (UTC)"),
        _("players"),
    ]
    rows = [
        [
            str(line.id),
            line.game,
            line.status + (" " + _("(closed)") if line.closed is not None else ""),
            str(line.game_number),
            str(line.seq),
            _when(line.created),
            _when(line.last_action),
            ", ".join(line.players),
        ]
        for line in lines
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=False)) + "  " + row[-1])
    return 0


# ----- close --------------------------------------------------------------------------------------


def _check_message(text: str) -> str:
    message = text.strip()
    if not message or len(message) > MAX_MESSAGE or not message.isprintable():
        raise CampfireError(
            _("--message is 1–{most} printable characters on one line").format(most=MAX_MESSAGE)
        )
    return message


def _cmd_close(args: argparse.Namespace) -> int:
    from sqlalchemy import update

    from .db import session_factory
    from .models import TableRow, utcnow

    message = _check_message(args.message)
    engine = _engine(_url(args))
    sessions = session_factory(engine)
    try:
        with sessions() as session:
            row = session.get(TableRow, args.table)
            if row is None:
                raise CampfireError(
                    _("there is no table {table} (see 'campfire admin tables')").format(
                        table=args.table
                    )
                )
            if row.closed is not None:
                raise CampfireError(
                    _("table {table} is closed already ({message})").format(
                        table=args.table, message=row.close_message
                    )
                )
        if not _server_running(engine):
            _close_offline(engine, sessions, args.table, message)
            print(_("closed table {table} (no server was running)").format(table=args.table))
            return 0
        with sessions.begin() as session:
            session.execute(
                update(TableRow)
                .where(TableRow.id == args.table)
                .values(close_message=message, close_requested=utcnow())
            )
        for _i in range(args.wait * 10):  # bounded: the server looks every second
            time.sleep(0.1)
            with sessions() as session:
                row = session.get(TableRow, args.table)
                if row is not None and row.closed is not None:
                    print(_("closed table {table}; its players were told").format(table=args.table))
                    return 0
        raise CampfireError(
            _(
                "the running server did not close table {table} within {seconds} s; the "
                "request stays and is carried out as soon as a server serves the table"
            ).format(table=args.table, seconds=args.wait)
        )
    finally:
        engine.dispose()


def _close_offline(
    engine: Engine, sessions: sessionmaker[Session], table_id: int, message: str
) -> None:
    """Close a table with no server running (the server lock held alone meanwhile)."""
    from .tables import TableManager

    with _no_server(engine, _("close the table again")):
        manager = TableManager(sessions, bot_workers=1)
        try:
            live = manager.load(table_id)
            if live is None:  # pragma: no cover - checked before
                raise CampfireError(_("there is no table {table}").format(table=table_id))
            close_table(live, manager.store, message)
        finally:
            manager.pool.shutdown(wait=False, cancel_futures=True)


# ----- purge --------------------------------------------------------------------------------------


def _export(
    sessions: sessionmaker[Session], table_id: int, folder: Path
) -> tuple[list[Path], str | None]:
    """Write every record of a table to ``folder``; the files, and why it failed (or ``None``).

    Each file is ``table-ID-game-N.json``, written whole (a temporary file renamed) and read
    back as ``campfire replay`` reads it. An existing file of other content is not replaced.
    """
    from sqlalchemy import select

    from campfire.core.records import replay_text

    from .models import RecordRow

    with sessions() as session:
        records = session.execute(
            select(RecordRow.game_number, RecordRow.record)
            .where(RecordRow.table_id == table_id)
            .order_by(RecordRow.game_number)
        ).all()
    written: list[Path] = []
    for number, text in records:
        path = folder / f"table-{table_id}-game-{number}.json"
        try:
            if path.exists():
                if path.read_text(encoding="utf-8") != text:
                    return written, _("{path} exists with other content").format(path=path)
            else:
                partial = path.with_name(path.name + ".partial")
                with partial.open("w", encoding="utf-8") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(partial, path)
            replay_text(path.read_text(encoding="utf-8"))
        except (OSError, CampfireError, ValueError) as exc:
            return written, f"{path}: {exc}"
        written.append(path)
    return written, None


def _delete(sessions: sessionmaker[Session], table_id: int, game_number: int) -> bool:
    """Delete a finished table and everything of it (``False``: it changed meanwhile)."""
    from sqlalchemy import delete, select

    from .models import ActionRow, LeaseRow, RecordRow, SeatRow, TableRow

    with sessions.begin() as session:
        row = session.execute(
            select(TableRow.status, TableRow.game_number)
            .where(TableRow.id == table_id)
            .with_for_update()
        ).one_or_none()
        if row is None or row[0] != "finished" or row[1] != game_number:
            return False  # a rematch started meanwhile, or it is gone
        session.execute(delete(LeaseRow).where(LeaseRow.table_id == table_id))
        session.execute(delete(ActionRow).where(ActionRow.table_id == table_id))
        session.execute(delete(RecordRow).where(RecordRow.table_id == table_id))
        session.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
        session.execute(delete(TableRow).where(TableRow.id == table_id))
    return True


def _progress(total: int) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn(_("purging")),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        disable=not console.is_terminal or total < 2,
        transient=True,
    )


def _cmd_purge(args: argparse.Namespace) -> int:
    from .db import session_factory

    before: datetime.datetime = args.finished_before
    folder = Path(args.export) if args.export else None
    if folder is not None and not args.dry_run:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CampfireError(
                _("cannot make the export folder {path}: {reason}").format(path=folder, reason=exc)
            ) from None
    engine = _engine(_url(args))
    sessions = session_factory(engine)
    try:
        lines = [
            line
            for line in table_lines(sessions, ["finished"])
            if line.finished is not None and line.finished < before
        ]
        when = before.isoformat(timespec="seconds")
        if args.dry_run:
            for line in lines:
                print(
                    _(
                        "would purge table {table} ({game}, games: {games}, finished {finished})"
                    ).format(
                        table=line.id,
                        game=line.game,
                        games=line.game_number,
                        finished=_iso(line.finished),
                    )
                )
            print(
                _("dry run: tables finished before {date} that would be purged: {count}").format(
                    count=len(lines), date=when
                )
            )
            return 0
        purged, exported, failed = 0, 0, []
        with _progress(len(lines)) as progress:
            task = progress.add_task("purge", total=len(lines))
            for line in lines:
                if folder is not None:
                    files, error = _export(sessions, line.id, folder)
                    exported += len(files)
                    if error is not None:
                        failed.append(
                            _("table {table}: export failed: {error}").format(
                                table=line.id, error=error
                            )
                        )
                        progress.advance(task)
                        continue
                if _delete(sessions, line.id, line.game_number):
                    purged += 1
                else:
                    failed.append(
                        _("table {table}: changed meanwhile (a new game?): kept").format(
                            table=line.id
                        )
                    )
                progress.advance(task)
    finally:
        engine.dispose()
    print(
        _("tables finished before {date} purged: {count}").format(count=purged, date=when)
        + (
            _("; records exported to {path}: {records}").format(records=exported, path=folder)
            if folder is not None
            else ""
        )
    )
    for line_text in failed:
        print(line_text, file=sys.stderr)
    if failed:
        print(_("tables kept: {count}").format(count=len(failed)), file=sys.stderr)
        return 1
    return 0
