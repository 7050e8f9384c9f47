"""The server's storage of tables, seats, the action log and records (SQLAlchemy)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, sessionmaker

from .models import AccountSeatRow, ActionRow, ChatRow, RecordRow, SeatRow, TableRow, utcnow
from .seating import SeatInfo
from .writer import Fence, store_record, store_turn

__all__ = ["MAX_TURNS", "ChatLine", "LogEntry", "Store", "Turn"]

#: The most tables a "your turn" list holds (the earliest deadlines first).
MAX_TURNS = 100


class Turn(NamedTuple):
    """A turn-based table waiting for one of a player's seats (the "your turn" list)."""

    table: int
    seat: int
    game: str
    #: when the seat runs out of time (unix seconds)
    deadline: float

    def to_json(self) -> dict[str, Any]:
        """The entry as ``GET /api/turns`` lists it."""
        when = datetime.datetime.fromtimestamp(self.deadline, datetime.UTC)
        return {
            "table": self.table,
            "seat": self.seat,
            "game": self.game,
            "deadline": when.isoformat(timespec="seconds"),
        }


def waiting(rows: Sequence[tuple[int, int, str, Any]], limit: int = MAX_TURNS) -> list[Turn]:
    """The seats among ``rows`` (table, seat, game, the table's ``turn``) that are to act.

    Earliest deadline first, at most ``limit``.
    """
    found: dict[tuple[int, int], Turn] = {}
    for table, seat, game, turn in rows:
        for entry in turn or []:
            if int(entry[0]) == seat:
                found[table, seat] = Turn(table, seat, game, float(entry[1]))
    return sorted(found.values(), key=lambda t: (t.deadline, t.table, t.seat))[:limit]


class LogEntry(NamedTuple):
    """One row of the action log as the server reads it back."""

    seat: int
    notation: str
    cause: str | None = None
    clocks: list[float] | None = None


class ChatLine(NamedTuple):
    """One line of a table's chat as it is stored and sent (``docs/protocol.md``, "Chat")."""

    id: int
    #: ``players`` or ``spectators``
    channel: str
    #: the writer's seat (``None``: a spectator)
    seat: int | None
    #: the writer's nickname (``None``: none; the client names the seat)
    name: str | None
    text: str
    sent: datetime.datetime

    def to_json(self) -> dict[str, Any]:
        """The line as a ``chat`` frame carries it."""
        return {
            "id": self.id,
            "channel": self.channel,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "sent": self.sent.isoformat(timespec="seconds"),
        }


