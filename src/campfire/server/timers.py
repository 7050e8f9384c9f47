"""The clocks' timers: a table's earliest deadline, and the time-out rule when it is reached.

:meth:`ClockTimers.arm` (re)starts one timer per table, at the earliest deadline of its running
clocks (:mod:`.clocks` keeps the time). When a seat runs out of time the table's rule applies
(``TimeControl.on_timeout``): ``loss`` ends the game (the seat loses on time; the record is
stored), ``bot`` seats a bot in the person's place (:mod:`.takeover`), ``random`` plays a
random legal action for the seat (a pass in a claim window) through the pipeline.
"""

from __future__ import annotations

import asyncio
import logging
import random

from campfire.core import Outcome

from .hub import Hub
from .live import LiveTable

__all__ = ["ClockTimers"]

log = logging.getLogger(__name__)


class ClockTimers:
    """The tables' clock timers (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def arm(self, live: LiveTable) -> None:
        """(Re)start the timer of the table's earliest running clock (nothing if none runs).

        A turn-based table's deadlines are stored first if they changed, and the players away
        whose turn began are told by e-mail (:mod:`.turns`).
        """
        self.hub.turns.save(live)
        self.hub.turns.notify(live)
        task = live.clock_task
        if task is not None and not task.done():
            if task is asyncio.current_task():
                return  # the timer itself acted: its loop looks at the clocks again
            task.cancel()
        live.clock_task = None
        if live.clocks is None or live.clocks.deadline() is None or live.status != "running":
            return
        live.clock_task = self.hub.spawn(self._loop(live))

    async def _loop(self, live: LiveTable) -> None:
        """Sleep until the earliest deadline; apply the time-out rule to whoever reached it."""
        for _ in range(100_000):  # bounded: each round is a time-out or a clock change
            clocks = live.clocks
            deadline = clocks.deadline() if clocks is not None else None
            if clocks is None or deadline is None or live.status != "running":
                return
            await asyncio.sleep(max(0.0, deadline[0] - self.hub.clock()))
            async with live.lock:
                if live.clocks is not clocks or live.status != "running":
                    return
                expired = clocks.expired(self.hub.clock())
                if expired:
                    await self._time_out(live, expired[0])
            self.hub.bots.kick(live)

    async def _time_out(self, live: LiveTable, seat: int) -> None:
        """``seat`` ran out of time: the table's rule applies (the lock is held)."""
        assert live.table is not None and live.clocks is not None
        table, rule = live.table, live.control.on_timeout
        live.clocks.timed_out(seat, self.hub.clock())
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
            self.hub.store.finish(live.id, live.number, record.dumps())
            live.status = "finished"
            self.hub.ratings.finished(live)
            live.turn_saved = None  # (the record's transaction cleared the deadlines)
            live.clocks.sync([], self.hub.clock())
            live.push_snapshots()
        elif rule == "bot":
            live.next_cause[seat] = "timeout-bot"
            self.hub.takeover.take_over(live, seat)
        else:
            legal = table.state.legal_actions(seat)
            window = live.window
            if window is not None and seat in window.seats:
                # in a real-time claim window a claim's time is the seat's own reaction: a seat
                # out of time has none, so it passes, as a silent seat does when the window closes
                legal = [a for a in legal if str(a) == "pass"] or legal
            rng = random.Random(f"{live.seed}/timeout/{live.number}/{live.seq}/{seat}")
            live.next_cause[seat] = "timeout"
            await self.hub.pipeline.apply(live, seat, rng.choice(legal), checked=True)
