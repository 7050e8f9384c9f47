"""Live tables: the services that run them, put together by :class:`TableManager`.

Every game runs through :class:`campfire.core.table.Table`. The work around it is split into
services, each in a module of its own with a narrow interface (:mod:`.hub` says what each may
ask of another):

- :mod:`.lobby_ops` — lobby operations (create, join, leave, start, rematch, records);
- :mod:`.pipeline` — a client's action checked once, then the one accept → store → broadcast
  function (:meth:`~.pipeline.ActionPipeline.apply`), which returns what it did;
- :mod:`.timers` — the clocks' timers and time-out rules;
- :mod:`.windows` — real-time claim windows;
- :mod:`.takeover` — a bot in the seat of a person who left or ran out of time;
- :mod:`.bots` — bots deciding in a thread pool (:attr:`TableManager.pool`), so that a long
  search never blocks the event loop or other tables; their actions take a person's path;
- :mod:`.recovery` — tables rebuilt from the log (a restart replays each unfinished table's log
  through a new ``Table``);
- :mod:`.chat` — each table's chat (players' and spectators' channels), kept with the table
  and never in its log or records;
- :mod:`.undo` — a player's request to take back their last move, which the other people
  accept (the log loses the step, the table is rebuilt from it).

Storage is behind :class:`~.storage.Storage` and :class:`~.storage.ActionLog` (SQLAlchemy by
default; :class:`~.storage.MemoryStore` for fast tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session, sessionmaker

from campfire.core import Action
from campfire.core.table import Table

from .bots import BotDriver
from .chat import ChatBlocks, TableChat
from .connection import Connection
from .hints import TableHints
from .live import MEASURED_FROM_PEOPLE, REALTIME_MODE, LiveTable, Offers
from .lobby_ops import LobbyOps
from .logs import detached_context
from .metrics import NoMetrics
from .moderation import Moderation
from .pipeline import ActionPipeline
from .rated_tables import NoRatings, TableRatings
from .ratings import GameRatings
from .recovery import TableRecovery
from .reviews import ReviewQueue
from .seating import MAX_NICKNAME, TAKEOVER_LEVEL, LobbyError, SeatInfo, hash_token
from .storage import ActionLog, Storage
from .store import LogEntry, Store
from .takeover import SeatTakeover
from .timers import ClockTimers
from .turns import TurnKeeper
from .undo import TableUndo
from .windows import ARRIVAL_WINDOW_SECONDS, ClaimWindows
from .writer import LeaseLost, LogWriter

if TYPE_CHECKING:
    from .cluster import Cluster

__all__ = [
    "ARRIVAL_WINDOW_SECONDS",
    "MAX_NICKNAME",
    "MEASURED_FROM_PEOPLE",
    "REALTIME_MODE",
    "TAKEOVER_LEVEL",
    "Connection",
    "LiveTable",
    "LobbyError",
    "LogEntry",
    "Offers",
    "SeatInfo",
    "Store",
    "TableManager",
    "TableServices",
    "hash_token",
]

log = logging.getLogger(__name__)


class TableServices:
    """All tables of a server: the services that run them, and what they share.

    ``store`` keeps the tables, seats and records, ``writer`` appends the action log (one
    :class:`~.storage.MemoryStore` can be both, for fast tests). The lobby, the pipeline and
    the others are reached as attributes (:attr:`lobby`, :attr:`pipeline`, ...); the methods
    below are the operations the app and the cluster call.
    """

    def __init__(
        self,
        store: Storage,
        writer: ActionLog,
        bot_workers: int = 2,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        #: appends the accepted actions to the log
        self.writer = writer
        #: what clocks are measured with (monotonic seconds)
        self.clock = clock
        #: the wall clock (unix seconds) of turn-based tables' deadlines (:mod:`.turns`)
        self.wall = wall
        self.tables: dict[int, LiveTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: several processes: the leases and the other processes (``None``: this one alone)
        self.cluster: Cluster | None = None
        #: what the server counts (:mod:`.metrics`; the app sets it, and the writer's too)
        self.metrics: NoMetrics = NoMetrics()
        self.lobby = LobbyOps(self)
        self.pipeline = ActionPipeline(self)
        self.timers = ClockTimers(self)
        self.windows = ClaimWindows(self)
        self.takeover = SeatTakeover(self)
        self.bots = BotDriver(self, bot_workers)
        self.recovery = TableRecovery(self)
        #: the accounts' blocks the chat respects (``None``: none; :mod:`.moderation`)
        self.blocks: ChatBlocks | None = None
        self.chat = TableChat(self)
        self.undo = TableUndo(self)
        self.hints = TableHints(self)
        self.reviews = ReviewQueue(self)
        #: rates the games of rated tables (:mod:`.rated_tables`; none without a database)
        self.ratings: NoRatings = NoRatings()
        self.turns = TurnKeeper(self)

    @property
    def pool(self) -> ThreadPoolExecutor:
        """Where bots think (:mod:`.bots`)."""
        return self.bots.pool

    # ----- tasks ------------------------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` as a task of the manager's (cancelled at :meth:`close`)."""
        # its log lines keep the table, not the client whose message started it
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(
            coro, context=detached_context()
        )
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, LeaseLost):  # a bot or a clock acted for a table that moved
            live = self.tables.get(error.table_id)
            if live is not None:
                self.drop(live.id)
        elif error is not None:
            log.error("a table's task failed", exc_info=error)

    async def close(self) -> None:
        """Stop the bots and timers, finish the commits in progress (at shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.writer.close()
        self.bots.close()

    # ----- the operations (each a service's) -------------------------------------------------

    def load(self, table_id: int) -> LiveTable | None:
        """The live table ``table_id``, rebuilt from the database if not in memory."""
        return self.recovery.load(table_id)

    def recover(self) -> int:
        """Rebuild every unfinished table from its log and let it go on; return how many."""
        return self.recovery.recover()

    def drop(self, table_id: int) -> None:
        """Forget a table another process serves now (its lease was lost)."""
        self.recovery.drop(table_id)

    def get(self, table_id: int) -> LiveTable:
        """The live table ``table_id`` (:class:`LobbyError` 404 if there is none)."""
        return self.lobby.get(table_id)

    def listing(self, statuses: Sequence[str]) -> list[dict[str, Any]]:
        """The tables whose status is one of ``statuses`` (:meth:`LobbyOps.listing`)."""
        return self.lobby.listing(statuses)

    def create(
        self, request: Mapping[str, Any], user: int | None = None
    ) -> tuple[LiveTable, dict[int, str]]:
        """Create a table from a lobby request; return it and the tokens of reserved seats.

        ``user``: the signed-in creator (``None``: a guest; :meth:`.lobby_ops.LobbyOps.create`).
        """
        return self.lobby.create(request, user)

    def join(
        self, live: LiveTable, request: Mapping[str, Any], user: int | None = None
    ) -> tuple[int, str]:
        """Seat a person at an open seat; return the seat and its token (``user``: signed in)."""
        return self.lobby.join(live, request, user)

    def seat_for(self, live: LiveTable, token: str | None) -> int:
        """The seat of ``token`` at ``live`` (:class:`LobbyError` 401 if none)."""
        return self.lobby.seat_for(live, token)

    def leave(self, live: LiveTable, token: str | None) -> int:
        """Free the seat of ``token`` before the game starts; return the seat."""
        return self.lobby.leave(live, token)

    def start(
        self,
        live: LiveTable,
        token: str | None,
        seed: int | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> None:
        """Start the first game (:meth:`.lobby_ops.LobbyOps.start`)."""
        self.lobby.start(live, token, seed, request)

    def rename(self, live: LiveTable, token: str | None, request: Mapping[str, Any]) -> int:
        """Name the seat of ``token`` before the game starts; return the seat."""
        return self.lobby.rename(live, token, request)

    def rematch(
        self,
        live: LiveTable,
        token: str | None,
        seed: int | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Propose, accept or decline the next game (:meth:`.lobby_ops.LobbyOps.rematch`)."""
        return self.lobby.rematch(live, token, seed, request)

    def rematch_left(self, live: LiveTable, seat: int) -> None:
        """A person's last connection closed: unless they are back soon, a proposal ends."""
        self.lobby.rematch_left(live, seat)

    def record(self, live: LiveTable, number: int | None) -> str:
        """The record of game ``number`` (default: the last finished) of a table."""
        return self.lobby.record(live, number)

    async def act(
        self,
        live: LiveTable,
        seat: int | None,
        message: Mapping[str, Any],
        received: float | None = None,
    ) -> None:
        """Apply a client's ``action`` message for ``seat`` (:meth:`ActionPipeline.act`)."""
        await self.pipeline.act(live, seat, message, received)

    def arm(self, live: LiveTable) -> None:
        """(Re)start the timer of the table's earliest running clock."""
        self.timers.arm(live)

    def take_over(self, live: LiveTable, seat: int) -> None:
        """Seat a bot for the person of ``seat`` (out of time or gone) until they return."""
        self.takeover.take_over(live, seat)

    def hand_back(self, live: LiveTable, seat: int) -> None:
        """The person of ``seat`` is back: the bot leaves their seat (the lock is held)."""
        self.takeover.hand_back(live, seat)

    def left(self, live: LiveTable, seat: int) -> None:
        """A person's last connection to ``seat`` closed: a bot takes over after the grace."""
        self.takeover.left(live, seat)

    def kick(self, live: LiveTable) -> None:
        """Let the table's bots play, if one is to act and none is already thinking."""
        self.bots.kick(live)

    async def think(self, table: Table, seat: int) -> tuple[Action, float, int]:
        """The bot of ``seat`` decides, in a thread of the bot pool."""
        return await self.bots.think(table, seat)


class TableManager(TableServices):
    """The tables of ``campfire serve``: stored by SQLAlchemy in the database of ``sessions``.

    Actions are committed by a :class:`~.writer.LogWriter` (many tables' actions in one
    transaction under load).
    """

    store: Store
    writer: LogWriter

    def __init__(
        self,
        sessions: sessionmaker[Session],
        bot_workers: int = 2,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(Store(sessions), LogWriter(sessions), bot_workers, clock, wall)
        #: the ratings in the database (the pages' reads, and the sweep at start)
        self.game_ratings = GameRatings(sessions)
        self.ratings = TableRatings(self.game_ratings, self.spawn)
        self.blocks = Moderation(sessions)
