"""Live tables: lobby operations, the accept → store → broadcast path, bots, restart recovery.

Every game runs through :class:`campfire.core.table.Table`. A :class:`LiveTable` subscribes to
each seat's events (``Table.subscribe``) and adds two listeners: :class:`StoreListener`
commits each step to the action log (and the record, when the game ends), then
:class:`BroadcastListener` builds each connection's ``delta`` frame from that seat's view,
legal actions and visible events. The frames go out only after the step was committed. A
restart rebuilds each unfinished table by replaying its log through a new ``Table``
(:meth:`TableManager.load`).

Bots are agents seated at the ``Table``; they decide in a thread pool (:attr:`TableManager.pool`)
so that a long search never blocks the event loop or other tables, and their actions take the
same path as a person's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from campfire.agents import LEVELS, make_agent
from campfire.core import (
    Action,
    Agent,
    CampfireError,
    ErrorText,
    Event,
    Game,
    IllegalActionError,
    Outcome,
    all_games,
)
from campfire.core import get as get_game
from campfire.core.actions import split_timed
from campfire.core.events import visible_events
from campfire.core.present import Display
from campfire.core.table import AgentError, Step, Table
from campfire.i18n import DEFAULT_LANGUAGE, Translator, translator
from campfire.i18n import names as seat_names

from . import protocol
from .clocks import Clocks, TimeControl
from .logs import detached_context
from .metrics import NoMetrics
from .models import ActionRow, RecordRow, SeatRow, TableRow, utcnow
from .patches import Memo, patch_frame
from .windows import ClaimWindow, answered_ms, window_length
from .wire import encode
from .writer import Fence, LeaseLost, LogWriter, PendingAction, store_record

if TYPE_CHECKING:
    from .cluster import Cluster

__all__ = [
    "Connection",
    "LiveTable",
    "LobbyError",
    "SeatInfo",
    "TableManager",
    "hash_token",
]

log = logging.getLogger(__name__)

#: The longest nickname.
MAX_NICKNAME = 32
#: The level of a bot that takes over a person's seat, unless the table says another
#: (``takeover_level``).
TAKEOVER_LEVEL = "easy"
#: How long a claim window stays open when the answers carry no time (``claim_order=arrival``).
ARRIVAL_WINDOW_SECONDS = 3.0
#: The play mode whose simultaneous answers the server times (``Game.play_modes``).
REALTIME_MODE = "realtime-claims"
#: From this many people at a table on, a game played in :data:`REALTIME_MODE` always has its
#: claim windows timed by the server: a result shared between people is never decided by a
#: reaction time a client wrote.
MEASURED_FROM_PEOPLE = 2


class LobbyError(CampfireError):
    """A lobby request that is refused: ``status`` is the HTTP status, ``code`` the kind."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)  # an ErrorText where it can be (answers in the user's language)
        self.status = status
        self.code = code


def hash_token(token: str) -> str:
    """The SHA-256 of a seat token (what the database keeps)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class SeatInfo:
    """One seat as the lobby knows it."""

    seat: int
    kind: str = "open"  # open, human or bot
    level: str | None = None
    nickname: str | None = None
    token_hash: str | None = None
    #: a bot plays this person's seat now (they ran out of time or left; in memory only)
    takeover: bool = False

    def public(self) -> dict[str, Any]:
        """What every client may know of the seat (never the token's hash)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "nickname": self.nickname,
            "level": self.level,
            "takeover": self.takeover,
        }

    def name(self, tr: Translator | None = None) -> str:
        """The seat's name in displays and records (in ``tr``'s language; default English)."""
        tr = tr or translator(DEFAULT_LANGUAGE)
        if self.kind == "bot":
            return seat_names.bot_name(self.seat + 1, self.level or "", tr)
        return self.nickname or tr.gettext(seat_names.SEAT).format(number=self.seat + 1)


class Connection:
    """One client connected to a table: its seat (``None``: a spectator) and its outbox.

    Frames are put on a bounded queue that the connection's writer sends; a client that does
    not keep up is dropped (:attr:`overflowed`) rather than slowing the table down.
    """

    def __init__(
        self, seat: int | None, limit: int = 1000, language: str = "en", patches: bool = False
    ) -> None:
        self.seat = seat
        #: the language of the connection's display models, log messages and errors
        self.language = language
        #: the client asked for display patches (``patch=1``): its deltas carry ``patch``, the
        #: changes from :attr:`shown`, instead of the whole ``display`` (:mod:`.patches`)
        self.patches = patches
        #: the client asked for the game's raw views (``view=1``): its frames keep ``view``
        #: (:func:`.protocol.client_frame`; protocol version 4 leaves it out otherwise)
        self.views = False
        #: the display model of the last snapshot or delta queued for this connection
        self.shown: Display | None = None
        #: frames to send: a dict, or a frame already encoded (shared by connections)
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(limit)
        self.overflowed = False
        #: the close code the connection is to be closed with (``None``: the usual)
        self.close_code: int | None = None

    @property
    def tr(self) -> Translator:
        """The translator of the connection's language."""
        return translator(self.language)

    def push(self, frame: dict[str, Any] | str) -> None:
        """Queue ``frame`` (a dict, or its text) for sending (from the event loop's thread).

        A snapshot's display model becomes :attr:`shown`, what the next patch starts from.
        """
        self._note_snapshot(frame)
        if isinstance(frame, dict):
            frame = protocol.client_frame(frame, self.views)
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.overflowed = True

    def _note_snapshot(self, frame: dict[str, Any] | str) -> None:
        """If ``frame`` is a snapshot, keep its display model as :attr:`shown`."""
        if type(frame) is dict and frame["type"] == "snapshot":
            shown = frame["display"]
            self.shown = shown if isinstance(shown, Display) else None

    def close(self, code: int | None = None) -> None:
        """Ask the writer to stop (and the connection to close with ``code``, if given)."""
        if code is not None:
            self.close_code = code
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.overflowed = True


# ----- the database ---------------------------------------------------------------------------


class LogEntry(NamedTuple):
    """One row of the action log as the server reads it back."""

    seat: int
    notation: str
    cause: str | None = None
    clocks: list[float] | None = None


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
        }

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


def _seat_row(table_id: int, s: SeatInfo) -> SeatRow:
    return SeatRow(
        table_id=table_id,
        seat=s.seat,
        kind=s.kind,
        level=s.level,
        nickname=s.nickname,
        token_hash=s.token_hash,
    )


# ----- listeners --------------------------------------------------------------------------------


