"""Taking back a move: a request the other people at the table accept (docs/protocol.md, "Undo").

A table whose settings allow it (``undo``; never a real-time table) lets a player who has just
moved ask to take that step back (an ``undo`` message). The request is refused, with a code and
a message saying why, when the table does not allow it (``undo_off``), the step was part of a
simultaneous step or the table plays in real time (``undo_realtime``), the step showed a seat
something it did not know (``undo_revealed``: :func:`revealed`), or the last step is not the
asker's own choice (``undo_moved``: someone else has moved since, or a clock or a bot chose it).

Every other person's seat is asked (an ``undo`` frame, ``status: "asked"``, to every connection,
spectators included); bots accept at once, and so does a bot that plays a person's seat while
they are away (:meth:`TableUndo.taken_over`: also when it takes the seat over while the request
waits for that person). When all have accepted (``undo_answer``), the game is
rewound: the step's row is deleted from the action log (:meth:`~.storage.Storage.truncate`) and
the table rebuilt from the log that remains, as a restart would (:meth:`.live.LiveTable.build`),
so the undone step appears in no record and the log stays the game's true history. Every
connection then gets a fresh snapshot, and an ``undo`` frame with ``status: "accepted"``. A
decline (``"declined"``), a new step at the table (``"cancelled"``) or :data:`UNDO_SECONDS`
without every answer (``"expired"``) ends the request.

Bounds: one open request per table (``undo_pending``), and each seat may ask :data:`BURST`
times at once, then once per :data:`EVERY` seconds (``rate_limited``). An open request lives in
this process's memory only: a restart forgets it (nothing was changed yet).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campfire.core import ErrorText, Game, State
from campfire.core.present import Display
from campfire.core.records import Match
from campfire.core.table import Step

from . import protocol
from .hub import Hub
from .live import LiveTable
from .security import Bucket
from .writer import LeaseLost

__all__ = ["BURST", "EVERY", "UNDO_SECONDS", "TableUndo", "UndoRequest", "revealed"]

log = logging.getLogger(__name__)

#: how long a request waits for every answer (seconds)
UNDO_SECONDS = 60.0
#: requests a seat may make at once before the rate applies
BURST = 3
#: seconds for each further request of a seat
EVERY = 20.0


@dataclass
class UndoRequest:
    """An open request to take back a step.

    ``seq`` is the table's sequence number when it was asked: the step taken back is the one
    that brought the table there (its ``step.seq`` in frames).
    """

    seat: int
    game_number: int
    seq: int
    #: the people's seats whose answer is awaited
    waiting: set[int]
    #: when it expires (the services' clock)
    expires: float
    task: asyncio.Task[None] | None = field(default=None, repr=False)


def _faces(display: Display) -> Counter[str]:
    """The face-up cards a display shows, by their full name (a card twice counts twice)."""
    return Counter(
        card.label
        for zone in display.zones
        for card in zone.cards
        if card.face_up and not card.empty and card.label
    )


def revealed(game: Game[Any], names: list[str], before: State, after: State, step: Step) -> bool:
    """Whether ``step`` (from ``before`` to ``after``) showed a seat something it did not know.

    True when the game does not let a person take the step back (:meth:`Game.undoable`: by
    default, one of its events was private to some seats — a draw, a peek), or when after the
    step some seat (or a spectator) sees a card face up that it did not see before and that
    the mover did not see before either (a card turned up, a new card dealt). A card the mover
    played from their own hand is no news of that kind: the people who saw it agree to the
    undo knowingly.
    """
    if not game.undoable(step.seat, step.action, step.events):
        return True
    known = _faces(protocol.seat_display(game, before.view(step.seat), [], names))
    for viewer in [*range(before.num_players), None]:
        was = _faces(protocol.seat_display(game, before.view(viewer), [], names))
        now = _faces(protocol.seat_display(game, after.view(viewer), [], names))
        if (now - was) - known:
            return True
    return False


def _refused(code: str, text: ErrorText) -> protocol.ProtocolError:
    return protocol.ProtocolError(code, text)


class TableUndo:
    """The undo requests of every table of a server (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        #: seconds a request waits for its answers
        self.seconds = UNDO_SECONDS
        self.requests: dict[int, UndoRequest] = {}
        self._buckets: dict[tuple[int, int], Bucket] = {}

    # ----- frames -----------------------------------------------------------------------------

    def frame(
        self, live: LiveTable, request: UndoRequest, status: str, by: int | None = None
    ) -> dict[str, Any]:
        """The ``undo`` frame of ``request`` with ``status`` (``by``: who declined)."""
        left = max(0.0, request.expires - self.hub.clock()) if status == "asked" else None
        return {
            "type": "undo",
            "table": live.id,
            "game_number": request.game_number,
            "seq": request.seq,
            "seat": request.seat,
            "status": status,
            "waiting": sorted(request.waiting),
            "by": by,
            "expires_ms": round(left * 1000) if left is not None else None,
        }

    def _send(self, live: LiveTable, frame: Mapping[str, Any]) -> None:
        for conn in list(live.connections):
            conn.push(dict(frame))

    def pending(self, live: LiveTable) -> dict[str, Any] | None:
        """The ``undo`` frame of the table's open request (``None``: none), for a new connection."""
        request = self._open(live)
        return self.frame(live, request, "asked") if request is not None else None

    # ----- requests ---------------------------------------------------------------------------

    def _open(self, live: LiveTable) -> UndoRequest | None:
        """The table's open request, ended first if it expired or the table moved on."""
        request = self.requests.get(live.id)
        if request is None:
            return None
        if live.number != request.game_number or live.seq != request.seq:
            self._end(live, request, "cancelled")
            return None
        if self.hub.clock() >= request.expires:
            self._end(live, request, "expired")
            return None
        return request

    def _end(
        self, live: LiveTable, request: UndoRequest, status: str, by: int | None = None
    ) -> None:
        if self.requests.get(live.id) is request:
            del self.requests[live.id]
        task = request.task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._send(live, self.frame(live, request, status, by))

    def asked(self, table_id: int) -> bool:
        """Whether a request to take back a move is open at the table."""
        return table_id in self.requests

    def moved(self, live: LiveTable) -> None:
        """A step was played at ``live``: its open request (if any) is cancelled."""
        self._open(live)

    def taken_over(self, live: LiveTable, seat: int) -> None:
        """A bot took over the person of ``seat`` (the lock is held): it accepts.

        As every bot does, it accepts the open request that waits for that seat's answer (in
        a task of its own, under the table's lock).
        """
        request = self._open(live)
        if request is not None and seat in request.waiting:
            self.hub.spawn(self._accept_for(live, request, seat))

    async def _accept_for(self, live: LiveTable, request: UndoRequest, seat: int) -> None:
        async with live.lock:
            if self._open(live) is not request or seat not in request.waiting:
                return  # answered, ended or moved on meanwhile
            if not live.seats[seat].takeover:
                return  # the person came back first: the answer is theirs again
            await self._accepted(live, request, seat)

    async def _accepted(self, live: LiveTable, request: UndoRequest, seat: int) -> None:
        """``seat`` accepted ``request``: the others are asked on, or the step is taken back."""
        request.waiting.discard(seat)
        if request.waiting:
            self._send(live, self.frame(live, request, "asked"))
            return
        await self._rewind(live, request)

    def check(self, live: LiveTable, seat: int) -> Step:
        """The step ``seat`` may ask to take back now (the lock is held); else ProtocolError."""
        table = live.table
        if table is None or live.status != "running":
            raise _refused(
                "not_running",
                ErrorText("table {table}: no game is being played", table=live.id),
            )
        if not live.undo:
            raise _refused(
                "undo_off",
                ErrorText("this table does not allow taking back a move (its undo setting)"),
            )
        if live.realtime:
            raise _refused("undo_realtime", ErrorText("a move cannot be taken back in real time"))
        step = table.steps[-1] if table.steps else None
        if step is None or step.seat != seat:
            raise _refused(
                "undo_moved",
                ErrorText("only your own last move can be taken back, before anyone else moves"),
            )
        if live.causes.get(step.index) is not None:
            raise _refused(
                "undo_moved",
                ErrorText("your last move was chosen for you (a clock or a bot): it stays"),
            )
        before = self._before(live)
        if len(before.seats_to_act()) > 1 or len(table.state.seats_to_act()) > 1:
            raise _refused(
                "undo_realtime",
                ErrorText("a move made while several players choose at once cannot be taken back"),
            )
        if revealed(live.game, live.names(), before, table.state, step):
            raise _refused(
                "undo_revealed",
                ErrorText(
                    "your last move showed someone a card they did not know (a draw, a peek, "
                    "a card turned up): it cannot be taken back"
                ),
            )
        return step

    def _before(self, live: LiveTable) -> State:
        """The table's state before its last step (the match replayed without it)."""
        assert live.table is not None
        old = live.table.match
        match = Match(live.game, live.players, old.options, seed=old.seed, setup=old.setup)
        for seat, action in old.actions[:-1]:
            match.play(seat, action)
        return match.state

    async def ask(self, live: LiveTable, seat: int | None, message: Mapping[str, Any]) -> None:
        """A client's ``undo`` message: open a request (or rewind at once if nobody need answer)."""
        if seat is None:
            raise _refused("not_seated", ErrorText("spectators cannot act: join a seat"))
        async with live.lock:
            if message["seq"] != live.seq:
                raise _refused(
                    "undo_moved",
                    ErrorText(
                        "the table has moved on since (sequence number {seq}): only your own "
                        "last move can be taken back, before anyone else moves",
                        seq=live.seq,
                    ),
                )
            if self._open(live) is not None:
                raise _refused(
                    "undo_pending",
                    ErrorText("a request to take back a move is already waiting for answers"),
                )
            self.check(live, seat)
            now = self.hub.clock()
            for key, old in list(self._buckets.items()):  # full again: forgotten (bounded)
                if old.full(now):
                    del self._buckets[key]
            bucket = self._buckets.setdefault((live.id, seat), Bucket(BURST, EVERY, now))
            wait = bucket.take(now)
            if wait > 0:
                raise _refused(
                    "rate_limited",
                    ErrorText(
                        "too many requests to take back a move; the next in {seconds} s",
                        seconds=max(1, round(wait)),
                    ),
                )
            waiting = {
                s.seat
                for s in live.seats
                if s.kind == "human" and not s.takeover and s.seat != seat
            }
            request = UndoRequest(seat, live.number, live.seq, waiting, now + self.seconds)
            if not waiting:  # bots accept at once (a bot playing a person's seat too)
                await self._rewind(live, request)
                return
            self.requests[live.id] = request
            request.task = self.hub.spawn(self._expire(live, request))
            self._send(live, self.frame(live, request, "asked"))

    async def answer(self, live: LiveTable, seat: int | None, message: Mapping[str, Any]) -> None:
        """A client's ``undo_answer``: accept or decline the open request."""
        if seat is None:
            raise _refused("not_seated", ErrorText("spectators cannot act: join a seat"))
        async with live.lock:
            request = self._open(live)
            if request is None or request.seq != message["seq"]:
                raise _refused(
                    "undo_none",
                    ErrorText("no request to take back a move is waiting for your answer"),
                )
            if seat not in request.waiting:
                raise _refused(
                    "undo_none",
                    ErrorText("this request does not wait for your answer"),
                )
            if not message["accept"]:
                self._end(live, request, "declined", by=seat)
                return
            await self._accepted(live, request, seat)

    async def _rewind(self, live: LiveTable, request: UndoRequest) -> None:
        """Take the step back: the log loses its row, the table is rebuilt (the lock is held)."""
        hub = self.hub
        self.check(live, request.seat)  # still true: nothing moved (checked again, cheaply)
        if self.requests.get(live.id) is request:
            del self.requests[live.id]
        if request.task is not None and request.task is not asyncio.current_task():
            request.task.cancel()
        kept = request.seq - 1
        entries = hub.store.actions(live.id, live.number)
        if len(entries) != request.seq:  # pragma: no cover - the log is behind the table
            raise _refused("internal", ErrorText("the server could not handle that message"))
        takeovers = [s.seat for s in live.seats if s.takeover]
        try:
            hub.store.truncate(live.id, live.number, kept)
        except LeaseLost:
            if hub.tables.get(live.id) is live:
                hub.recovery.drop(live.id)
            raise
        live.build(entries[:kept])
        for seat in takeovers:  # a bot that played a person's seat goes on doing so
            hub.takeover.take_over(live, seat)
        live.push_snapshots()
        self._send(live, self.frame(live, request, "accepted"))
        log.info("table %s: seat %s took back step %s", live.id, request.seat, request.seq)
        hub.timers.arm(live)
        hub.bots.kick(live)

    async def _expire(self, live: LiveTable, request: UndoRequest) -> None:
        await asyncio.sleep(self.seconds)
        async with live.lock:
            if self.requests.get(live.id) is request:
                self._end(live, request, "expired")