class Store:
    """The server's reads and writes (synchronous; each call is one transaction)."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        #: several processes: refuses the writes for a table whose lease was lost (``LeaseLost``)
        self.fence: Fence | None = None

    def _fenced(self, session: Session, table_id: int) -> None:
        if self.fence is not None:
            self.fence(session, (table_id,))

    def create(
        self,
        game: str,
        options: Mapping[str, Any],
        players: int,
        seats: Sequence[SeatInfo],
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """Store a new open table and its seats; return its id."""
        with self.sessions.begin() as session:
            row = TableRow(
                game=game,
                options=dict(options),
                players=players,
                status="open",
                created=utcnow(),
                game_number=0,
                seed=None,
                settings=dict(settings) if settings else None,
            )
            session.add(row)
            session.flush()
            for s in seats:
                session.add(_seat_row(row.id, s))
            return row.id

    def save_settings(self, table_id: int, settings: Mapping[str, Any]) -> None:
        """Store a table's settings anew."""
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            session.get_one(TableRow, table_id).settings = dict(settings)

    def save_seat(self, table_id: int, seat: SeatInfo) -> None:
        """Store the new state of one seat."""
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            session.merge(_seat_row(table_id, seat))

    def start(self, table_id: int, game_number: int, seed: int) -> None:
        """Mark a table running its game ``game_number`` with ``seed``."""
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            row = session.get_one(TableRow, table_id)
            row.status, row.game_number, row.seed = "running", game_number, seed

    def finish(self, table_id: int, game_number: int, record: str) -> None:
        """End a game without an action (a loss on time): store its record, mark it finished."""
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            store_record(session, table_id, game_number, record)

    def save_turn(self, table_id: int, turn: list[list[float]]) -> None:
        """Store a turn-based table's running clocks' deadlines (``[]``: none runs)."""
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            store_turn(session, table_id, turn)

    def turns_due(self, now: datetime.datetime, limit: int = 1000) -> list[int]:
        """The running turn-based tables whose earliest deadline is ``now`` or before."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(TableRow.id)
                    .where(TableRow.status == "running", TableRow.turn_deadline <= now)
                    .order_by(TableRow.turn_deadline)
                    .limit(limit)
                )
            )

    def turns_waiting(self, now: datetime.datetime) -> set[int]:
        """The running turn-based tables waiting for a person whose deadline is after ``now``."""
        with self.sessions() as session:
            return set(
                session.scalars(
                    select(TableRow.id).where(
                        TableRow.status == "running", TableRow.turn_deadline > now
                    )
                )
            )

    def your_turns(
        self, user_id: int | None, seats: Sequence[tuple[int, str]], limit: int = MAX_TURNS
    ) -> list[Turn]:
        """The turn-based tables waiting for a seat of the user or of ``seats``.

        ``seats`` are (table, the hash of a seat token at that table) pairs.
        """
        rows: list[tuple[int, int, str, Any]] = []
        with self.sessions() as session:
            waits = (TableRow.status == "running", TableRow.turn_deadline.is_not(None))
            if user_id is not None:
                rows += [
                    (t, s, g, turn)
                    for t, s, g, turn in session.execute(
                        select(
                            AccountSeatRow.table_id,
                            AccountSeatRow.seat,
                            TableRow.game,
                            TableRow.turn,
                        )
                        .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                        .where(AccountSeatRow.user_id == user_id, *waits)
                    )
                ]
            if seats:
                wanted = set(seats)
                found = session.execute(
                    select(
                        SeatRow.table_id,
                        SeatRow.seat,
                        TableRow.game,
                        TableRow.turn,
                        SeatRow.token_hash,
                    )
                    .join(TableRow, TableRow.id == SeatRow.table_id)
                    .where(SeatRow.token_hash.in_(sorted({h for _, h in seats})), *waits)
                )
                rows += [(t, s, g, turn) for t, s, g, turn, h in found if (t, h) in wanted]
        return waiting(rows, limit)

    def table(self, table_id: int) -> tuple[TableRow, list[SeatInfo]] | None:
        """A table and its seats (``None`` if there is no such table)."""
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ).all()
            return row, [SeatInfo(s.seat, s.kind, s.level, s.nickname, s.token_hash) for s in seats]

    def table_ids(self, statuses: Sequence[str]) -> list[int]:
        """The ids of the tables whose status is one of ``statuses``, oldest first."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(TableRow.id).where(TableRow.status.in_(statuses)).order_by(TableRow.id)
                )
            )

    def public(self, table_id: int) -> dict[str, Any] | None:
        """A table as the lobby lists it, from the database (``LiveTable.public``'s fields)."""
        found = self.table(table_id)
        if found is None:
            return None
        row, seats = found
        with self.sessions() as session:
            seq = session.scalar(
                select(func.count())
                .select_from(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.game_number == row.game_number)
            )
        return {
            "id": row.id,
            "game": row.game,
            "options": dict(row.options),
            "players": row.players,
            "status": row.status,
            "game_number": row.game_number,
            "seq": int(seq or 0),
            "seats": [s.public() for s in seats],
            "realtime": bool((row.settings or {}).get("realtime", False)),
            "rated": bool((row.settings or {}).get("rated", False)),
        }

    def own_seat(self, table_id: int, seat: int, user_id: int | None) -> bool:
        """Record ``seat`` of a table as the user's (``None``: as nobody's any more).

        One user per seat, and one seat per user at a table: answers whether the seat is the
        user's now (``False``: the user has another seat there already).
        """
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            session.execute(
                delete(AccountSeatRow).where(
                    AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat
                )
            )
            if user_id is None:
                return False
            other = session.scalar(
                select(AccountSeatRow.id).where(
                    AccountSeatRow.table_id == table_id, AccountSeatRow.user_id == user_id
                )
            )
            if other is not None:
                return False
            session.add(
                AccountSeatRow(user_id=user_id, table_id=table_id, seat=seat, claimed=utcnow())
            )
            return True

    def owners(self, table_id: int) -> dict[int, int]:
        """The seats of a table that are users', and whose: ``{seat: user id}``."""
        with self.sessions() as session:
            rows = session.execute(
                select(AccountSeatRow.seat, AccountSeatRow.user_id).where(
                    AccountSeatRow.table_id == table_id
                )
            ).all()
            return {int(seat): int(user) for seat, user in rows}

    def actions(self, table_id: int, game_number: int) -> list[LogEntry]:
        """The logged actions of one game, in order."""
        with self.sessions() as session:
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.game_number == game_number)
                .order_by(ActionRow.seq)
            ).all()
            return [LogEntry(r.seat, r.notation, r.cause, r.clocks) for r in rows]

    def record(self, table_id: int, game_number: int) -> str | None:
        """The record of a finished game (``None`` if that game has not finished)."""
        with self.sessions() as session:
            row = session.get(RecordRow, (table_id, game_number))
            return str(row.record) if row is not None else None

    def update_record(self, table_id: int, game_number: int, record: str) -> None:
        """Store a finished game's record anew (its review added to its ``meta``).

        Not fenced by the table's lease: a finished game's record changes only by what is
        derived from it, and every process derives the same.
        """
        with self.sessions.begin() as session:
            row = session.get(RecordRow, (table_id, game_number))
            if row is not None:
                row.record = record

    def truncate(self, table_id: int, game_number: int, keep: int) -> None:
        """Keep only the first ``keep`` logged actions of a running game (a move taken back).

        The rows after them are deleted in one transaction (fenced like every write for the
        table): the log stays the game's true history, which a restart replays.
        """
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            session.execute(
                delete(ActionRow).where(
                    ActionRow.table_id == table_id,
                    ActionRow.game_number == game_number,
                    ActionRow.seq >= keep,
                )
            )

    def add_chat(
        self, table_id: int, channel: str, seat: int | None, name: str | None, text: str
    ) -> ChatLine:
        """Store a chat line of table ``table_id``; the line with its id and time."""
        with self.sessions.begin() as session:
            self._fenced(session, table_id)
            row = ChatRow(
                table_id=table_id,
                channel=channel,
                seat=seat,
                name=name,
                text=text,
                sent=utcnow(),
            )
            session.add(row)
            session.flush()
            return _chat_line(row)

    def chat(self, table_id: int, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines of table ``table_id`` (both channels), oldest first."""
        with self.sessions() as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return [_chat_line(r) for r in reversed(rows)]


def _chat_line(row: ChatRow) -> ChatLine:
    sent = row.sent if row.sent.tzinfo else row.sent.replace(tzinfo=datetime.UTC)
    return ChatLine(row.id, row.channel, row.seat, row.name, row.text, sent)


def _seat_row(table_id: int, s: SeatInfo) -> SeatRow:
    return SeatRow(
        table_id=table_id,
        seat=s.seat,
        kind=s.kind,
        level=s.level,
        nickname=s.nickname,
        token_hash=s.token_hash,
    )