class ClockListener:
    """Notes why a step was played (its cause) and runs the clocks of the seats to act next."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def on_step(self, table: Table, step: Step) -> None:
        """Stop the mover's clock, start those of the seats to act now."""
        live = self.live
        cause = live.next_cause.pop(step.seat, None)
        if cause is None and live.seats[step.seat].takeover:
            cause = "takeover"
        if cause is not None:
            live.causes[step.index] = cause
        if live.clocks is not None:
            now = live.now()
            live.clocks.moved(step.seat, now)
            live.clocks.sync(live.people_to_act(), now)


class Offers:
    """What each seat to act may do, and since which sequence number it has been unchanged.

    An action names the sequence number it answers. In a simultaneous step (Apache's claim poll,
    Big Manitou's selection) another seat's answer moves the table on without changing what
    this seat may do: an answer to the earlier step still fits, and is accepted. It is stale
    once the seat's legal actions differ from those it answered, or it has acted since, or it
    is no longer to act.

    >>> offers = Offers()
    >>> offers.note(0, {0: ["a", "b"], 1: ["c"]})
    >>> offers.note(1, {0: ["a", "b"]}, mover=1)   # seat 1 answered: seat 0's choice stands
    >>> offers.fits(0, 0, 1), offers.fits(1, 0, 1)
    (True, False)
    >>> offers.note(2, {0: ["a"]}, mover=None)     # seat 0's choice changed
    >>> offers.fits(0, 1, 2), offers.fits(0, 2, 2)
    (False, True)
    """

    def __init__(self) -> None:
        #: seat -> (the first sequence number of its current choice, that choice)
        self._since: dict[int, tuple[int, tuple[Any, ...]]] = {}

    def note(self, seq: int, legal: Mapping[int, Sequence[Any]], mover: int | None = None) -> None:
        """Note the table at ``seq``, after ``mover``'s step (``None``: a fresh start).

        ``legal`` holds the legal actions of each seat to act (a seat not in it is not to act).
        """
        since: dict[int, tuple[int, tuple[Any, ...]]] = {}
        for seat, actions in legal.items():
            choice = tuple(actions)
            before = self._since.get(seat)
            keep = before is not None and seat != mover and before[1] == choice
            since[seat] = before if keep and before is not None else (seq, choice)
        self._since = since

    def fits(self, seat: int, answered: int, seq: int) -> bool:
        """Whether an answer of ``seat`` to step ``answered`` fits the table at ``seq``."""
        found = self._since.get(seat)
        return found is not None and found[0] <= answered <= seq


