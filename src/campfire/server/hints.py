"""Hints at casual tables: what the hard level would play, for the asking seat only.

A table created with ``"hints": true`` (never a real-time table; a rated table, when there are
such, never allows them) lets a seated player who is to act send a ``hint`` message. The
hard level's search (:func:`campfire.agents.review.hint`) decides from **that seat's
observation only** — its view and the memory fed with the events of the game that the seat
saw — in the bot worker pool, within :data:`HINT_SECONDS` of search. The answer, a ``hint``
frame with the move, the presenter's words for it and the search's estimated chance to win,
goes to the asking seat's connections only; every connection at the table then gets a
``hint_used`` frame, which the clients show as a line of the table's log ("Ann used a hint"),
and the game's record lists the hints given (``meta.hints``: sequence number and seat). The
hints of the game being played are kept with the table's settings in the database, so a
restart before the game's end does not lose them.

Refusals: ``not_seated`` (a spectator), ``not_running``, ``hint_off`` (the table does not allow
hints), ``hint_turn`` (the seat is not to act, or a bot plays it), ``stale`` (the table moved
on since the position asked about), ``hint_busy`` (a hint of that seat is being searched) and
``rate_limited`` (each seat may ask :data:`BURST` times at once, then once per :data:`EVERY`
seconds). A hint that comes back after the table moved on is dropped (``stale``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from campfire.agents.review import hint
from campfire.core import ErrorText

from . import protocol
from .connection import Connection
from .hub import Hub
from .live import LiveTable
from .security import Bucket

__all__ = ["BURST", "EVERY", "HINT_SECONDS", "TableHints"]

log = logging.getLogger(__name__)

#: the most seconds a hint's search may take (the answer is due within a second)
HINT_SECONDS = 0.8
#: hints a seat may ask for at once before the rate applies
BURST = 3
#: seconds for each further hint of a seat
EVERY = 10.0


def _refused(code: str, text: ErrorText) -> protocol.ProtocolError:
    return protocol.ProtocolError(code, text)


class TableHints:
    """The hints of every table of a server (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.seconds = HINT_SECONDS
        self._buckets: dict[tuple[int, int], Bucket] = {}
        self._busy: set[tuple[int, int]] = set()

    async def ask(self, live: LiveTable, conn: Connection, message: Mapping[str, Any]) -> None:
        """Answer a ``hint`` message of ``conn`` (refusals raise :class:`ProtocolError`)."""
        seat = conn.seat
        if seat is None:
            raise _refused("not_seated", ErrorText("only a seated player may ask for a hint"))
        async with live.lock:
            table = live.table
            if table is None or live.status != "running":
                raise _refused(
                    "not_running",
                    ErrorText("table {table}: no game is being played", table=live.id),
                )
            if not live.hints or live.realtime:
                raise _refused("hint_off", ErrorText("this table does not allow hints"))
            if message.get("seq") != live.seq:
                raise _refused(
                    "stale",
                    ErrorText("the table has moved on (sequence {seq}): ask again", seq=live.seq),
                )
            state = table.state
            if table.is_agent(seat) or seat not in state.seats_to_act():
                raise _refused("hint_turn", ErrorText("a hint is for a seat that is to act"))
            key = (live.id, seat)
            if key in self._busy:
                raise _refused("hint_busy", ErrorText("your last hint is still being searched"))
            now = self.hub.clock()
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = Bucket(BURST, EVERY, now)
            wait = bucket.take(now)
            if wait > 0:
                raise _refused(
                    "rate_limited",
                    ErrorText("too many hints: wait {seconds} s", seconds=max(1, round(wait))),
                )
            record = table.match.record()
            seq, number = live.seq, live.number
            self._busy.add(key)
        try:
            loop = asyncio.get_running_loop()
            seconds = self.seconds
            found = await loop.run_in_executor(
                self.hub.bots.pool, lambda: hint(record, seat, seconds=seconds, seed=seq)
            )
        finally:
            self._busy.discard(key)
        async with live.lock:
            table = live.table
            if table is None or live.seq != seq or live.number != number:
                raise _refused(
                    "stale",
                    ErrorText("the table has moved on (sequence {seq}): ask again", seq=live.seq),
                )
            state = table.state
            with protocol.speaking(conn.language):
                display = protocol.seat_display(
                    live.game,
                    state.view(seat),
                    state.legal_actions(seat),
                    live.names(conn.language),
                )
            notation = str(found.action)
            label = next(
                (
                    c.answer.label if c.answer is not None else c.label
                    for c in display.actions
                    if c.notation == notation
                    or (c.answer is not None and notation.startswith(c.answer.notation))
                ),
                notation,
            )
            frame = {
                "type": "hint",
                "table": live.id,
                "game_number": number,
                "seq": seq,
                "seat": seat,
                "action": notation,
                "label": label,
                "win": round(min(1.0, max(0.0, found.win)), 4),
                "iterations": found.iterations,
            }
            for other in list(live.connections):
                if other.seat == seat:
                    other.push(dict(frame))
            live.hints_used.append((number, seq, seat))
            # kept with the table: a restart before the game's end does not forget it
            await asyncio.to_thread(self.hub.store.save_settings, live.id, live.stored_settings())
            used = {"type": "hint_used", "table": live.id, "game_number": number, "seq": seq}
            for other in list(live.connections):
                other.push({**used, "seat": seat})
        log.info("table %s: seat %s used a hint", live.id, seat)
