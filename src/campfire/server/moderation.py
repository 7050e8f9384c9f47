"""Moderation basics: reports for the operator, blocks between users, suspended accounts.

``docs/accounts.md``, "Moderation", describes it for people; the routes are in
:mod:`.account_routes`, the operator's commands in :mod:`.admin.moderation`. Every call is one
transaction and synchronous (the routes run it in a worker thread).

- **Reports**: a signed-in user reports another account (by user name) or a seat of a table
  (its nickname, and the seat's account where it has one) with a :data:`CATEGORIES` category
  and a reason of at most :data:`REASON_MAX` characters. At most :data:`REPORTS_PER_HOUR` a
  user an hour (counted in the database: every server process agrees). The operator lists and
  closes them (``campfire admin reports``, ``close-report``).
- **Blocks**: a user blocks another account (at most :data:`MAX_BLOCKS`). From then on they
  share no table: joining a table where one sits and the other would is refused (409
  ``blocked``), and quick match never seats them together. The blocker gets no chat line
  written from the blocked account's seats (:meth:`Moderation.hidden_pairs`).
- **Suspensions** (the operator's ``campfire admin suspend``): the account cannot sign in,
  its sessions end; with an end date it ends by itself then.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from campfire.core import ErrorText

from .models import (
    AccountSeatRow,
    BlockRow,
    ReportRow,
    SeatRow,
    UserRow,
    UserSessionRow,
    utcnow,
)
from .seating import LobbyError
from .store import Store

__all__ = [
    "CATEGORIES",
    "MAX_BLOCKS",
    "NOTE_MAX",
    "REASON_MAX",
    "REPORTS_PER_HOUR",
    "Moderation",
    "Report",
    "active_suspension",
]

#: What a report may be about.
CATEGORIES = ("cheating", "abuse", "spam", "name", "other")
#: The longest reason of a report (characters).
REASON_MAX = 1000
#: The longest note or suspension reason of the operator (characters).
NOTE_MAX = 500
#: Reports one user may send an hour.
REPORTS_PER_HOUR = 10
#: Accounts one user may block.
MAX_BLOCKS = 500


def _aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


def _iso(moment: datetime.datetime | None) -> str | None:
    found = _aware(moment)
    return found.isoformat(timespec="seconds") if found is not None else None


def active_suspension(
    row: UserRow, now: datetime.datetime
) -> tuple[str, datetime.datetime | None] | None:
    """The reason and end (``None``: none set) of ``row``'s suspension now (``None``: none)."""
    if row.suspended is None:
        return None
    until = _aware(row.suspended_until)
    if until is not None and until <= now:
        return None
    return row.suspended_reason or "", until


