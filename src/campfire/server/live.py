"""One table in memory: its lobby state, its ``Table`` once started, its connections, its frames.

A :class:`LiveTable` holds what the services of :mod:`.tables` work on; it does no I/O of its own
(storage and sending are the pipeline's, :mod:`.pipeline`). After each step the pipeline asks it,
in this order, to note the step (:meth:`LiveTable.note_step`: its cause, the clocks, what each
seat may answer), for the step's log entry (:meth:`LiveTable.log_entry`), and for each
connection's frame (:meth:`LiveTable.frames`), which it sends with :meth:`LiveTable.flush` once
the entry is committed.
"""

from __future__ import annotations

import asyncio
import hmac
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campfire.agents import make_agent
from campfire.core import Action, Agent, Event, Game
from campfire.core.events import visible_events
from campfire.core.present import Display
from campfire.core.table import Step, Table
from campfire.i18n import DEFAULT_LANGUAGE, translator

from . import protocol
from .clocks import Clocks, TimeControl
from .connection import Connection
from .offers import Offers
from .patches import Memo, patch_frame
from .rematch import RematchProposal
from .seating import TAKEOVER_LEVEL, SeatInfo, hash_token
from .storage import Storage
from .store import LogEntry
from .windows import ClaimWindow
from .wire import EncodedParts
from .writer import PendingAction

__all__ = ["MEASURED_FROM_PEOPLE", "REALTIME_MODE", "LiveTable", "Offers", "Outbox"]

#: The play mode whose simultaneous answers the server times (``Game.play_modes``).
REALTIME_MODE = "realtime-claims"
#: From this many people at a table on, a game played in :data:`REALTIME_MODE` always has its
#: claim windows timed by the server: a result shared between people is never decided by a
#: reaction time a client wrote.
MEASURED_FROM_PEOPLE = 2
#: The hints of the game being played that the database keeps with the table (a seat asks at
#: most one each ten seconds after its first three: a long game stays far below)
MAX_HINTS_KEPT = 2000

#: The frames of one step: each connection with the frame it is to be sent.
Outbox = list[tuple[Connection, dict[str, Any]]]


