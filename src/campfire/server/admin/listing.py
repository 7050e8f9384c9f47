"""``campfire admin tables``: the tables, as a text table or JSON (:func:`table_lines`)."""

from __future__ import annotations

import argparse
import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from campfire.i18n import _

from .database import database_url, open_engine

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker


#: The statuses ``campfire admin tables --status`` takes.
STATUSES = ("open", "running", "finished")


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
            "created": iso_time(self.created),
            "last_action": iso_time(self.last_action),
            "finished": iso_time(self.finished),
        }


def iso_time(when: datetime.datetime | None) -> str | None:
    """``when`` in ISO 8601 to the second (a naive time is UTC); ``None`` stays ``None``."""
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

    from ..models import ActionRow, RecordRow, SeatRow, TableRow

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


def cmd_tables(args: argparse.Namespace) -> int:
    """``campfire admin tables``: print the tables, as a text table or ``--json``."""
    from ..db import session_factory

    engine = open_engine(database_url(args))
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