@dataclass(frozen=True)
class Report:
    """A report as the operator reads it."""

    id: int
    reporter: str | None
    reported: str
    account: bool
    table: int | None
    seat: int | None
    category: str
    reason: str
    created: str | None
    closed: str | None
    note: str | None

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (``campfire admin reports --json``)."""
        return dict(self.__dict__)


def _unknown_user(name: str) -> LobbyError:
    return LobbyError(
        404, "unknown_user", ErrorText("there is no user {name}", name=repr(name[:40]))
    )


class Moderation:
    """Reports, blocks and suspensions (each call one transaction; synchronous)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Callable[[], datetime.datetime] = utcnow,
    ) -> None:
        self.sessions = sessions
        self.clock = clock

    # ----- looking people up --------------------------------------------------------------

    @staticmethod
    def _user(session: Session, name: Any) -> UserRow:
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 64:
            raise LobbyError(400, "bad_request", ErrorText("user_name is a user name"))
        row = session.scalar(select(UserRow).where(UserRow.name_key == name.strip().lower()))
        if row is None:
            raise _unknown_user(name.strip())
        return row

    @staticmethod
    def _seat(session: Session, table_id: int, seat: int) -> tuple[SeatRow, int | None]:
        row = session.get(SeatRow, (table_id, seat))
        if row is None or row.kind != "human":
            raise LobbyError(
                404,
                "unknown_user",
                ErrorText("seat {seat} of table {table} is no person's", seat=seat, table=table_id),
            )
        owner = session.scalar(
            select(AccountSeatRow.user_id).where(
                AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat
            )
        )
        return row, owner

    # ----- reports ------------------------------------------------------------------------

    def report(
        self,
        reporter_id: int,
        category: str,
        reason: str,
        *,
        user_name: str | None = None,
        table: tuple[int, int] | None = None,
    ) -> int:
        """Store a report of ``user_name``'s account or of seat ``table`` = (table, seat).

        Answers the report's id. 429 ``rate_limited`` past :data:`REPORTS_PER_HOUR`; 400 for
        a report of oneself; 404 ``unknown_user`` for a name or seat that is nobody.
        """
        now = self.clock()
        with self.sessions.begin() as session:
            recent = session.scalar(
                select(func.count())
                .select_from(ReportRow)
                .where(
                    ReportRow.reporter_id == reporter_id,
                    ReportRow.created > now - datetime.timedelta(hours=1),
                )
            )
            if int(recent or 0) >= REPORTS_PER_HOUR:
                raise LobbyError(
                    429,
                    "rate_limited",
                    ErrorText(
                        "at most {limit} reports an hour; the operator reads every one",
                        limit=REPORTS_PER_HOUR,
                    ),
                )
            table_id: int | None = None
            seat: int | None = None
            if table is not None:
                table_id, seat = table
                seat_row, reported_id = self._seat(session, table_id, seat)
                name = seat_row.nickname or f"#{seat + 1}"
            else:
                target = self._user(session, user_name)
                reported_id, name = target.id, target.name
            if reported_id == reporter_id:
                raise LobbyError(400, "bad_request", ErrorText("you cannot report yourself"))
            row = ReportRow(
                reporter_id=reporter_id,
                reported_id=reported_id,
                reported_name=name[:64],
                table_id=table_id,
                seat=seat,
                category=category,
                reason=reason,
                created=now,
            )
            session.add(row)
            session.flush()
            return row.id

    def reports(self, status: str = "open", limit: int = 1000) -> list[Report]:
        """The reports, oldest first: ``open``, ``closed`` or ``all``."""
        with self.sessions() as session:
            query = select(ReportRow).order_by(ReportRow.id).limit(limit)
            if status == "open":
                query = query.where(ReportRow.closed.is_(None))
            elif status == "closed":
                query = query.where(ReportRow.closed.is_not(None))
            out = []
            for row in session.scalars(query):
                reporter = session.get(UserRow, row.reporter_id) if row.reporter_id else None
                reported = session.get(UserRow, row.reported_id) if row.reported_id else None
                out.append(
                    Report(
                        id=row.id,
                        reporter=reporter.name if reporter is not None else None,
                        reported=reported.name if reported is not None else row.reported_name,
                        account=reported is not None,
                        table=row.table_id,
                        seat=row.seat,
                        category=row.category,
                        reason=row.reason,
                        created=_iso(row.created),
                        closed=_iso(row.closed),
                        note=row.note,
                    )
                )
            return out

    def close_report(self, report_id: int, note: str | None = None) -> bool:
        """Close a report with the operator's note; ``False``: no such report."""
        with self.sessions.begin() as session:
            row = session.get(ReportRow, report_id)
            if row is None:
                return False
            row.closed = self.clock()
            row.note = note
            return True

    # ----- blocks -------------------------------------------------------------------------

    def block(
        self,
        user_id: int,
        *,
        user_name: str | None = None,
        table: tuple[int, int] | None = None,
    ) -> str:
        """Block an account (by name, or the account of a table's seat); its name.

        Blocking one already blocked changes nothing. 400: oneself, past :data:`MAX_BLOCKS`,
        or a seat that is a guest's (only accounts can be blocked).
        """
        try:
            return self._block(user_id, user_name, table)
        except IntegrityError:  # the same block twice at once: the other one is stored
            return self._block(user_id, user_name, table)

    def _block(self, user_id: int, user_name: str | None, table: tuple[int, int] | None) -> str:
        with self.sessions.begin() as session:
            if table is not None:
                _, owner = self._seat(session, *table)
                if owner is None:
                    raise LobbyError(
                        400,
                        "bad_request",
                        ErrorText(
                            "this seat is a guest's: only accounts can be blocked (you may "
                            "mute them in the chat, and report them)"
                        ),
                    )
                target = session.get(UserRow, owner)
                assert target is not None
            else:
                target = self._user(session, user_name)
            if target.id == user_id:
                raise LobbyError(400, "bad_request", ErrorText("you cannot block yourself"))
            known = session.scalar(
                select(BlockRow.id).where(
                    BlockRow.user_id == user_id, BlockRow.blocked_id == target.id
                )
            )
            if known is not None:
                return target.name
            count = session.scalar(
                select(func.count()).select_from(BlockRow).where(BlockRow.user_id == user_id)
            )
            if int(count or 0) >= MAX_BLOCKS:
                raise LobbyError(
                    400,
                    "bad_request",
                    ErrorText("you may block at most {limit} accounts", limit=MAX_BLOCKS),
                )
            session.add(BlockRow(user_id=user_id, blocked_id=target.id, created=self.clock()))
            name = target.name
        return name

    def unblock(self, user_id: int, user_name: str) -> bool:
        """Lift a block; ``False``: the account was not blocked."""
        with self.sessions.begin() as session:
            target = self._user(session, user_name)
            gone = session.execute(
                delete(BlockRow).where(
                    BlockRow.user_id == user_id, BlockRow.blocked_id == target.id
                )
            )
            return bool(getattr(gone, "rowcount", 0))

    def blocks(self, user_id: int) -> list[dict[str, Any]]:
        """The accounts ``user_id`` blocks: ``[{"user_name", "since"}]``, by name."""
        with self.sessions() as session:
            rows = session.execute(
                select(UserRow.name, BlockRow.created)
                .join(BlockRow, BlockRow.blocked_id == UserRow.id)
                .where(BlockRow.user_id == user_id)
                .order_by(UserRow.name_key)
            )
            return [{"user_name": name, "since": _iso(created)} for name, created in rows]

    def conflicts(self, user_id: int, others: Iterable[int]) -> list[int]:
        """The users of ``others`` that ``user_id`` blocks or is blocked by."""
        ids = {o for o in others if o != user_id}
        if not ids:
            return []
        with self.sessions() as session:
            rows = session.execute(
                select(BlockRow.user_id, BlockRow.blocked_id).where(
                    or_(
                        (BlockRow.user_id == user_id) & BlockRow.blocked_id.in_(ids),
                        (BlockRow.blocked_id == user_id) & BlockRow.user_id.in_(ids),
                    )
                )
            )
            return sorted({b if a == user_id else a for a, b in rows})

    def blocked_pairs(self, user_ids: Iterable[int]) -> set[frozenset[int]]:
        """Every pair of ``user_ids`` where one blocks the other (quick match)."""
        ids = set(user_ids)
        if len(ids) < 2:
            return set()
        with self.sessions() as session:
            rows = session.execute(
                select(BlockRow.user_id, BlockRow.blocked_id).where(
                    BlockRow.user_id.in_(ids), BlockRow.blocked_id.in_(ids)
                )
            )
            return {frozenset((a, b)) for a, b in rows}

    def seat_accounts(self, table_id: int) -> dict[int, int]:
        """The seats of a table that are an account's: ``{seat: user id}`` (the store's read)."""
        return Store(self.sessions).owners(table_id)

    def check_join(self, user_id: int, table_id: int) -> None:
        """409 ``blocked`` if an account seated at the table blocks ``user_id`` or is blocked."""
        seated = self.seat_accounts(table_id)
        if self.conflicts(user_id, seated.values()):
            raise LobbyError(
                409,
                "blocked",
                ErrorText(
                    "you cannot join table {table}: a player there has blocked you, or you "
                    "have blocked them",
                    table=table_id,
                ),
            )

    def hidden_pairs(self, table_id: int) -> set[tuple[int, int]]:
        """``(reader seat, writer seat)`` pairs of the table whose chat is not delivered.

        The reader's account blocks the writer's: the reader gets no line from that seat.
        """
        seated = self.seat_accounts(table_id)
        if len(seated) < 2:
            return set()
        by_user: dict[int, list[int]] = {}
        for seat, user in seated.items():
            by_user.setdefault(user, []).append(seat)
        with self.sessions() as session:
            rows = session.execute(
                select(BlockRow.user_id, BlockRow.blocked_id).where(
                    BlockRow.user_id.in_(by_user), BlockRow.blocked_id.in_(by_user)
                )
            )
            return {
                (reader, writer)
                for blocker, blocked in rows
                for reader in by_user[blocker]
                for writer in by_user[blocked]
            }

    # ----- suspensions --------------------------------------------------------------------

    def suspend(self, user_name: str, reason: str, until: datetime.datetime | None) -> str:
        """Suspend an account: it cannot sign in, every session of it ends. Its name."""
        with self.sessions.begin() as session:
            row = self._user(session, user_name)
            row.suspended = self.clock()
            row.suspended_until = until
            row.suspended_reason = reason
            session.execute(delete(UserSessionRow).where(UserSessionRow.user_id == row.id))
            return row.name

    def unsuspend(self, user_name: str) -> bool:
        """Lift a suspension; ``False``: the account was not suspended."""
        with self.sessions.begin() as session:
            row = self._user(session, user_name)
            was = row.suspended is not None
            row.suspended = row.suspended_until = row.suspended_reason = None
            return was

    @staticmethod
    def forget_user(session: Session, user_id: int) -> None:
        """A deleted user's blocks go; reports they wrote or were about stay, unnamed."""
        session.execute(
            delete(BlockRow).where(or_(BlockRow.user_id == user_id, BlockRow.blocked_id == user_id))
        )
        for row in session.scalars(
            select(ReportRow).where(
                or_(ReportRow.reporter_id == user_id, ReportRow.reported_id == user_id)
            )
        ):
            if row.reporter_id == user_id:
                row.reporter_id = None
            if row.reported_id == user_id:
                row.reported_id = None
