"""The action pipeline: a client's action read, then accept → store → broadcast in one function.

:meth:`ActionPipeline.act` reads a client's ``action`` message (its seat, the sequence number it
answers, a claim's reaction time measured by the server in a claim window); the engine's
``apply`` is the one check of its legality (a refusal is answered ``illegal``).
:meth:`ActionPipeline.apply` is the one path of every step at a live table — a person's, a
bot's, a time-out's, a closing window's: it plays the step, notes it at the table (cause,
clocks, what each seat may answer), builds every connection's frame, waits for the step's commit
to the action log, sends the frames, and returns what it did (:class:`~.hub.Applied`). No frame
of a step goes out before the step is stored, so a restart replays the log and loses nothing a
client saw.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from campfire.core import Action, ErrorText, IllegalActionError
from campfire.core.table import Table

from . import protocol
from .hub import Applied, Hub
from .live import LiveTable
from .writer import LeaseLost

__all__ = ["ActionPipeline"]

log = logging.getLogger(__name__)


class ActionPipeline:
    """Checks a client's action, then accept → store → broadcast (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

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
        hub = self.hub
        if received is None:
            received = hub.clock()
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
            if live.realtime and live.window is None and not live.windows_followed():
                # a window the table's task has not opened yet (just rebuilt): open it now, so
                # that a reaction time is never the one the client wrote
                await hub.windows.after_step(live)
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
            try:  # the engine's apply is the one check of the action's legality
                await self.apply(live, seat, action)
            except IllegalActionError as exc:
                raise protocol.ProtocolError(
                    "illegal", _refusal(table, seat, action, exc)
                ) from None
        hub.bots.kick(live)

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
        """Accept → store → broadcast ``action`` of ``seat`` (the table's lock is held).

        The step is played, noted at the table, and its frames built at once (well under a
        millisecond or two); its commit (:class:`~.writer.LogWriter`, in a thread) is awaited
        before any frame goes out. Then the clocks' timer and the claim window follow the new
        position. Its legality is checked once: by the engine, or, with ``checked=True``, by
        the caller, which knows ``action`` is the game's own action among the seat's legal
        ones now (a bot's decision, a time-out's or a closing window's choice made under the
        lock); the engine then applies it unchecked (``Table.play(checked=True)``).

        An action the engine refuses raises its :class:`~campfire.core.errors.IllegalActionError`
        and changes nothing.

        If the commit fails nothing is sent: with :class:`~.writer.LeaseLost` (another process
        serves the table now) the table is dropped here; otherwise the table is rebuilt from
        the log, which is the truth. Either way the error is raised.
        """
        hub = self.hub
        assert live.table is not None
        table = live.table
        accepted = time.perf_counter()
        try:
            table.play(seat, action, seconds=seconds, choices=choices, checked=checked)
        except IllegalActionError:
            raise  # refused by the engine: nothing changed
        except Exception:
            self._failed(live)
            raise
        try:
            step = table.steps[-1]
            live.note_step(step)
            entry = live.log_entry(step)
            frames = live.frames(step)
            await hub.writer.submit(entry)
            if entry.turn is not None:
                live.turn_saved = entry.turn if entry.record is None else None
            if entry.record is not None:
                live.status = "finished"  # only now: the record can be read back
        except LeaseLost:
            # another process owns the table now and goes on from the log (cluster.py): this
            # one stops acting for it, and its clients reconnect there (closed with 1012)
            if hub.tables.get(live.id) is live:
                hub.recovery.drop(live.id)
            raise
        except Exception:
            self._failed(live)
            raise
        live.flush(frames)
        if entry.record is not None:
            hub.ratings.finished(live)
        hub.undo.moved(live)  # a request to take back a move is cancelled by a new one
        hub.metrics.action(time.perf_counter() - accepted)
        hub.timers.arm(live)
        await hub.windows.after_step(live)
        return Applied(step, entry, frames)

    def _failed(self, live: LiveTable) -> None:
        """A step failed after the engine accepted it: rebuild the table from its log.

        Nothing was broadcast; if the step was applied but not stored, the log is the truth.
        """
        log.exception("table %s: an action could not be stored; rebuilding from the log", live.id)
        self.hub.recovery.rebuild(live)


def _refusal(table: Table, seat: int, action: Action, error: IllegalActionError) -> ErrorText:
    """What a client is told of an action the engine refused.

    A seat out of turn gets the engine's turn-order error; an action the rules do not allow
    now, the action and (some of) the legal ones.
    """
    state = table.state
    if seat not in state.seats_to_act():
        return error.text
    legal = state.legal_actions(seat)
    shown = ", ".join(str(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
    return ErrorText(
        "{action} is not legal now; legal: {legal}",
        action=str(action),
        legal=shown or ErrorText("none"),
    )
