"""``campfire admin purge --finished-before DATE``: finished tables deleted, records exported.

Each game's record is written first (as ``campfire replay`` reads it); a table whose export
failed is kept.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campfire.core import CampfireError
from campfire.i18n import _

from .database import database_url, open_engine
from .listing import iso_time, table_lines

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker


def _export(
    sessions: sessionmaker[Session], table_id: int, folder: Path
) -> tuple[list[Path], str | None]:
    """Write every record of a table to ``folder``; the files, and why it failed (or ``None``).

    Each file is ``table-ID-game-N.json``, written whole (a temporary file renamed) and read
    back as ``campfire replay`` reads it. An existing file of other content is not replaced.
    """
    from sqlalchemy import select

    from campfire.core.records import replay_text

    from ..models import RecordRow

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

    from ..models import AccountSeatRow, ActionRow, ChatRow, LeaseRow, RecordRow, SeatRow, TableRow

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
        session.execute(delete(ChatRow).where(ChatRow.table_id == table_id))
        # a seat an account claimed: the account stays, without the game that is gone
        session.execute(delete(AccountSeatRow).where(AccountSeatRow.table_id == table_id))
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


def cmd_purge(args: argparse.Namespace) -> int:
    """``campfire admin purge``: delete the tables finished before a date, records exported."""
    from ..db import session_factory

    before: datetime.datetime = args.finished_before
    folder = Path(args.export) if args.export else None
    if folder is not None and not args.dry_run:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CampfireError(
                _("cannot make the export folder {path}: {reason}").format(path=folder, reason=exc)
            ) from None
    engine = open_engine(database_url(args))
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
                        finished=iso_time(line.finished),
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
