"""The ``campfire admin`` command line: its parser, each action wired to its module."""

from __future__ import annotations

import argparse
import datetime
from typing import Any

from campfire.core.validate import int_arg
from campfire.i18n import _

from .backup import cmd_backup
from .close import MAX_MESSAGE, cmd_close
from .listing import STATUSES, cmd_tables
from .moderation import cmd_close_report, cmd_reports, cmd_suspend, cmd_unsuspend
from .purge import cmd_purge
from .restore import cmd_restore


def add_admin_command(sub: Any) -> None:
    """Add ``admin`` and its actions to the ``campfire`` command's subparsers."""
    admin = sub.add_parser(
        "admin",
        help=_(
            "operate a game server's database: backup, restore, tables, close, purge, "
            "reports, suspend"
        ),
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
    p.set_defaults(func=cmd_backup)

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
    p.set_defaults(func=cmd_restore)

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
    p.set_defaults(func=cmd_tables)

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
    p.set_defaults(func=cmd_close)

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
    p.set_defaults(func=cmd_purge)

    p = actions.add_parser(
        "reports",
        help=_("list the players' reports"),
        description=_(
            "List the reports players sent of other players: id, when, category, who was "
            "reported (an account, or a table's seat), by whom, the reason, open or closed."
        ),
    )
    p.add_argument(
        "--status",
        choices=("open", "closed", "all"),
        default="open",
        help=_("which reports (default: open)"),
    )
    p.add_argument("--json", action="store_true", help=_("print the list as JSON"))
    _database_option(p)
    p.set_defaults(func=cmd_reports)

    p = actions.add_parser(
        "close-report",
        help=_("close a report once it is dealt with"),
        description=_("Close the report ID, with an optional note of what was done."),
    )
    p.add_argument("report", metavar="ID", type=int_arg("ID", 1, 2**31 - 1))
    p.add_argument("--note", metavar="TEXT", help=_("what was done (at most 500 characters)"))
    _database_option(p)
    p.set_defaults(func=cmd_close_report)

    p = actions.add_parser(
        "suspend",
        help=_("suspend an account: it cannot sign in, its sessions end"),
        description=_(
            "Suspend the account USER: it cannot sign in, and every browser signed in as it is "
            "signed out at once (also while a server runs). Its games and seats stay. With "
            "--until the suspension ends by itself then."
        ),
    )
    p.add_argument("user", metavar="USER", help=_("the user name"))
    p.add_argument(
        "--reason",
        required=True,
        metavar="TEXT",
        help=_("why (shown to the user when signing in is refused; at most 500 characters)"),
    )
    p.add_argument(
        "--until",
        type=_date_arg,
        metavar="DATE",
        help=_("YYYY-MM-DD (midnight UTC) or an ISO 8601 time; default: until unsuspended"),
    )
    _database_option(p)
    p.set_defaults(func=cmd_suspend)

    p = actions.add_parser(
        "unsuspend",
        help=_("lift an account's suspension"),
        description=_("Lift the suspension of the account USER: it may sign in again."),
    )
    p.add_argument("user", metavar="USER", help=_("the user name"))
    _database_option(p)
    p.set_defaults(func=cmd_unsuspend)


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
