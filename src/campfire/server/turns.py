"""Turn-based play: tables whose moves take hours or days, kept in the database between moves.

A turn-based table (``{"kind": "turn", "seconds": S}``, S from an hour to 14 days,
:mod:`.clocks`) gives each seat S seconds for each move, like a per-move clock, but its
deadlines are wall-clock times stored with the table (``game_tables.turn_deadline``, the
earliest, and ``game_tables.turn``, each running clock's, ``[[seat, unix seconds], ...]``): they
are written in the transaction of the action that started them (:class:`~.writer.LogWriter`),
and after any other change of the running clocks (:meth:`TurnKeeper.save`, from
:meth:`.timers.ClockTimers.arm`: a game's start, a bot taking over, a person back).

**Restarts and fail-overs.** A table rebuilt from the database (a restart, another process
taking it over) runs each clock from its stored deadline (:meth:`.live.LiveTable.build`): the
time no process held the table counts, and a deadline that passed meanwhile expires at once, so
its time-out applies with the table's rule as soon as the table is loaded. It applies once:
the time-out's action (or the game's end on ``loss``) is committed with the new deadlines (or
none), and the log's primary key refuses a second action at one sequence number.

**Idle tables cost nothing.** A turn-based table waiting for a person's move is not kept in
memory: once nobody is connected to it and nothing happened there for :attr:`TurnKeeper.idle`
seconds, :meth:`TurnKeeper.sweep` drops it (with several processes its lease is given up too).
The next connection, lobby request or move loads it again from the log; a restart leaves the
tables waiting in the database (:meth:`.recovery.TableRecovery.recover`), and every
:attr:`TurnKeeper.interval` seconds :meth:`TurnKeeper.due` loads the tables whose deadline has
passed, so that their time-outs apply (the hints used in the running game come back with the
table's settings, :mod:`.hints`).

**"Your turn" by e-mail.** Where the server sends e-mail (``--smtp-host``), a signed-in player
whose account has an address is told by e-mail when a turn-based table waits for their move and
they are not connected to it (:meth:`TurnKeeper.notify`, from :meth:`.timers.ClockTimers.arm`):
once per turn, in the language of their last connection to the table (English if the process
has not seen one), with the table's address where the server knows its public origin
(``--public-origin``; the address a client sends is not put into an e-mail). Only a turn that
began within :data:`NOTICE_FRESH_SECONDS` is told, so a table loaded again (a restart, another
process) does not repeat an old turn's notice. Removing the address from the account stops them.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from typing import Any, Protocol

from campfire.core import Game
from campfire.i18n import N_, game_title, translator

from .hub import Hub
from .live import LiveTable
from .seating import LobbyError
from .writer import LeaseLost, utcnow_of

__all__ = [
    "NOTICE_FRESH_SECONDS",
    "TURN_CHECK_SECONDS",
    "TURN_IDLE_SECONDS",
    "Notifier",
    "TurnKeeper",
]

log = logging.getLogger(__name__)

#: How often the server looks for turn-based tables to drop or whose deadline passed (seconds).
TURN_CHECK_SECONDS = 30.0
#: How long a turn-based table stays in memory with nobody connected and nothing happening
#: (seconds): a table played briskly stays, one waiting hours for a move does not.
TURN_IDLE_SECONDS = 300.0
#: A turn is told by e-mail only if it began at most this long ago (seconds).
NOTICE_FRESH_SECONDS = 60.0

_SUBJECT = N_("Campfire: your turn in {game} at table {table}")
_BODY = N_(
    "It is your turn in {game} at table {table}. Make your move by {deadline} (UTC), or the "
    "table's rule for a time-out applies.\n\n{where}\n\n"
    "You get this e-mail because your Campfire account has this address; remove it on your "
    "account page to get no more."
)
_LINK = N_("Your table: {link}")
_LOBBY = N_("The lobby's header lists every table waiting for your move.")


class Notifier(Protocol):
    """What sends a "your turn" e-mail (:class:`.account_service.AccountService`)."""

    #: the server's public origin (``None``: not configured; the e-mail has no link then)
    public_origin: str | None

    async def notify(self, user_id: int, subject: str, body: str) -> bool:
        """E-mail ``user_id`` if their account has an address; whether it was sent."""


class TurnKeeper:
    """Turn-based tables' deadlines in the database, and idle ones out of memory."""

    def __init__(
        self, hub: Hub, interval: float = TURN_CHECK_SECONDS, idle: float = TURN_IDLE_SECONDS
    ) -> None:
        self.hub = hub
        self.interval = interval
        self.idle = idle
        #: tables dropped from memory (for benchmarks and tests)
        self.dropped = 0
        #: sends "your turn" e-mails (``None``: the server sends no e-mail)
        self.notices: Notifier | None = None
        #: "your turn" e-mails sent (for tests and benchmarks)
        self.noticed = 0

    def save(self, live: LiveTable) -> None:
        """Store the table's running clocks' deadlines if they changed (a turn-based table)."""
        state = live.turn_state()
        if state is None or state == (live.turn_saved or []):
            return
        try:
            self.hub.store.save_turn(live.id, state)
        except LeaseLost:
            if self.hub.tables.get(live.id) is live:
                self.hub.recovery.drop(live.id)
            return
        live.turn_saved = state

    def notify(self, live: LiveTable) -> None:
        """E-mail the players away from a turn-based table whose turn just began (see module).

        The seats are chosen at once (a seat is told once per turn); the e-mails are sent by a
        task of the server's (the database's owners of the seats, then SMTP in a thread).
        """
        clocks, table = live.clocks, live.table
        if self.notices is None or live.control.kind != "turn" or live.status != "running":
            return
        if clocks is None or table is None:
            return
        now = self.hub.clock()
        fresh = live.control.seconds - NOTICE_FRESH_SECONDS
        told = {k for k in live.noticed if k[:2] == (live.number, live.seq)}
        seats: dict[int, tuple[str, float]] = {}
        for seat in sorted(clocks.running):
            key = (live.number, live.seq, seat)
            left = clocks.remaining(seat, now)
            if key in told or left < fresh or table.is_agent(seat):
                continue
            if any(c.seat == seat for c in live.connections):
                continue  # they see it is their turn
            told.add(key)
            seats[seat] = (live.languages.get(seat, "en"), self.hub.wall() + left)
        live.noticed = told
        if seats:
            self.hub.spawn(self._send(self.notices, live.id, live.game, seats))

    async def _send(
        self,
        notices: Notifier,
        table_id: int,
        game: Game[Any],
        seats: dict[int, tuple[str, float]],
    ) -> None:
        owners = await asyncio.to_thread(self.hub.store.owners, table_id)
        for seat, (language, deadline) in seats.items():
            user = owners.get(seat)
            if user is None:
                continue  # a guest's seat: no address
            tr = translator(language)
            title = game_title(game, tr)
            due = datetime.datetime.fromtimestamp(deadline, datetime.UTC)
            where = (
                tr.gettext(_LINK).format(link=f"{notices.public_origin}/t/{table_id}")
                if notices.public_origin
                else tr.gettext(_LOBBY)
            )
            body = tr.gettext(_BODY).format(
                game=title, table=table_id, deadline=due.strftime("%Y-%m-%d %H:%M"), where=where
            )
            subject = tr.gettext(_SUBJECT).format(game=title, table=table_id)
            if await notices.notify(user, subject, body):
                self.noticed += 1
                log.info("table %s: seat %s told by e-mail that it is their turn", table_id, seat)

    def idle_table(self, live: LiveTable) -> bool:
        """Whether ``live`` is a turn-based table that may leave memory now."""
        if live.control.kind != "turn" or live.status == "open" or live.connections:
            return False
        if live.lock.locked() or live.rematch is not None or live.window is not None:
            return False
        tasks = [live.bot_task, *live.leave_tasks.values(), *live.window_tasks]
        if any(t is not None and not t.done() for t in tasks):
            return False
        table = live.table
        if (
            live.status == "running"
            and table is not None
            and any(s in table.agents for s in table.state.seats_to_act())
        ):
            return False  # a bot (or a bot for a person) is to move: it will, soon
        if self.hub.undo.asked(live.id):
            return False
        return self.hub.clock() - live.touched >= self.idle

    def forget(self, live: LiveTable) -> None:
        """Drop an idle turn-based table from memory (its deadlines stay in the database)."""
        if self.hub.tables.get(live.id) is not live:
            return
        del self.hub.tables[live.id]
        if live.clock_task is not None:
            live.clock_task.cancel()
        if self.hub.cluster is not None:
            self.hub.cluster.release_table(live.id)
        self.dropped += 1

    def sweep(self) -> int:
        """Drop every idle turn-based table from memory; how many."""
        idle = [live for live in list(self.hub.tables.values()) if self.idle_table(live)]
        for live in idle:
            self.forget(live)
        return len(idle)

    def due(self) -> int:
        """Load the turn-based tables whose deadline passed (their time-outs apply); how many."""
        loaded = 0
        for table_id in self.hub.store.turns_due(utcnow_of(self.hub.wall())):
            if table_id in self.hub.tables:
                continue  # its own timer acts
            try:
                live = self.hub.recovery.load(table_id)
            except LobbyError:  # another process holds it: its timer acts there
                continue
            loaded += live is not None
        return loaded

    async def run(self) -> None:
        """Look for due and idle tables every :attr:`interval` seconds (a server's task)."""
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.due()
                self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("turn-based tables: the check failed; trying again")
