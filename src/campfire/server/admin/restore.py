"""``campfire admin restore PATH``: a backup put in the database's place.

The replaced database is kept beside it (``.before-restore-…``); refused while a server uses
the database. The next ``campfire serve`` rebuilds every unfinished table from its log.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sqlite3
import sys
from pathlib import Path

from campfire.core import CampfireError
from campfire.i18n import _

from .backup import copy_sqlite, counts, postgres_command, run_postgres, shell_line
from .database import database_url, no_server, open_engine, shown_url, sqlite_path


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


def cmd_restore(args: argparse.Namespace) -> int:
    """``campfire admin restore PATH``: put a backup in the database's place."""
    url = database_url(args)
    source = Path(args.path)
    target = sqlite_path(url)
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
    from ..db import make_engine

    target.parent.mkdir(parents=True, exist_ok=True)
    lock_engine = make_engine(url)  # (connects to nothing: the lock is a file beside it)
    try:
        with no_server(lock_engine, _("restore again")):
            if existing:
                copy_sqlite(target, kept)  # the WAL's committed content included
            restoring = target.with_name(target.name + ".restoring")
            copy_sqlite(source, restoring)
            for suffix in ("-wal", "-shm"):
                target.with_name(target.name + suffix).unlink(missing_ok=True)
            os.replace(restoring, target)
    finally:
        lock_engine.dispose()
    tables, actions = counts(target)
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
    command, env = postgres_command(url, "pg_restore", source)
    if not args.pg_restore:
        raise CampfireError(
            _(
                "the database is PostgreSQL: stop every server process, then restore with "
                "pg_restore (add --pg-restore to run it from here; it replaces the tables the "
                "backup holds):\n  {command}"
            ).format(command=shell_line(command))
        )
    if not source.is_file():
        raise CampfireError(_("there is no backup file {path}").format(path=source))
    if not args.force and not _confirm(
        _("Replace the Campfire tables of {url} with {source}? [y/N]").format(
            url=shown_url(url), source=source
        )
    ):
        raise CampfireError(_("restoring replaces the database's tables: add --force"))
    engine = open_engine(url, migrate_schema=False)
    try:
        with no_server(engine, _("restore again")):
            run_postgres(command, env)
    finally:
        engine.dispose()
    print(_("restored {source} into {url}").format(source=source, url=shown_url(url)))
    print(_("start the server: it rebuilds every unfinished table from its log"))
    return 0
