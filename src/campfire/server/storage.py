"""Storage behind two small interfaces: the lobby's reads and writes, and the action log.

:class:`Storage` is what the table services read and write (tables, seats, records); the
:class:`ActionLog` appends accepted actions (and the record of the game an action ended). The
server runs on :class:`~.store.Store` and :class:`~.writer.LogWriter` (SQLAlchemy: an SQLite file
or PostgreSQL); :class:`MemoryStore` keeps the same in memory, for fast tests of the services
that need no database (it is both interfaces at once, so what is logged can be read back).

>>> from campfire.server.seating import SeatInfo
>>> from campfire.server.writer import PendingAction
>>> store = MemoryStore()
>>> table = store.create("some-game", {}, 2, [SeatInfo(0), SeatInfo(1, "bot", "easy")])
>>> store.start(table, 1, seed=7)
>>> store.append(PendingAction(table, 1, 0, 1, "pass"))
>>> [entry.notation for entry in store.actions(table, 1)], store.public(table)["seq"]
(['pass'], 1)
"""

from __future__ import annotations

import asyncio
import copy
import datetime
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .models import TableRow, utcnow
from .seating import SeatInfo
from .store import MAX_TURNS, ChatLine, LogEntry, Turn, waiting
from .writer import PendingAction, turn_deadline

__all__ = ["ActionLog", "MemoryStore", "Storage"]


