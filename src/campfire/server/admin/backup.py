"""``campfire admin backup PATH``: an online copy of an SQLite database, or ``pg_dump``.

An SQLite database is copied with SQLite's backup API (one read transaction: consistent while
a server runs and writes, WAL included) into a single file; a PostgreSQL database is dumped
with ``pg_dump`` (the command is printed, or run with ``--pg-dump``). The PostgreSQL command
helpers and the SQLite copy serve ``restore`` too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from campfire.core import CampfireError
from campfire.i18n import _

from .database import database_url, shown_url, sqlite_path


def postgres_command(url: str, tool: str, path: Path) -> tuple[list[str], dict[str, str]]:
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


def shell_line(command: Sequence[str]) -> str:
    """``command`` as one shell line (each part quoted as needed), for a message to print."""
    import shlex

    return " ".join(shlex.quote(part) for part in command)


def run_postgres(command: list[str], env: dict[str, str]) -> None:
    """Run a ``pg_dump``/``pg_restore`` ``command`` with ``env`` added; a failure is an error."""
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


def copy_sqlite(source: Path, target: Path) -> None:
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


def counts(path: Path) -> tuple[int, int]:
    """The tables and actions an SQLite Campfire database holds."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = connection.execute("SELECT count(*) FROM game_tables").fetchone()[0]
        actions = connection.execute("SELECT count(*) FROM actions").fetchone()[0]
    finally:
        connection.close()
    return int(tables), int(actions)


def cmd_backup(args: argparse.Namespace) -> int:
    """``campfire admin backup PATH``: copy (SQLite) or dump (PostgreSQL) the database."""
    url = database_url(args)
    target = Path(args.path)
    if target.exists() and not args.force:
        raise CampfireError(
            _("{path} exists: choose another PATH, or --force to replace it").format(path=target)
        )
    if target.is_dir():
        raise CampfireError(
            _("{path} is a directory: PATH names the backup file").format(path=target)
        )
    source = sqlite_path(url)
    if source is None:
        command, env = postgres_command(url, "pg_dump", target)
        if not args.pg_dump:
            raise CampfireError(
                _(
                    "the database is PostgreSQL: back it up with pg_dump (add --pg-dump to run "
                    "it from here; the password, if any, from ~/.pgpass or PGPASSWORD):\n"
                    "  {command}"
                ).format(command=shell_line(command))
            )
        run_postgres(command, env)
        print(
            _("backed up {url} to {path} (pg_dump, custom format)").format(
                url=shown_url(url), path=target
            )
        )
        return 0
    if not source.is_file():
        raise CampfireError(_("there is no database at {path}").format(path=source))
    if target.resolve() == source.resolve():
        raise CampfireError(_("PATH is the database itself: choose another file"))
    target.parent.mkdir(parents=True, exist_ok=True)
    copy_sqlite(source, target)
    tables, actions = counts(target)
    print(
        _(
            "backed up {source} to {path} (tables: {tables}, actions: {actions}, bytes: {size})"
        ).format(
            source=source, path=target, tables=tables, actions=actions, size=target.stat().st_size
        )
    )
    return 0
