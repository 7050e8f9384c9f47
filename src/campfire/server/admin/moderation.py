"""``campfire admin reports|close-report|suspend|unsuspend``: the operator's moderation.

The reports players sent (``POST /api/account/report``), closing one with a note, and
suspending an account (it cannot sign in, its sessions end at once, also while a server runs:
each request reads its session from the database) or lifting a suspension
(``docs/accounts.md``, "Moderation"; ``docs/deploy.md``, "Moderation").
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from campfire.core import CampfireError
from campfire.i18n import _

from .database import database_url, open_engine

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from ..moderation import Moderation

__all__ = ["cmd_close_report", "cmd_reports", "cmd_suspend", "cmd_unsuspend"]


def _moderation(args: argparse.Namespace) -> tuple[Engine, Moderation]:
    from ..db import session_factory
    from ..moderation import Moderation

    engine = open_engine(database_url(args))
    return engine, Moderation(session_factory(engine))


def _text(value: str, option: str, most: int) -> str:
    text = value.strip()
    if not text or len(text) > most or not text.isprintable():
        raise CampfireError(
            _("{option} is 1–{most} printable characters on one line").format(
                option=option, most=most
            )
        )
    return text


def cmd_reports(args: argparse.Namespace) -> int:
    """``campfire admin reports``: the reports, open ones by default, as text or ``--json``."""
    engine, moderation = _moderation(args)
    try:
        found = moderation.reports(args.status)
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps([r.to_json() for r in found], indent=2, ensure_ascii=False))
        return 0
    if not found:
        print(_("no reports"))
        return 0
    for r in found:
        where = (
            _("table {table}, seat {seat}").format(table=r.table, seat=r.seat)
            if r.table is not None
            else _("account")
        )
        state = _("closed {when}").format(when=r.closed) if r.closed else _("open")
        print(
            f"#{r.id}  {r.created}  {r.category}  {r.reported} ({where})  "
            + _("by {reporter}").format(reporter=r.reporter or "-")
            + f"  [{state}]"
        )
        print("    " + r.reason.replace("\n", "\n    "))
        if r.note:
            print("    " + _("note: {note}").format(note=r.note))
    return 0


def cmd_close_report(args: argparse.Namespace) -> int:
    """``campfire admin close-report ID``: close a report with an optional note."""
    from ..moderation import NOTE_MAX

    note = _text(args.note, "--note", NOTE_MAX) if args.note is not None else None
    engine, moderation = _moderation(args)
    try:
        if not moderation.close_report(args.report, note):
            raise CampfireError(
                _("there is no report {report} (see 'campfire admin reports')").format(
                    report=args.report
                )
            )
    finally:
        engine.dispose()
    print(_("closed report {report}").format(report=args.report))
    return 0


def cmd_suspend(args: argparse.Namespace) -> int:
    """``campfire admin suspend USER --reason TEXT [--until DATE]``."""
    from ..moderation import NOTE_MAX
    from ..seating import LobbyError

    reason = _text(args.reason, "--reason", NOTE_MAX)
    engine, moderation = _moderation(args)
    try:
        name = moderation.suspend(args.user, reason, args.until)
    except LobbyError as exc:
        raise CampfireError(_("there is no user {name}").format(name=args.user)) from exc
    finally:
        engine.dispose()
    if args.until is not None:
        print(
            _("suspended {name} until {until}; their sessions ended").format(
                name=name, until=args.until.isoformat(timespec="minutes")
            )
        )
    else:
        print(_("suspended {name}; their sessions ended").format(name=name))
    return 0


def cmd_unsuspend(args: argparse.Namespace) -> int:
    """``campfire admin unsuspend USER``: the account may sign in again."""
    from ..seating import LobbyError

    engine, moderation = _moderation(args)
    try:
        was = moderation.unsuspend(args.user)
    except LobbyError as exc:
        raise CampfireError(_("there is no user {name}").format(name=args.user)) from exc
    finally:
        engine.dispose()
    if not was:
        print(_("{name} was not suspended").format(name=args.user))
    else:
        print(_("{name} may sign in again").format(name=args.user))
    return 0