@dataclass
class LiveTable:
    """One table in memory: its lobby state, its ``Table`` (once started), its connections."""

    id: int
    game: Game[Any]
    options: dict[str, Any]
    players: int
    seats: list[SeatInfo]
    store: Storage
    status: str = "open"
    number: int = 0
    seed: int | None = None
    table: Table | None = None
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
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
    #: the wall clock (unix seconds) of a turn-based table's deadlines
    wall: Callable[[], float] = time.time
    #: a turn-based table's deadlines as stored: ``[[seat, unix seconds], ...]`` (or ``None``)
    turn_saved: list[list[float]] | None = None
    #: when the table was resumed or last stepped (:attr:`now`; :mod:`.turns` drops idle ones)
    touched: float = 0.0
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
    #: a player may ask to take back their last move, which the other people accept
    #: (:mod:`.undo`; never at a real-time table)
    undo: bool = False
    #: a player may ask what the hard level would play (:mod:`.hints`; off unless asked for,
    #: never at a real-time table, and never at a rated table when there are such)
    hints: bool = False
    #: the table's games change its players' ratings (:mod:`.ratings`; signed-in players only)
    rated: bool = False
    #: the hints given at this table: (game number, sequence number, seat); the record of a
    #: game lists its own (``meta.hints``); the database keeps the running game's with the
    #: table's settings (:meth:`stored_settings`)
    hints_used: list[tuple[int, int, int]] = field(default_factory=list)
    #: what each seat to act may do, and since which step (what an action may answer)
    offers: Offers = field(default_factory=Offers)
    #: the open claim window (``None``: none)
    window: ClaimWindow | None = None
    window_tasks: list[asyncio.Task[None]] = field(default_factory=list)
    #: the operator's message if the table was closed (``campfire admin close``; it is then
    #: finished for good: no rematch); ``None``: not closed
    closed: str | None = None
    #: when each seat's last connection closed (the server's clock, :attr:`now`); a person's
    #: seat that is neither here nor connected has not come since this process loaded the table
    away_since: dict[int, float] = field(default_factory=dict)
    #: each seat's language, that of its last connection (a "your turn" e-mail's, :mod:`.turns`)
    languages: dict[int, str] = field(default_factory=dict)
    #: the turns already told by e-mail: ``(game number, sequence number, seat)`` (:mod:`.turns`)
    noticed: set[tuple[int, int, int]] = field(default_factory=set)
    #: the open rematch proposal of a finished game (:mod:`.rematch`; ``None``: none)
    rematch: RematchProposal | None = None
    #: the table and sequence number at which the claim windows last followed a step
    #: (``ClaimWindows.after_step``; ``None``: not since the table was loaded)
    windows_after: tuple[Table | None, int] | None = None
    #: the JSON of the display parts the frames of the last steps held (written once each)
    parts: EncodedParts = field(default_factory=EncodedParts)

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
            "undo": self.undo,
            "hints": self.hints,
            "rated": self.rated,
        }

    def stored_settings(self) -> dict[str, Any]:
        """What the database keeps of the settings, and the hints of the game being played.

        That is :meth:`settings`, the request's wish, and the hints used in the running game
        (``[seq, seat]`` each), which its record lists once it ends (:mod:`.hints`): the table
        remembers them across restarts.
        """
        hints = [[q, s] for q, s in self.game_hints()][:MAX_HINTS_KEPT]
        return {**self.settings(), "realtime_asked": self.realtime_asked, "hints_used": hints}

    def game_hints(self) -> list[tuple[int, int]]:
        """The hints used in the game being played: ``(seq, seat)`` each, in the order asked."""
        return [(q, s) for n, q, s in self.hints_used if n == self.number]

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
        self.table = table
        self.offers = Offers()
        self.note_offers(None)
        last = actions[-1].clocks if actions else None
        self.clocks = Clocks(self.control, self.players, last)
        self.clocks.sync(self.people_to_act(), self.now())
        if self.control.kind == "turn" and self.turn_saved:  # the time away counts
            self.clocks.restore(self.turn_saved, self.now(), self.wall())

    def turn_state(self) -> list[list[float]] | None:
        """A turn-based table's deadlines (:meth:`.Clocks.deadlines`; ``None``: not one)."""
        if self.control.kind != "turn":
            return None
        if self.clocks is None or self.status != "running":
            return []
        return self.clocks.deadlines(self.now(), self.wall())

    # ----- after a step (asked by the pipeline, in this order) ----------------------------------

    def note_step(self, step: Step) -> None:
        """Note ``step`` at the table: its cause, the clocks, what each seat may answer.

        The mover's clock stops and those of the seats to act now run.
        """
        cause = self.next_cause.pop(step.seat, None)
        if cause is None and self.seats[step.seat].takeover:
            cause = "takeover"
        if cause is not None:
            self.causes[step.index] = cause
        self.touched = now = self.now()
        if self.clocks is not None:
            self.clocks.moved(step.seat, now)
            self.clocks.sync(self.people_to_act(), now)
        self.note_offers(step.seat)

    def log_entry(self, step: Step) -> PendingAction:
        """The action log's entry of ``step`` (with the game's record if it ended the game)."""
        table = self.table
        assert table is not None
        record = table.match.record(self.record_meta()) if table.state.is_terminal() else None
        return PendingAction(
            self.id,
            self.number,
            step.index,
            step.seat,
            str(step.action),
            record.dumps() if record is not None else None,
            self.causes.get(step.index),
            self.clocks.left(self.now()) if self.clocks is not None else None,
            turn=self.turn_state(),
        )

    def frames(self, step: Step) -> Outbox:
        """Each connection's ``delta`` frame of ``step`` (one built per seat and language).

        The events are what each seat saw of the step (the table's subscriptions, :attr:`seen`).
        """
        connections = list(self.connections)
        readers: dict[str, dict[int | None, dict[str, Any]]] = {}  # language -> seat -> frame
        for conn in connections:
            readers.setdefault(conn.language, {})[conn.seat] = {}
        ends = (self._outcome(), self.clocks_json())  # the same in every frame of the step
        for language, seats in readers.items():
            # the names and the language in force once for all the readers of a language
            names = self.names(language)
            with protocol.speaking(language):
                for seat in seats:
                    seats[seat] = self.delta(seat, step, language, names, ends)
        return [(conn, readers[conn.language][conn.seat]) for conn in connections]

    def note_offers(self, mover: int | None) -> None:
        """Note in :attr:`offers` what each seat to act may do now (after ``mover``'s step)."""
        table = self.table
        assert table is not None
        state = table.state
        to_act = [] if state.is_terminal() else state.seats_to_act()
        self.offers.note(self.seq, {s: state.legal_actions(s) for s in to_act}, mover)

    def windows_followed(self) -> bool:
        """Whether the claim windows have followed the table's current position already.

        ``ClaimWindows.after_step`` opens the window a position needs (or none) from the
        position alone: once it has run at a position of this ``Table``, running it again
        there before the next step changes nothing. A table rebuilt or a new game is a new
        ``Table``: its windows have not followed it yet.
        """
        after = self.windows_after
        return after is not None and after[0] is self.table and after[1] == self.seq

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
        if self.rated:
            meta["rated"] = True
        used = [{"seq": q, "seat": s} for q, s in self.game_hints()]
        if used:
            meta["hints"] = used
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
        self, seat: int | None, language: str = DEFAULT_LANGUAGE, names: Sequence[str] = ()
    ) -> tuple[Mapping[str, Any], Display, list[dict[str, Any]]]:
        """A seat's view, display model (the dataclass) and legal actions as JSON.

        ``names`` are :meth:`names` in ``language`` (empty: found here).
        """
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
        mode = REALTIME_MODE if self.realtime else "turns"
        display = protocol.seat_display(
            self.game, view, legal, names or self.names(language), language, mode
        )
        return view, display, protocol.legal_json(self.game, self.players, legal, display.actions)

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
        names: Sequence[str] = (),
    ) -> dict[str, Any]:
        return protocol.seat_step(
            self.game,
            names or self.names(language),
            seat,
            step.index + 1,
            step.seat,
            events,
            self.causes.get(step.index),
            language,
        )

    def delta(
        self,
        seat: int | None,
        step: Step,
        language: str = DEFAULT_LANGUAGE,
        names: Sequence[str] = (),
        ends: tuple[dict[str, Any] | None, dict[str, Any] | None] | None = None,
    ) -> dict[str, Any]:
        """The ``delta`` frame of ``step`` for ``seat``, its texts in ``language``.

        Its display model is the :class:`~campfire.core.present.Display` itself (encoded by
        :func:`.wire.encode` as its ``to_json()``). ``names`` are :meth:`names` in
        ``language`` (empty: found here); ``ends`` the outcome and the clocks as every seat's
        frame of the step carries them (``None``: found here).
        """
        names = names or self.names(language)
        outcome, clocks = ends if ends is not None else (self._outcome(), self.clocks_json())
        view, display, legal = self._seat_model(seat, language, names)
        return protocol.delta_frame(
            table=self.id,
            game_number=self.number,
            step=self._step_for(seat, step, self.seen.get(seat, []), language, names),
            view=view,
            display=display,
            legal=legal,
            outcome=outcome,
            clocks=clocks,
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
            names = self.names(language)
            with protocol.speaking(language):
                view, display, legal = self._seat_model(seat, language, names)
                steps = self.table.steps[since:] if since is not None and since <= self.seq else []
                missed = [
                    self._step_for(seat, s, visible_events(s.events, seat), language, names)
                    for s in steps
                ]
            outcome = self._outcome()
        return protocol.snapshot_frame(
            table=self.id,
            game=self.game.name,
            status=self.status,
            game_number=self.number,
            seq=self.seq,
            seat=seat,
            seats=self.seats_json(),
            view=view,
            display=display,
            legal=legal,
            missed=missed,
            outcome=outcome,
            clocks=self.clocks_json() if self.table is not None else None,
            rematch=self.rematch.to_json(self.now()) if self.rematch is not None else None,
            hints=self.game_hints()[:MAX_HINTS_KEPT],
        )

    def flush(self, outbox: Outbox) -> None:
        """Send the frames of a step (:meth:`frames`), each encoded once for all its connections.

        A connection of patches gets its frame's display model as the changes from the one it
        was sent last (:attr:`Connection.shown`): built and encoded once for all connections
        that hold the same model. The parts the seats' models share (the board, the panels)
        are written once for all the frames that hold them (:attr:`parts`).
        """
        # a frame (and the model a patch starts from), by identity -> the text; each key's
        # objects are kept in the value, so that their ids stay theirs until the loop ends
        texts: dict[tuple[int, int, bool], tuple[Any, Any, str]] = {}
        memo: Memo = {}  # the changes between the parts the seats' models share, found once
        self.parts.next_round()
        for conn, frame in outbox:
            base = conn.shown if conn.patches else None
            key = (id(frame), id(base) if conn.patches else -1, conn.views)
            found = texts.get(key)
            if found is None:
                sent = patch_frame(frame, base, memo) if conn.patches else frame
                text = self.parts.encode(protocol.client_frame(sent, conn.views))
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

    def presence(self) -> list[dict[str, Any] | None]:
        """Each seat's connection as the server measures it (``None``: a bot's or open seat).

        ``connected``: a connection of the seat is open now; ``away_ms``: how long ago the
        seat's last connection closed (``None``: connected, or not come yet).
        """
        here = {c.seat for c in self.connections if c.seat is not None}
        now = self.now()
        out: list[dict[str, Any] | None] = []
        for s in self.seats:
            if s.kind != "human":
                out.append(None)
                continue
            since = None if s.seat in here else self.away_since.get(s.seat)
            away = None if since is None else max(0, round((now - since) * 1000))
            out.append({"connected": s.seat in here, "away_ms": away})
        return out

    def absent(self) -> list[SeatInfo]:
        """The people's seats with no open connection (not come yet, or gone)."""
        here = {c.seat for c in self.connections if c.seat is not None}
        return [s for s in self.seats if s.kind == "human" and s.seat not in here]

    def absent_seat(self, seat: int) -> bool:
        """Whether no connection of ``seat`` is open."""
        return not any(c.seat == seat for c in self.connections)

    def seats_json(self) -> list[dict[str, Any]]:
        """The seats as frames show them: :meth:`SeatInfo.public` with their presence."""
        return [
            {**s.public(), "presence": p} for s, p in zip(self.seats, self.presence(), strict=True)
        ]

    def arrived(self, seat: int | None) -> None:
        """A connection of ``seat`` opened: the others hear of it (a ``presence`` frame)."""
        if seat is not None:
            self.away_since.pop(seat, None)
            self.push_presence()

    def gone(self, seat: int | None) -> None:
        """A connection of ``seat`` closed: if it was the seat's last, the others hear of it."""
        if seat is None or any(c.seat == seat for c in self.connections):
            return
        self.away_since[seat] = self.now()
        self.push_presence()

    def push_presence(self) -> None:
        """Send the seats' presence to the connections that asked for it (``presence=1``)."""
        frame = protocol.presence_frame(self.id, self.presence())
        for conn in list(self.connections):
            if conn.presence:
                conn.push(frame)

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
            "rated": self.rated,
        }