class OfferListener:
    """Keeps :attr:`LiveTable.offers` up to date after every step."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def on_step(self, table: Table, step: Step) -> None:
        """Note what the seats to act may do after ``step``."""
        self.live.note_offers(step.seat)


class StoreListener:
    """Queues every step for the action log; the game's record with its last step.

    The step is committed by :meth:`TableManager._apply` (with other tables' steps, by the
    :class:`~.writer.LogWriter`) before any of its frames is sent.
    """

    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def on_step(self, table: Table, step: Step) -> None:
        """Queue ``step`` for the log (:attr:`LiveTable.pending`)."""
        live = self.live
        record = None
        if table.state.is_terminal():
            record = table.match.record(live.record_meta())
        live.pending.append(
            PendingAction(
                live.id,
                live.number,
                step.index,
                step.seat,
                str(step.action),
                record.dumps() if record is not None else None,
                live.causes.get(step.index),
                live.clocks.left(live.now()) if live.clocks is not None else None,
            )
        )
        # the status becomes "finished" once the record is committed (TableManager._apply):
        # until then the lobby lists the game as running and its record is not asked for


class BroadcastListener:
    """Builds each connection's ``delta`` frame from what its seat may see of a step.

    The events come from the table's per-seat subscriptions (:meth:`LiveTable.seen`); the frames
    are sent by :meth:`LiveTable.flush` once the step is committed.
    """

    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def on_step(self, table: Table, step: Step) -> None:
        """Prepare the frames of ``step`` for every connection (one per seat and language)."""
        live = self.live
        cache: dict[tuple[int | None, str], dict[str, Any]] = {}
        for conn in list(live.connections):
            key = (conn.seat, conn.language)
            if key not in cache:
                cache[key] = live.delta(conn.seat, step, conn.language)
            live.outbox.append((conn, cache[key]))


# ----- a live table -----------------------------------------------------------------------------


@dataclass
class LiveTable:
    """One table in memory: its lobby state, its ``Table`` (once started), its connections."""

    id: int
    game: Game[Any]
    options: dict[str, Any]
    players: int
    seats: list[SeatInfo]
    store: Store
    status: str = "open"
    number: int = 0
    seed: int | None = None
    table: Table | None = None
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    outbox: list[tuple[Connection, dict[str, Any]]] = field(default_factory=list)
    #: the steps played but not yet committed to the log (:class:`StoreListener`)
    pending: list[PendingAction] = field(default_factory=list)
    #: what each seat (``None``: spectators) saw of the last step, from ``Table.subscribe``
    seen: dict[int | None, list[Event]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    #: the time control and the seats' clocks (``None`` before the game starts)
    control: TimeControl = field(default_factory=TimeControl)
    clocks: Clocks | None = None
    #: seconds after a person's last connection closes before a bot takes the seat over
    #: (``None``: never)
    bot_after_leave: float | None = None
    #: the clock the time control is measured with (monotonic seconds)
    now: Callable[[], float] = time.monotonic
    #: why steps were played for their seats (step index -> ``protocol.CAUSES``)
    causes: dict[int, str] = field(default_factory=dict)
    #: the cause of a seat's next step (set just before a time-out's action)
    next_cause: dict[int, str] = field(default_factory=dict)
    #: the outcome of a game lost on time (the engine's game did not end)
    forfeit: dict[str, Any] | None = None
    clock_task: asyncio.Task[None] | None = None
    leave_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    #: real-time claim windows are in force: the server times the answers of every
    #: simultaneous step (:meth:`measured`; a game with the ``realtime-claims`` play mode)
    realtime: bool = False
    #: the lobby request asked for real-time claim windows (``"realtime": true``)
    realtime_asked: bool = False
    #: the difficulty level of a bot that takes over a person's seat
    takeover_level: str = TAKEOVER_LEVEL
    #: what each seat to act may do, and since which step (what an action may answer)
    offers: Offers = field(default_factory=Offers)
    #: the open claim window (``None``: none)
    window: ClaimWindow | None = None
    window_tasks: list[asyncio.Task[None]] = field(default_factory=list)
    #: the operator's message if the table was closed (``campfire admin close``; it is then
    #: finished for good: no rematch); ``None``: not closed
    closed: str | None = None

    # ----- building the game ------------------------------------------------------------------

    def names(self, language: str = DEFAULT_LANGUAGE) -> list[str]:
        """The seats' names (a bot's and an unnamed seat's in ``language``)."""
        tr = translator(language)
        return [s.name(tr) for s in self.seats]

    def settings(self) -> dict[str, Any]:
        """The table's settings as they are in force (what clients are told)."""
        return {
            "clock": self.control.to_json(),
            "bot_after_leave": self.bot_after_leave,
            "realtime": self.realtime,
            "takeover_level": self.takeover_level,
        }

    def stored_settings(self) -> dict[str, Any]:
        """What the database keeps of the settings: :meth:`settings` and the request's wish."""
        return {**self.settings(), "realtime_asked": self.realtime_asked}

    def people(self) -> int:
        """How many seats people play or will play (taken or open; a bot's are not).

        An open seat is taken by a person (``join``) before the game starts, and a bot that
        takes a person's seat over during a game plays it for that person, who keeps it.
        """
        return sum(1 for s in self.seats if s.kind != "bot")

    def measured(self) -> bool:
        """Whether the server must time the claim windows of the next game.

        Always in a game played in the ``realtime-claims`` mode at a table of
        :data:`MEASURED_FROM_PEOPLE` or more people, whatever the request said (a client's
        own reaction time would decide a result they share); otherwise as the request asked.
        """
        if REALTIME_MODE not in self.game.play_modes:
            return False
        return self.realtime_asked or self.people() >= MEASURED_FROM_PEOPLE

    def build(self, actions: Sequence[LogEntry] = ()) -> None:
        """Make the ``Table`` of the current game and replay ``actions`` (the log) through it."""
        assert self.seed is not None
        for s in self.seats:
            s.takeover = False
        self.causes = {i: e.cause for i, e in enumerate(actions) if e.cause is not None}
        self.next_cause = {}
        agents: list[Agent | None] = []
        for s in self.seats:
            if s.kind == "bot":
                seed = random.Random(f"{self.seed}/{s.seat}").getrandbits(62)
                agents.append(
                    make_agent(
                        s.level or "easy", self.game, s.seat, self.players, self.options, seed
                    )
                )
            else:
                agents.append(None)
        table = Table(
            self.game,
            self.players,
            self.options,
            seed=self.seed,
            names=self.names(),
            agents=agents,
        )
        for entry in actions:  # the log: replayed, verified, routed to the agents
            table.play(entry.seat, entry.notation)
        for seat in [*range(self.players), None]:
            table.subscribe(seat, self._seen_by(seat))
        table.listeners.append(ClockListener(self))
        table.listeners.append(OfferListener(self))
        table.listeners.append(StoreListener(self))
        table.listeners.append(BroadcastListener(self))
        self.table = table
        self.offers = Offers()
        self.note_offers(None)
        last = actions[-1].clocks if actions else None
        self.clocks = Clocks(self.control, self.players, last)
        self.clocks.sync(self.people_to_act(), self.now())

    def note_offers(self, mover: int | None) -> None:
        """Note in :attr:`offers` what each seat to act may do now (after ``mover``'s step)."""
        table = self.table
        assert table is not None
        state = table.state
        to_act = [] if state.is_terminal() else state.seats_to_act()
        self.offers.note(self.seq, {s: state.legal_actions(s) for s in to_act}, mover)

    def people_to_act(self) -> list[int]:
        """The seats to act now that people play (their clocks run)."""
        table = self.table
        if table is None or self.status != "running" or table.state.is_terminal():
            return []
        return [s for s in table.state.seats_to_act() if s not in table.agents]

    def record_meta(self) -> dict[str, Any]:
        """What the server adds to a record: the table, the clock, time-outs and takeovers."""
        meta: dict[str, Any] = {"table": self.id, "game_number": self.number}
        if self.control.kind != "none":
            meta["clock"] = self.control.to_json()
        assert self.table is not None
        steps = self.table.match.actions
        if self.causes:
            meta["causes"] = [
                {"seq": i, "seat": steps[i][0], "cause": c} for i, c in sorted(self.causes.items())
            ]
        if self.forfeit is not None:
            meta["forfeit"] = self.forfeit
        return meta

    def clocks_json(self) -> dict[str, Any] | None:
        """The clocks as frames carry them."""
        return self.clocks.to_json(self.now()) if self.clocks is not None else None

    def _seen_by(self, seat: int | None) -> Callable[[list[Event]], None]:
        def take(events: list[Event]) -> None:
            self.seen[seat] = events

        return take

    @property
    def seq(self) -> int:
        """The sequence number: the number of actions of the current game."""
        return len(self.table.match.actions) if self.table is not None else 0

    # ----- frames (from a seat's view, legal actions and visible events only) -----------------

    def _seat_model(
        self, seat: int | None, language: str = DEFAULT_LANGUAGE
    ) -> tuple[Mapping[str, Any], Display, list[dict[str, Any]]]:
        """A seat's view, display model (the dataclass) and legal actions as JSON."""
        assert self.table is not None
        state = self.table.state
        view = state.view(seat)
        legal: list[Action] = (
            state.legal_actions(seat)
            if seat is not None
            and self.status == "running"
            and seat in state.seats_to_act()
            and seat not in self.table.agents
            else []
        )
        display = protocol.seat_display(self.game, view, legal, self.names(language), language)
        return view, display, protocol.legal_json(self.game, self.players, legal)

    def _outcome(self) -> dict[str, Any] | None:
        assert self.table is not None
        state = self.table.state
        if self.forfeit is not None:
            outcome: dict[str, Any] = self.forfeit["outcome"]
            return outcome
        return state.outcome().to_json() if state.is_terminal() else None

    def _step_for(
        self,
        seat: int | None,
        step: Step,
        events: Sequence[Event],
        language: str = DEFAULT_LANGUAGE,
    ) -> dict[str, Any]:
        return protocol.seat_step(
            self.game,
            self.names(language),
            seat,
            step.index + 1,
            step.seat,
            events,
            self.causes.get(step.index),
            language,
        )

    def delta(
        self, seat: int | None, step: Step, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The ``delta`` frame of ``step`` for ``seat``, its texts in ``language``.

        Its display model is the :class:`~campfire.core.present.Display` itself (encoded by
        :func:`.wire.encode` as its ``to_json()``).
        """
        view, display, legal = self._seat_model(seat, language)
        return protocol.delta_frame(
            table=self.id,
            game_number=self.number,
            step=self._step_for(seat, step, self.seen.get(seat, []), language),
            view=view,
            display=display,
            legal=legal,
            outcome=self._outcome(),
            clocks=self.clocks_json(),
        )

    def snapshot(
        self, seat: int | None, since: int | None = None, language: str = DEFAULT_LANGUAGE
    ) -> dict[str, Any]:
        """The ``snapshot`` frame for ``seat``, with the steps it missed after ``since``.

        Its display model (the :class:`~campfire.core.present.Display` itself, encoded by
        :func:`.wire.encode` as its ``to_json()``) and log messages are in ``language``.
        """
        if self.table is None:
            view: Mapping[str, Any] | None = None
            display: Display | None = None
            legal: list[dict[str, Any]] = []
            outcome = None
            missed: list[dict[str, Any]] = []
        else:
            view, display, legal = self._seat_model(seat, language)
            outcome = self._outcome()
            steps = self.table.steps[since:] if since is not None and since <= self.seq else []
            missed = [
                self._step_for(seat, s, visible_events(s.events, seat), language) for s in steps
            ]
        return protocol.snapshot_frame(
            table=self.id,
            game=self.game.name,
            status=self.status,
            game_number=self.number,
            seq=self.seq,
            seat=seat,
            seats=[s.public() for s in self.seats],
            view=view,
            display=display,
            legal=legal,
            missed=missed,
            outcome=outcome,
            clocks=self.clocks_json() if self.table is not None else None,
        )

    def flush(self) -> None:
        """Send the frames the last step prepared, each encoded once for all its connections.

        A connection of patches gets its frame's display model as the changes from the one it
        was sent last (:attr:`Connection.shown`): built and encoded once for all connections
        that hold the same model.
        """
        outbox, self.outbox = self.outbox, []
        # a frame (and the model a patch starts from), by identity -> the text; each key's
        # objects are kept in the value, so that their ids stay theirs until the loop ends
        texts: dict[tuple[int, int, bool], tuple[Any, Any, str]] = {}
        memo: Memo = {}  # the changes between the parts the seats' models share, found once
        for conn, frame in outbox:
            base = conn.shown if conn.patches else None
            key = (id(frame), id(base) if conn.patches else -1, conn.views)
            found = texts.get(key)
            if found is None:
                sent = patch_frame(frame, base, memo) if conn.patches else frame
                text = encode(protocol.client_frame(sent, conn.views))
                texts[key] = (frame, base, text)
            else:
                text = found[2]
            conn.shown = frame["display"]
            conn.push(text)

    def push_snapshots(self) -> None:
        """Send every connection a fresh snapshot (after a lobby change)."""
        for conn in list(self.connections):
            conn.push(self.snapshot(conn.seat, language=conn.language))

    # ----- seats ------------------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token`` (``None``: no seat)."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def public(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return {
            "id": self.id,
            "game": self.game.name,
            "options": dict(self.options),
            "players": self.players,
            "status": self.status,
            "game_number": self.number,
            "seq": self.seq,
            "seats": [s.public() for s in self.seats],
            "realtime": self.realtime,
        }


# ----- the manager ------------------------------------------------------------------------------


def _check_nickname(nickname: Any) -> str:
    if not isinstance(nickname, str) or not nickname.strip():
        raise LobbyError(400, "bad_request", ErrorText('"nickname" is a non-empty string'))
    text: str = nickname.strip()
    if len(text) > MAX_NICKNAME or not text.isprintable():
        raise LobbyError(
            400,
            "bad_request",
            ErrorText("a nickname has 1–{limit} printable characters", limit=MAX_NICKNAME),
        )
    return text


class TableManager:
    """All tables of the server: lobby operations, actions, bots, recovery."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        bot_workers: int = 2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = Store(sessions)
        #: commits the tables' actions, many in one transaction under load
        self.writer = LogWriter(sessions)
        #: what clocks are measured with (monotonic seconds)
        self.clock = clock
        self.tables: dict[int, LiveTable] = {}
        #: where bots think (threads: a search never blocks the event loop or other tables)
        self.pool = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="campfire-bot")
        self._tasks: set[asyncio.Task[None]] = set()
        #: several processes: the leases and the other processes (``None``: this one alone)
        self.cluster: Cluster | None = None
        #: what the server counts (:mod:`.metrics`; the app sets it, and the writer's too)
        self.metrics: NoMetrics = NoMetrics()

    # ----- loading ----------------------------------------------------------------------------

    def load(self, table_id: int) -> LiveTable | None:
        """The live table ``table_id``, rebuilt from the database if not in memory."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if self.cluster is not None and not self.cluster.claim(table_id):
            return None  # no such table (another process's table raises cluster.Elsewhere)
        found = self.store.table(table_id)
        if found is None:
            return None
        row, seats = found
        live = LiveTable(
            id=row.id,
            game=get_game(row.game),
            options=dict(row.options),
            players=row.players,
            seats=seats,
            store=self.store,
            status=row.status,
            number=row.game_number,
            seed=row.seed,
            now=self.clock,
        )
        settings = row.settings or {}
        live.control = TimeControl.read(settings.get("clock"))
        live.bot_after_leave = settings.get("bot_after_leave")
        live.realtime = bool(settings.get("realtime", False))
        live.realtime_asked = bool(settings.get("realtime_asked", live.realtime))
        if live.status == "open":
            live.realtime = live.measured()  # (a table stored before the rule: decided now)
        live.takeover_level = str(settings.get("takeover_level") or TAKEOVER_LEVEL)
        if row.closed is not None:
            live.closed = row.close_message or ""
        if row.game_number > 0 and row.seed is not None:
            live.build(self.store.actions(row.id, row.game_number))
            assert live.table is not None
            if live.status == "finished" and not live.table.state.is_terminal():
                text = self.store.record(row.id, row.game_number)
                meta = json.loads(text).get("meta", {}) if text else {}
                live.forfeit = meta.get("forfeit")
        self.tables[table_id] = live
        if self.cluster is not None and live.status == "running":
            self.metrics.takeovers()  # a running table not in memory here: another's, until now
            self._resume(live)  # taken over from another process (or its lease ran out)
        return live

    def recover(self) -> int:
        """Rebuild every unfinished table from its log and let its bots go on; return how many.

        With several processes: the running tables no process holds (their owner went away).
        """
        if self.cluster is None:
            ids = self.store.table_ids(["running"])
        else:
            ids = [i for i in self.cluster.orphans() if i not in self.tables]
        rebuilt = 0
        for table_id in ids:
            try:
                live = self.load(table_id)
            except LobbyError:  # another process took it first
                continue
            if live is not None:
                rebuilt += 1
                if self.cluster is None:  # (with several processes, load did it)
                    self._resume(live)
        return rebuilt

    def _resume(self, live: LiveTable) -> None:
        """Let a running table rebuilt from its log go on: its bots, clocks and windows."""
        self.kick(live)
        self.arm(live)
        self._absent(live)  # nobody is connected yet: as if everyone had left
        self._spawn(self._windows_locked(live))

    def drop(self, table_id: int) -> None:
        """Forget a table another process serves now (its lease was lost).

        Its bots and timers stop; its clients are closed with code 1012 and reconnect.
        """
        live = self.tables.pop(table_id, None)
        if live is None:
            return
        tasks = [live.bot_task, live.clock_task, *live.leave_tasks.values(), *live.window_tasks]
        for task in tasks:
            if task is not None:
                task.cancel()
        for conn in list(live.connections):
            conn.close(protocol.CLOSE_MOVED)
        live.connections.clear()

    def _absent(self, live: LiveTable) -> None:
        """Treat the people not connected to a running table as gone (:meth:`left`)."""
        for seat in live.seats:
            if seat.kind == "human":
                self.left(live, seat.seat)

    def get(self, table_id: int) -> LiveTable:
        """The live table ``table_id`` (:class:`LobbyError` 404 if there is none)."""
        live = self.load(table_id)
        if live is None:
            raise LobbyError(
                404, "unknown_table", ErrorText("there is no table {table}", table=table_id)
            )
        return live

    def listing(self, statuses: Sequence[str]) -> list[dict[str, Any]]:
        """The tables whose status is one of ``statuses``.

        A table this process has in memory as it is there; any other (another process's, or a
        finished one nobody asked for since the start) as the database has it, without
        rebuilding it.
        """
        ids = self.store.table_ids(statuses)
        found = [self.tables[i].public() if i in self.tables else self.store.public(i) for i in ids]
        return [t for t in found if t is not None]

    # ----- lobby ------------------------------------------------------------------------------

    def create(self, request: Mapping[str, Any]) -> tuple[LiveTable, dict[int, str]]:
        """Create a table from a lobby request; return it and the tokens of reserved seats."""
        allowed = {
            *("game", "players", "options", "seats", "clock"),
            *("bot_after_leave", "realtime", "takeover_level"),
        }
        extra = sorted(set(request) - allowed)
        if extra:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    "a new table takes {allowed} (got {got})",
                    allowed=", ".join(sorted(allowed)),
                    got=", ".join(extra),
                ),
            )
        name = request.get("game")
        if not isinstance(name, str):
            raise LobbyError(400, "bad_request", ErrorText('"game" names the game, e.g. "tracker"'))
        try:
            game = get_game(name)
        except CampfireError as exc:
            raise LobbyError(400, "bad_request", exc.text) from None
        players = request.get("players", game.min_players)
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not game.min_players <= players <= game.max_players
        ):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"players": {game} is played by {low}–{high}',
                    game=game.title_text(),
                    low=game.min_players,
                    high=game.max_players,
                ),
            )
        raw_options = request.get("options", {})
        if not isinstance(raw_options, dict):
            raise LobbyError(
                400, "bad_request", ErrorText('"options" is an object of option values')
            )
        try:
            options = game.options(raw_options).non_default()
        except CampfireError as exc:
            raise LobbyError(400, "bad_request", exc.text) from None
        except TypeError as exc:
            raise LobbyError(400, "bad_request", str(exc)) from None
        raw_seats = request.get("seats", [{"kind": "open"}] * players)
        if not isinstance(raw_seats, list) or len(raw_seats) != players:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText('"seats" is a list of {players} seats, one per player', players=players),
            )
        try:
            control = TimeControl.read(request.get("clock"))
        except CampfireError as exc:
            raise LobbyError(400, "bad_request", exc.text) from None
        after = request.get("bot_after_leave")
        if after is not None and (
            isinstance(after, bool) or not isinstance(after, int | float) or not 0 <= after <= 3600
        ):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"bot_after_leave" is the seconds (0–3600) a bot waits before it takes over '
                    "the seat of a person who left, or null (never)"
                ),
            )
        realtime = request.get("realtime", False)
        if not isinstance(realtime, bool) or (realtime and REALTIME_MODE not in game.play_modes):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"realtime" is true or false; real-time claim windows exist in games played '
                    "in the realtime-claims mode: {games}",
                    games=", ".join(g.name for g in all_games() if REALTIME_MODE in g.play_modes),
                ),
            )
        takeover = request.get("takeover_level", TAKEOVER_LEVEL)
        if takeover not in LEVELS:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"takeover_level" is the level of a bot that takes over a person\'s seat: '
                    "one of {levels}",
                    levels=", ".join(LEVELS),
                ),
            )
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for i, raw in enumerate(raw_seats):
            seat, token = self._seat_request(i, raw)
            seats.append(seat)
            if token is not None:
                tokens[i] = token
        live = LiveTable(0, game, options, players, seats, self.store, now=self.clock)
        live.control = control
        live.bot_after_leave = float(after) if after is not None else None
        live.realtime_asked = realtime
        live.realtime = live.measured()
        live.takeover_level = takeover
        live.id = self.store.create(game.name, options, players, seats, live.stored_settings())
        if self.cluster is not None:
            self.cluster.claim(live.id)
        self.tables[live.id] = live
        return live, tokens

    @staticmethod
    def _seat_request(i: int, raw: Any) -> tuple[SeatInfo, str | None]:
        shape = ErrorText(
            "seat {seat}: a seat is {open}, {bot} or {reserved}",
            seat=i,
            open='{"kind": "open"}',
            bot='{"kind": "bot", "level": "easy|medium|hard"}',
            reserved='{"kind": "reserved", "nickname": NAME}',
        )
        if not isinstance(raw, dict) or set(raw) - {"kind", "level", "nickname"}:
            raise LobbyError(400, "bad_request", shape)
        kind = raw.get("kind")
        if kind == "open" and set(raw) == {"kind"}:
            return SeatInfo(i), None
        if kind == "bot" and set(raw) <= {"kind", "level"}:
            level = raw.get("level", "easy")
            if level not in LEVELS:
                raise LobbyError(
                    400,
                    "bad_request",
                    ErrorText(
                        "seat {seat}: a bot's level is one of {levels}",
                        seat=i,
                        levels=", ".join(LEVELS),
                    ),
                )
            return SeatInfo(i, "bot", level=level), None
        if kind == "reserved" and set(raw) <= {"kind", "nickname"}:
            token = secrets.token_urlsafe(24)
            nickname = _check_nickname(raw.get("nickname"))
            return SeatInfo(i, "human", nickname=nickname, token_hash=hash_token(token)), token
        raise LobbyError(400, "bad_request", shape)

    def join(self, live: LiveTable, request: Mapping[str, Any]) -> tuple[int, str]:
        """Seat a person at an open seat (the one asked for, or the first); return seat, token."""
        if set(request) - {"nickname", "seat"}:
            raise LobbyError(
                400, "bad_request", ErrorText("joining takes a nickname and optionally a seat")
            )
        nickname = _check_nickname(request.get("nickname"))
        if live.status != "open":
            raise LobbyError(
                409,
                "not_open",
                ErrorText("table {table} has started: no seat can be taken", table=live.id),
            )
        wanted = request.get("seat")
        free = [s for s in live.seats if s.kind == "open"]
        if wanted is not None:
            if not isinstance(wanted, int) or isinstance(wanted, bool):
                raise LobbyError(400, "bad_request", ErrorText('"seat" is a seat number'))
            free = [s for s in free if s.seat == wanted]
            if not free:
                raise LobbyError(
                    409,
                    "seat_taken",
                    ErrorText(
                        "seat {seat} is not open; open seats: {open}",
                        seat=wanted,
                        open=", ".join(str(s.seat) for s in live.seats if s.kind == "open")
                        or ErrorText("none"),
                    ),
                )
        if not free:
            raise LobbyError(
                409, "table_full", ErrorText("table {table} has no open seat", table=live.id)
            )
        seat = free[0]
        token = secrets.token_urlsafe(24)
        seat.kind, seat.nickname, seat.token_hash = "human", nickname, hash_token(token)
        self.store.save_seat(live.id, seat)
        live.push_snapshots()
        return seat.seat, token

    def seat_for(self, live: LiveTable, token: str | None) -> int:
        """The seat of ``token`` at ``live`` (:class:`LobbyError` 401 if none)."""
        seat = live.seat_of(token) if token else None
        if seat is None:
            raise LobbyError(
                401,
                "bad_token",
                ErrorText("send the seat token this table gave you: Bearer TOKEN"),
            )
        return seat

    def leave(self, live: LiveTable, token: str | None) -> int:
        """Free the seat of ``token`` before the game starts; return the seat."""
        seat = self.seat_for(live, token)
        if live.status != "open":
            raise LobbyError(
                409,
                "not_open",
                ErrorText(
                    "a seat can be left only before the game starts; during a game, close the "
                    "connection (a bot takes over if the table has bot_after_leave)"
                ),
            )
        info = live.seats[seat]
        info.kind, info.nickname, info.token_hash = "open", None, None
        self.store.save_seat(live.id, info)
        live.push_snapshots()
        return seat

    def start(self, live: LiveTable, token: str | None, seed: int | None = None) -> None:
        """Start the first game once every seat is taken."""
        if any(s.kind == "human" for s in live.seats):
            self.seat_for(live, token)
        if live.status != "open":
            raise LobbyError(
                409, "not_open", ErrorText("table {table} has already started", table=live.id)
            )
        waiting = [str(s.seat) for s in live.seats if s.kind == "open"]
        if waiting:
            raise LobbyError(
                409,
                "seats_open",
                ErrorText(
                    "seats {seats} are still open: join or fill them", seats=", ".join(waiting)
                ),
            )
        self._new_game(live, seed)

    def rematch(self, live: LiveTable, token: str | None, seed: int | None = None) -> None:
        """Start the next game at a finished table, with the same seats."""
        if any(s.kind == "human" for s in live.seats):
            self.seat_for(live, token)
        if live.closed is not None:
            raise LobbyError(
                409,
                "table_closed",
                ErrorText(
                    "table {table} was closed by the server's operator: no game is played there "
                    "any more",
                    table=live.id,
                ),
            )
        if live.status != "finished":
            raise LobbyError(
                409,
                "not_finished",
                ErrorText("a rematch starts once the current game has finished"),
            )
        self._new_game(live, seed)

    def _new_game(self, live: LiveTable, seed: int | None) -> None:
        live.seed = seed if seed is not None else secrets.randbits(63)
        live.number += 1
        live.status = "running"
        live.forfeit = None
        realtime = live.measured()  # decided as the game starts, for the whole game
        if realtime != live.realtime:
            live.realtime = realtime
            self.store.save_settings(live.id, live.stored_settings())
        self.store.start(live.id, live.number, live.seed)
        live.build()
        live.push_snapshots()
        self.kick(live)
        self.arm(live)
        self._absent(live)
        self._spawn(self._windows_locked(live))

    def record(self, live: LiveTable, number: int | None) -> str:
        """The record of game ``number`` (default: the last finished) of a table.

        The game being played has none yet: 409 ``no_record``, also when it is the first and
        the default is asked for (the replays answer the same). A game the table has not had
        (nor any game at a table that has not started) is 404 ``no_record``.
        """
        if number is None:
            last = live.number if live.status == "finished" else live.number - 1
            number = max(last, 1)  # before the first game ends: the first
        text = self.store.record(live.id, number) if number >= 1 else None
        if text is None:
            playing = live.status == "running" and number == live.number
            raise LobbyError(
                409 if playing else 404,
                "no_record",
                ErrorText(
                    "table {table} has no finished game {number}; records exist once a game ends",
                    table=live.id,
                    number=number,
                ),
            )
        return text

    # ----- actions ----------------------------------------------------------------------------

    async def act(
        self,
        live: LiveTable,
        seat: int | None,
        message: Mapping[str, Any],
        received: float | None = None,
    ) -> None:
        """Apply a client's ``action`` message for ``seat``; raise :class:`ProtocolError`.

        ``received`` is when the server read the message (its clock): in a real-time claim
        window, a claim's reaction time is measured from it.
        """
        if received is None:
            received = self.clock()
        if seat is None:
            raise protocol.ProtocolError(
                "not_seated", ErrorText("spectators cannot act: join a seat")
            )
        if "seat" in message and message["seat"] != seat:
            raise protocol.ProtocolError(
                "wrong_seat",
                ErrorText(
                    "this connection plays seat {seat} only (got seat {got})",
                    seat=seat,
                    got=message["seat"],
                ),
            )
        async with live.lock:
            table = live.table
            if table is None or live.status != "running":
                raise protocol.ProtocolError(
                    "not_running",
                    ErrorText(
                        "table {table} has not started: no game is being played", table=live.id
                    )
                    if live.status == "open"
                    else ErrorText(
                        "table {table} was closed by the server's operator: {message}",
                        table=live.id,
                        message=live.closed,
                    )
                    if live.closed is not None
                    else ErrorText(
                        "table {table} has finished: no game is being played", table=live.id
                    ),
                )
            answered = message["seq"]
            if answered != live.seq and not live.offers.fits(seat, answered, live.seq):
                # another seat's step in between leaves an answer that still fits standing
                raise protocol.ProtocolError(
                    "stale",
                    ErrorText(
                        "the action answers sequence number {got}, but the table is at {seq}: "
                        "look at the latest frame and choose again",
                        got=answered,
                        seq=live.seq,
                    ),
                )
            raw = message["action"]
            if live.realtime and live.window is None:
                # a window the table's task has not opened yet (just rebuilt): open it now, so
                # that a reaction time is never the one the client wrote
                await self._windows(live)
            window = live.window
            if window is not None and seat in table.state.seats_to_act():
                notation = (
                    raw
                    if isinstance(raw, str)
                    else str(protocol.read_action(live.game, live.players, raw))
                )
                legal_now = [str(a) for a in table.state.legal_actions(seat)]
                raw = window.stamp(notation.strip(), received, legal_now)
            action = protocol.read_action(live.game, live.players, raw)
            try:
                table.state._check_turn(seat)
                if not table.state.is_legal(seat, action):
                    legal = table.state.legal_actions(seat)
                    shown = ", ".join(str(a) for a in legal[:8]) + (
                        ", ..." if len(legal) > 8 else ""
                    )
                    raise IllegalActionError(
                        "rules",
                        ErrorText(
                            "{action} is not legal now; legal: {legal}",
                            action=str(action),
                            legal=shown or ErrorText("none"),
                        ),
                    )
            except CampfireError as exc:
                raise protocol.ProtocolError("illegal", exc.text) from None
            await self._apply(live, seat, action, None, None)
        self.kick(live)

    async def _apply(
        self,
        live: LiveTable,
        seat: int,
        action: Action,
        seconds: float | None,
        choices: int | None,
    ) -> None:
        """Accept → store → broadcast, with the table's lock held.

        The step is applied and its frames built at once (the engine's step and the frames
        take well under a millisecond or two); its commit (:class:`~.writer.LogWriter`, in a
        thread) is awaited before any frame goes out.
        """
        assert live.table is not None
        table = live.table
        accepted = time.perf_counter()
        try:
            table.play(seat, action, seconds=seconds, choices=choices)
            pending, live.pending = live.pending, []
            for entry in pending:
                await self.writer.submit(entry)
            if any(entry.record is not None for entry in pending):
                live.status = "finished"  # only now: the record can be read back
        except LeaseLost:
            # another process owns the table now and goes on from the log (cluster.py): this
            # one stops acting for it, and its clients reconnect there (closed with 1012)
            live.outbox.clear()
            live.pending.clear()
            if self.tables.get(live.id) is live:
                self.drop(live.id)
            raise
        except Exception:
            # nothing was broadcast; if the step was applied but not stored, the log is the
            # truth: rebuild the table from it
            live.outbox.clear()
            live.pending.clear()
            log.exception(
                "table %s: an action could not be stored; rebuilding from the log", live.id
            )
            self._rebuild(live)
            raise
        live.flush()
        self.metrics.action(time.perf_counter() - accepted)
        self.arm(live)
        await self._windows(live)

    def _rebuild(self, live: LiveTable) -> None:
        found = self.store.table(live.id)
        if found is not None:
            row, _ = found
            live.status = row.status
            live.build(self.store.actions(live.id, live.number))

    # ----- clocks -----------------------------------------------------------------------------

    def arm(self, live: LiveTable) -> None:
        """(Re)start the timer of the table's earliest running clock (nothing if none runs)."""
        task = live.clock_task
        if task is not None and not task.done():
            if task is asyncio.current_task():
                return  # the timer itself acted: its loop looks at the clocks again
            task.cancel()
        live.clock_task = None
        if live.clocks is None or live.clocks.deadline() is None or live.status != "running":
            return
        live.clock_task = self._spawn(self._clock_loop(live))

    async def _clock_loop(self, live: LiveTable) -> None:
        """Sleep until the earliest deadline; apply the time-out rule to whoever reached it."""
        for _ in range(100_000):  # bounded: each round is a time-out or a clock change
            clocks = live.clocks
            deadline = clocks.deadline() if clocks is not None else None
            if clocks is None or deadline is None or live.status != "running":
                return
            await asyncio.sleep(max(0.0, deadline[0] - self.clock()))
            async with live.lock:
                if live.clocks is not clocks or live.status != "running":
                    return
                expired = clocks.expired(self.clock())
                if expired:
                    await self._time_out(live, expired[0])
            self.kick(live)

    async def _time_out(self, live: LiveTable, seat: int) -> None:
        """``seat`` ran out of time: the table's rule applies (the lock is held)."""
        assert live.table is not None and live.clocks is not None
        table, rule = live.table, live.control.on_timeout
        live.clocks.timed_out(seat, self.clock())
        log.info("table %s: seat %s ran out of time (%s)", live.id, seat, rule)
        if rule == "loss":
            scores = [0.0 if s == seat else 1.0 for s in range(live.players)]
            outcome = Outcome.from_scores(
                scores, details=[{"lost_on_time": s == seat} for s in range(live.players)]
            )
            live.forfeit = {
                "seat": seat,
                "seq": live.seq,
                "reason": "time",
                "outcome": outcome.to_json(),
            }
            record = table.match.record(live.record_meta())
            self.store.finish(live.id, live.number, record.dumps())
            live.status = "finished"
            live.clocks.sync([], self.clock())
            live.push_snapshots()
        elif rule == "bot":
            live.next_cause[seat] = "timeout-bot"
            self.take_over(live, seat)
        else:
            legal = table.state.legal_actions(seat)
            window = live.window
            if window is not None and seat in window.seats:
                # in a real-time claim window a claim's time is the seat's own reaction: a seat
                # out of time has none, so it passes, as a silent seat does when the window closes
                legal = [a for a in legal if str(a) == "pass"] or legal
            rng = random.Random(f"{live.seed}/timeout/{live.number}/{live.seq}/{seat}")
            live.next_cause[seat] = "timeout"
            await self._apply(live, seat, rng.choice(legal), None, None)

    # ----- real-time claim windows --------------------------------------------------------------

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
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

    async def _windows_locked(self, live: LiveTable) -> None:
        async with live.lock:
            await self._windows(live)

    async def _windows(self, live: LiveTable) -> None:
        """Open or close the table's claim window after a step (the lock is held)."""
        table = live.table
        to_act: list[int] = []
        if table is not None and live.status == "running" and not table.state.is_terminal():
            to_act = list(table.state.seats_to_act())
        window = live.window
        if window is not None and table is not None and table.last_step is not None:
            window.answered.add(table.last_step.seat)
        if window is not None and not window.still_open(to_act):
            live.window = None
            current = asyncio.current_task()
            for task in live.window_tasks:
                if task is not current:
                    task.cancel()
            live.window_tasks = []
            self.kick(live)
        if live.window is None and live.realtime and to_act and table is not None:
            # a window opens when several seats answer at once; after a restart one seat may be
            # left to answer a window: its legal answers carry reaction times
            timed = window_length([str(a) for a in table.state.legal_actions(to_act[0])])
            if len(to_act) > 1 or timed is not None:
                await self._open_window(live, to_act)

    async def _open_window(self, live: LiveTable, to_act: list[int]) -> None:
        """Open a claim window now (bots decide; whoever has not answered passes at its close).

        Bots answer after their reaction times; the window closes after the rules' longest time.
        """
        assert live.table is not None
        table = live.table
        legal = [str(a) for a in table.state.legal_actions(to_act[0])]
        length = window_length(legal) or ARRIVAL_WINDOW_SECONDS
        window = live.window = ClaimWindow(self.clock(), length, frozenset(to_act))
        # a window opened again after a restart: answers received from now on come after
        # those it already logged, so they are stamped after them too
        window.last_ms = answered_ms([str(a) for _, a in table.match.actions])
        for seat in to_act:
            if seat not in table.agents:
                continue
            try:
                action, _, _ = await self.think(table, seat)
            except AgentError as exc:
                log.error("table %s: the bot of seat %s failed: %s", live.id, seat, exc)
                continue
            timed = split_timed(str(action))[1]
            own = getattr(table.agents[seat], "last_reaction_ms", None)
            ms = float(timed if timed is not None else own if isinstance(own, int | float) else 0)
            live.window_tasks.append(
                self._spawn(self._bot_answer(live, window, seat, str(action), ms))
            )
        live.window_tasks.append(self._spawn(self._close_window(live, window)))

    async def _bot_answer(
        self, live: LiveTable, window: ClaimWindow, seat: int, notation: str, ms: float
    ) -> None:
        await asyncio.sleep(max(0.0, window.opened + ms / 1000 - self.clock()))
        async with live.lock:
            table = live.table
            if live.window is not window or table is None:
                return
            if seat not in table.state.seats_to_act():
                return
            legal = [str(a) for a in table.state.legal_actions(seat)]
            stamped = window.stamp(notation, self.clock(), legal, own_ms=ms)
            await self._apply(live, seat, live.game.parse_action(stamped), None, None)

    async def _close_window(self, live: LiveTable, window: ClaimWindow) -> None:
        await asyncio.sleep(max(0.0, window.closes - self.clock()))
        async with live.lock:
            for _ in range(live.players):
                table = live.table
                if live.window is not window or table is None or live.status != "running":
                    return
                seat = table.state.seats_to_act()[0]
                legal = table.state.legal_actions(seat)
                passing = [a for a in legal if str(a) == "pass"] or legal[:1]
                live.next_cause[seat] = "window-closed"
                await self._apply(live, seat, passing[0], None, None)

    # ----- bots taking over a person's seat ----------------------------------------------------

    def take_over(self, live: LiveTable, seat: int) -> None:
        """Seat a bot for the person of ``seat`` (out of time or gone) until they return."""
        table, info = live.table, live.seats[seat]
        if table is None or info.kind != "human" or info.takeover or live.status != "running":
            return
        seed = random.Random(f"{live.seed}/{seat}/takeover/{live.seq}").getrandbits(62)
        agent = make_agent(live.takeover_level, live.game, seat, live.players, live.options, seed)
        for step in table.steps:  # the bot learns the game so far as the seat saw it
            agent.observe(visible_events(step.events, seat))
        table.agents[seat] = agent
        info.takeover = True
        if live.clocks is not None:
            live.clocks.sync(live.people_to_act(), self.clock())
        live.push_snapshots()
        self.kick(live)
        self.arm(live)

    def hand_back(self, live: LiveTable, seat: int) -> None:
        """The person of ``seat`` is back: the bot leaves their seat (the lock is held)."""
        info = live.seats[seat]
        task = live.leave_tasks.pop(seat, None)
        if task is not None:
            task.cancel()
        if not info.takeover or live.table is None:
            return
        live.table.agents.pop(seat, None)
        info.takeover = False
        live.next_cause.pop(seat, None)
        if live.clocks is not None:
            if live.control.kind == "game" and live.clocks.remaining(seat, self.clock()) <= 0:
                # back with no time left: a game clock gets one increment (or a second) to act
                live.clocks.remaining_set(seat, max(1.0, live.control.increment))
            live.clocks.sync(live.people_to_act(), self.clock())
        live.push_snapshots()
        self.arm(live)

    def left(self, live: LiveTable, seat: int) -> None:
        """A person's last connection to ``seat`` closed: a bot takes over after the grace."""
        if live.bot_after_leave is None or live.seats[seat].kind != "human":
            return
        if any(c.seat == seat for c in live.connections) or seat in live.leave_tasks:
            return
        live.leave_tasks[seat] = self._spawn(self._take_over_later(live, seat))

    async def _take_over_later(self, live: LiveTable, seat: int) -> None:
        assert live.bot_after_leave is not None
        await asyncio.sleep(live.bot_after_leave)
        async with live.lock:
            live.leave_tasks.pop(seat, None)
            if not any(c.seat == seat for c in live.connections):
                self.take_over(live, seat)

    # ----- bots -------------------------------------------------------------------------------

    def kick(self, live: LiveTable) -> None:
        """Let the table's bots play, if one is to act and none is already thinking."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if live.table is None or live.status != "running" or live.table.agent_to_act() is None:
            return
        live.bot_task = self._spawn(self._drive(live))

    async def think(self, table: Table, seat: int) -> tuple[Action, float, int]:
        """The bot of ``seat`` decides, in a thread of the bot pool (``Table.decide``).

        The decisions waiting for a thread and each one's time are counted (:mod:`.metrics`).
        """
        metrics = self.metrics
        metrics.bot_waiting(1)

        def decide() -> tuple[Action, float, int]:
            metrics.bot_waiting(-1)
            started = time.perf_counter()
            try:
                return table.decide(seat)
            finally:
                metrics.bot_thought(time.perf_counter() - started)

        return await asyncio.get_running_loop().run_in_executor(self.pool, decide)

    async def _drive(self, live: LiveTable) -> None:
        while True:
            async with live.lock:
                table = live.table
                if table is None or live.status != "running":
                    return
                seat = table.agent_to_act()
                if seat is None or live.window is not None:  # windows time their bots
                    return
                try:
                    action, spent, choices = await self.think(table, seat)
                except AgentError as exc:
                    log.error("table %s: the bot of seat %s failed: %s", live.id, seat, exc)
                    return
                if table is not live.table:  # pragma: no cover - rebuilt meanwhile
                    continue
                await self._apply(live, seat, action, spent, choices)
            await asyncio.sleep(0)  # let people's actions in between bots' moves

    async def close(self) -> None:
        """Stop the bots (at shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.writer.close()
        self.pool.shutdown(wait=False, cancel_futures=True)
