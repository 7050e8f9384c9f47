"""What the table services see of each other: one small interface each.

The live tables' work is split into services (:mod:`.tables` puts them together):

=====================  ===================================================================
:mod:`.lobby_ops`      lobby operations: create, join, leave, start, rematch, records
:mod:`.pipeline`       a client's action checked once, then accept → store → broadcast
:mod:`.timers`         the clocks' timers and the time-out rules
:mod:`.windows`        real-time claim windows (timed answers, bots' reaction times)
:mod:`.takeover`       a bot plays the seat of a person who left or ran out of time
:mod:`.bots`           bots decide in a thread pool and play through the pipeline
:mod:`.recovery`       tables rebuilt from the log (a restart, another process's table)
:mod:`.undo`           a move taken back when the other people accept
:mod:`.turns`          turn-based tables' deadlines stored, idle ones out of memory
=====================  ===================================================================

A service is handed a :class:`Hub` and reaches the others only through the protocols below:
what each may ask of another is written here, and nowhere else. This module imports no
service, so no service imports another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from campfire.core import Action
from campfire.core.table import Step, Table

if TYPE_CHECKING:
    from .live import LiveTable, Outbox
    from .metrics import NoMetrics
    from .storage import ActionLog, Storage
    from .writer import PendingAction

__all__ = [
    "Applied",
    "Bots",
    "Hub",
    "Leases",
    "Pipeline",
    "Ratings",
    "Recovery",
    "Takeover",
    "Timers",
    "Turns",
    "Undo",
    "Windows",
]


@dataclass(frozen=True)
class Applied:
    """What :meth:`Pipeline.apply` did: the step, its log entry (committed), the frames sent."""

    step: Step
    entry: PendingAction
    frames: Outbox

    @property
    def finished(self) -> bool:
        """Whether the step ended the game (its record was stored with it)."""
        return self.entry.record is not None


class Pipeline(Protocol):
    """Accept → store → broadcast (:mod:`.pipeline`)."""

    async def apply(
        self,
        live: LiveTable,
        seat: int,
        action: Action,
        seconds: float | None = None,
        choices: int | None = None,
        *,
        checked: bool = False,
    ) -> Applied:
        """Play ``action`` for ``seat``, commit it, send its frames (the lock is held).

        ``checked``: the caller knows the action is legal (the engine does not check it again).
        """


class Timers(Protocol):
    """The clocks' timers (:mod:`.timers`)."""

    def arm(self, live: LiveTable) -> None:
        """(Re)start the timer of the table's earliest running clock."""


class Windows(Protocol):
    """Real-time claim windows (:mod:`.windows`)."""

    async def after_step(self, live: LiveTable) -> None:
        """Open or close the table's claim window after a step (the lock is held)."""

    async def after_step_locked(self, live: LiveTable) -> None:
        """:meth:`after_step`, taking the table's lock."""


class Takeover(Protocol):
    """Bots that play a person's seat (:mod:`.takeover`)."""

    def take_over(self, live: LiveTable, seat: int) -> None:
        """Seat a bot for the person of ``seat`` until they return."""

    def absent(self, live: LiveTable) -> None:
        """Treat the people not connected to a running table as gone."""


class Bots(Protocol):
    """Bots deciding in the pool (:mod:`.bots`)."""

    #: where bots think (hints and reviews run there too)
    pool: ThreadPoolExecutor

    def busy(self) -> bool:
        """Whether a live bot's decision is waiting for a thread or being made."""

    def kick(self, live: LiveTable) -> None:
        """Let the table's bots play, if one is to act and none is already thinking."""

    async def think(self, table: Table, seat: int) -> tuple[Action, float, int]:
        """The bot of ``seat`` decides, in a thread of the pool."""


class Recovery(Protocol):
    """Tables rebuilt from the log (:mod:`.recovery`)."""

    def load(self, table_id: int) -> LiveTable | None:
        """The live table ``table_id``, rebuilt from the database if not in memory."""

    def rebuild(self, live: LiveTable) -> None:
        """Rebuild a table's game from its log (after a failed commit)."""

    def resume(self, live: LiveTable) -> None:
        """Let a running table go on: its bots, clocks, absent people and windows."""

    def drop(self, table_id: int) -> None:
        """Forget a table another process serves now."""


class Undo(Protocol):
    """Requests to take back a move (:mod:`.undo`)."""

    def moved(self, live: LiveTable) -> None:
        """A step was played at ``live``: its open request to take back a move is cancelled."""

    def taken_over(self, live: LiveTable, seat: int) -> None:
        """A bot took over the person of ``seat``: it accepts the request waiting for them."""

    def asked(self, table_id: int) -> bool:
        """Whether a request to take back a move is open at the table."""


class Turns(Protocol):
    """Turn-based tables' deadlines in the database (:mod:`.turns`)."""

    def save(self, live: LiveTable) -> None:
        """Store the table's running clocks' deadlines if they changed (a turn-based table)."""

    def notify(self, live: LiveTable) -> None:
        """E-mail the players away from a turn-based table whose turn just began."""


class Ratings(Protocol):
    """The ratings of rated tables (:mod:`.rated_tables`)."""

    def finished(self, live: LiveTable) -> None:
        """A game of ``live`` ended and its record is committed: rate it if the table is rated."""


class Leases(Protocol):
    """The tables' leases when several processes serve them (:mod:`.cluster`)."""

    def claim(self, table_id: int) -> bool:
        """Take the lease of ``table_id`` for this process (raises if another holds it)."""

    def orphans(self) -> list[int]:
        """The running tables no live process holds."""

    def release_table(self, table_id: int) -> None:
        """Give up the lease of ``table_id`` (an idle turn-based table left in the database)."""


class Hub(Protocol):
    """The services and what they share (the :class:`~.tables.TableManager`)."""

    #: the live tables of this process, by id
    tables: dict[int, LiveTable]
    #: what the time control is measured with (monotonic seconds)
    clock: Callable[[], float]
    #: the wall clock (unix seconds): a turn-based table's deadlines (:mod:`.turns`)
    wall: Callable[[], float]

    @property
    def cluster(self) -> Leases | None:
        """Several processes: the leases (``None``: this process alone)."""

    @property
    def store(self) -> Storage:
        """Tables, seats, the log and records."""

    @property
    def writer(self) -> ActionLog:
        """Appends the accepted actions to the log."""

    @property
    def metrics(self) -> NoMetrics:
        """What the server counts."""

    @property
    def pipeline(self) -> Pipeline:
        """Accept → store → broadcast."""

    @property
    def timers(self) -> Timers:
        """The clocks' timers."""

    @property
    def windows(self) -> Windows:
        """Claim windows."""

    @property
    def takeover(self) -> Takeover:
        """Bots in people's seats."""

    @property
    def bots(self) -> Bots:
        """Bots deciding."""

    @property
    def recovery(self) -> Recovery:
        """Tables rebuilt from the log."""

    @property
    def undo(self) -> Undo:
        """Requests to take back a move."""

    @property
    def ratings(self) -> Ratings:
        """The ratings of rated tables' games."""

    @property
    def turns(self) -> Turns:
        """Turn-based tables' deadlines."""

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` as a task of the tables' (cancelled when the server stops)."""