class Storage(Protocol):
    """The reads and writes of tables, seats and records (each call one transaction)."""

    def create(
        self,
        game: str,
        options: Mapping[str, Any],
        players: int,
        seats: Sequence[SeatInfo],
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """Store a new open table and its seats; return its id."""

    def save_settings(self, table_id: int, settings: Mapping[str, Any]) -> None:
        """Store a table's settings anew."""

    def save_seat(self, table_id: int, seat: SeatInfo) -> None:
        """Store the new state of one seat."""

    def start(self, table_id: int, game_number: int, seed: int) -> None:
        """Mark a table running its game ``game_number`` with ``seed``."""

    def finish(self, table_id: int, game_number: int, record: str) -> None:
        """End a game without an action: store its record, mark the table finished."""

    def save_turn(self, table_id: int, turn: list[list[float]]) -> None:
        """Store a turn-based table's running clocks' deadlines (``[]``: none runs)."""

    def turns_due(self, now: datetime.datetime, limit: int = 1000) -> list[int]:
        """The running turn-based tables whose earliest deadline is ``now`` or before."""

    def turns_waiting(self, now: datetime.datetime) -> set[int]:
        """The running turn-based tables waiting for a person whose deadline is after ``now``."""

    def your_turns(
        self, user_id: int | None, seats: Sequence[tuple[int, str]], limit: int = MAX_TURNS
    ) -> list[Turn]:
        """The turn-based tables waiting for a seat of the user or of ``seats``.

        ``seats`` are (table, the hash of a seat token at that table) pairs.
        """

    def table(self, table_id: int) -> tuple[TableRow, list[SeatInfo]] | None:
        """A table and its seats (``None`` if there is no such table)."""

    def own_seat(self, table_id: int, seat: int, user_id: int | None) -> bool:
        """Record ``seat`` as the user's (``None``: nobody's); ``False``: not (one per user)."""

    def owners(self, table_id: int) -> dict[int, int]:
        """The seats of a table that are users': ``{seat: user id}``."""

    def table_ids(self, statuses: Sequence[str]) -> list[int]:
        """The ids of the tables whose status is one of ``statuses``, oldest first."""

    def public(self, table_id: int) -> dict[str, Any] | None:
        """A table as the lobby lists it."""

    def actions(self, table_id: int, game_number: int) -> list[LogEntry]:
        """The logged actions of one game, in order."""

    def record(self, table_id: int, game_number: int) -> str | None:
        """The record of a finished game (``None`` if that game has not finished)."""

    def update_record(self, table_id: int, game_number: int, record: str) -> None:
        """Store a finished game's record anew (its review added to its ``meta``)."""

    def truncate(self, table_id: int, game_number: int, keep: int) -> None:
        """Keep only the first ``keep`` logged actions of a running game (a move taken back)."""

    def add_chat(
        self, table_id: int, channel: str, seat: int | None, name: str | None, text: str
    ) -> ChatLine:
        """Store a chat line of a table (never part of its log or records); the line."""

    def chat(self, table_id: int, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines of a table (both channels), oldest first."""


class ActionLog(Protocol):
    """Appends accepted actions: each is stored before any frame of it is sent."""

    def submit(self, action: PendingAction) -> asyncio.Future[None]:
        """Queue ``action``; the future resolves once it is stored (or fails with the error)."""

    async def close(self) -> None:
        """Finish the writes in progress (at shutdown)."""


class MemoryStore:
    """:class:`Storage` and :class:`ActionLog` in memory (for tests; nothing survives it)."""

    def __init__(self) -> None:
        self._tables: dict[int, TableRow] = {}
        self._seats: dict[int, dict[int, SeatInfo]] = {}
        self._log: dict[tuple[int, int], list[LogEntry]] = {}
        self._records: dict[tuple[int, int], str] = {}
        self._chat: dict[int, list[ChatLine]] = {}
        self._chat_ids = 0
        self._owners: dict[int, dict[int, int]] = {}
        #: actions appended (as :class:`~.writer.LogWriter` counts them)
        self.committed = 0

    # ----- Storage ----------------------------------------------------------------------------

    def create(
        self,
        game: str,
        options: Mapping[str, Any],
        players: int,
        seats: Sequence[SeatInfo],
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """Store a new open table and its seats; return its id."""
        table_id = len(self._tables) + 1
        self._tables[table_id] = TableRow(
            id=table_id,
            game=game,
            options=dict(options),
            players=players,
            status="open",
            created=utcnow(),
            game_number=0,
            seed=None,
            settings=dict(settings) if settings else None,
            turn_deadline=None,
            turn=None,
        )
        self._seats[table_id] = {s.seat: copy.copy(s) for s in seats}
        return table_id

    def save_settings(self, table_id: int, settings: Mapping[str, Any]) -> None:
        """Store a table's settings anew."""
        self._tables[table_id].settings = dict(settings)

    def save_seat(self, table_id: int, seat: SeatInfo) -> None:
        """Store the new state of one seat."""
        self._seats[table_id][seat.seat] = SeatInfo(
            seat.seat, seat.kind, seat.level, seat.nickname, seat.token_hash
        )

    def start(self, table_id: int, game_number: int, seed: int) -> None:
        """Mark a table running its game ``game_number`` with ``seed``."""
        row = self._tables[table_id]
        row.status, row.game_number, row.seed = "running", game_number, seed

    def finish(self, table_id: int, game_number: int, record: str) -> None:
        """End a game without an action: store its record, mark the table finished."""
        self._records[table_id, game_number] = record
        row = self._tables[table_id]
        row.status, row.turn_deadline, row.turn = "finished", None, None

    def save_turn(self, table_id: int, turn: list[list[float]]) -> None:
        """Store a turn-based table's running clocks' deadlines (``[]``: none runs)."""
        row = self._tables[table_id]
        row.turn_deadline, row.turn = turn_deadline(turn), [list(t) for t in turn] or None

    def turns_due(self, now: datetime.datetime, limit: int = 1000) -> list[int]:
        """The running turn-based tables whose earliest deadline is ``now`` or before."""
        due = [
            (row.turn_deadline, i)
            for i, row in self._tables.items()
            if row.status == "running"
            and row.turn_deadline is not None
            and row.turn_deadline <= now
        ]
        return [i for _, i in sorted(due)][:limit]

    def turns_waiting(self, now: datetime.datetime) -> set[int]:
        """The running turn-based tables waiting for a person whose deadline is after ``now``."""
        return {
            i
            for i, row in self._tables.items()
            if row.status == "running" and row.turn_deadline is not None and row.turn_deadline > now
        }

    def your_turns(
        self, user_id: int | None, seats: Sequence[tuple[int, str]], limit: int = MAX_TURNS
    ) -> list[Turn]:
        """The turn-based tables waiting for one of ``seats`` (table, token hash; no accounts)."""
        wanted = set(seats)
        rows = [
            (i, s.seat, row.game, row.turn)
            for i, row in self._tables.items()
            if row.status == "running" and row.turn
            for s in self._seats[i].values()
            if s.token_hash is not None and (i, s.token_hash) in wanted
        ]
        return waiting(rows, limit)

    def table(self, table_id: int) -> tuple[TableRow, list[SeatInfo]] | None:
        """A table and its seats (``None`` if there is no such table)."""
        row = self._tables.get(table_id)
        if row is None:
            return None
        seats = self._seats[table_id]
        return row, [copy.copy(seats[i]) for i in sorted(seats)]

    def own_seat(self, table_id: int, seat: int, user_id: int | None) -> bool:
        """Record ``seat`` as the user's (``None``: nobody's); ``False``: not (one per user)."""
        owners = self._owners.setdefault(table_id, {})
        owners.pop(seat, None)
        if user_id is None or user_id in owners.values():
            return False
        owners[seat] = user_id
        return True

    def owners(self, table_id: int) -> dict[int, int]:
        """The seats of a table that are users': ``{seat: user id}``."""
        return dict(self._owners.get(table_id, {}))

    def table_ids(self, statuses: Sequence[str]) -> list[int]:
        """The ids of the tables whose status is one of ``statuses``, oldest first."""
        return [i for i, row in sorted(self._tables.items()) if row.status in statuses]

    def public(self, table_id: int) -> dict[str, Any] | None:
        """A table as the lobby lists it."""
        found = self.table(table_id)
        if found is None:
            return None
        row, seats = found
        return {
            "id": row.id,
            "game": row.game,
            "options": dict(row.options),
            "players": row.players,
            "status": row.status,
            "game_number": row.game_number,
            "seq": len(self._log.get((table_id, row.game_number), [])),
            "seats": [s.public() for s in seats],
            "realtime": bool((row.settings or {}).get("realtime", False)),
            "rated": bool((row.settings or {}).get("rated", False)),
        }

    def actions(self, table_id: int, game_number: int) -> list[LogEntry]:
        """The logged actions of one game, in order."""
        return list(self._log.get((table_id, game_number), []))

    def record(self, table_id: int, game_number: int) -> str | None:
        """The record of a finished game (``None`` if that game has not finished)."""
        return self._records.get((table_id, game_number))

    def update_record(self, table_id: int, game_number: int, record: str) -> None:
        """Store a finished game's record anew (its review added to its ``meta``)."""
        if (table_id, game_number) in self._records:
            self._records[table_id, game_number] = record

    def truncate(self, table_id: int, game_number: int, keep: int) -> None:
        """Keep only the first ``keep`` logged actions of a running game (a move taken back)."""
        log = self._log.get((table_id, game_number), [])
        del log[keep:]

    def add_chat(
        self, table_id: int, channel: str, seat: int | None, name: str | None, text: str
    ) -> ChatLine:
        """Store a chat line of a table (never part of its log or records); the line."""
        self._chat_ids += 1
        line = ChatLine(self._chat_ids, channel, seat, name, text, utcnow())
        self._chat.setdefault(table_id, []).append(line)
        return line

    def chat(self, table_id: int, limit: int) -> list[ChatLine]:
        """The last ``limit`` chat lines of a table (both channels), oldest first."""
        return self._chat.get(table_id, [])[-limit:] if limit > 0 else []

    # ----- ActionLog --------------------------------------------------------------------------

    def append(self, action: PendingAction) -> None:
        """Append ``action`` (and store the record of the game it ended)."""
        log = self._log.setdefault((action.table_id, action.game_number), [])
        if action.seq != len(log):
            raise ValueError(f"table {action.table_id}: action {action.seq} after {len(log)}")
        log.append(LogEntry(action.seat, action.notation, action.cause, action.clocks))
        if action.turn is not None and action.record is None:
            self.save_turn(action.table_id, action.turn)
        if action.record is not None:
            self.finish(action.table_id, action.game_number, action.record)
        self.committed += 1

    def submit(self, action: PendingAction) -> asyncio.Future[None]:
        """Append ``action`` now; the future is already resolved (or failed)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        try:
            self.append(action)
        except Exception as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)
        return done

    async def close(self) -> None:
        """Finish the writes in progress (at shutdown)."""
