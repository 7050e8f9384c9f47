"""Seat take-over: a bot plays the seat of a person who left or ran out of time.

A person's last connection to a running table closes (:meth:`SeatTakeover.left`): after the
table's grace (``bot_after_leave``) a bot of the table's ``takeover_level`` takes the seat over
(:meth:`SeatTakeover.take_over`; also at once when the clock's rule says ``bot``). It learns the
game so far as the seat saw it, and plays until the person returns
(:meth:`SeatTakeover.hand_back`); the seat stays the person's.
"""

from __future__ import annotations

import asyncio
import random

from campfire.agents import make_agent
from campfire.core.events import visible_events

from .hub import Hub
from .live import LiveTable

__all__ = ["SeatTakeover"]


class SeatTakeover:
    """Bots in people's seats (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

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
            live.clocks.sync(live.people_to_act(), self.hub.clock())
        live.push_snapshots()
        self.hub.undo.taken_over(live, seat)
        self.hub.bots.kick(live)
        self.hub.timers.arm(live)

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
            if live.control.kind == "game" and live.clocks.remaining(seat, self.hub.clock()) <= 0:
                # back with no time left: a game clock gets one increment (or a second) to act
                live.clocks.remaining_set(seat, max(1.0, live.control.increment))
            live.clocks.sync(live.people_to_act(), self.hub.clock())
        live.push_snapshots()
        self.hub.timers.arm(live)

    def left(self, live: LiveTable, seat: int) -> None:
        """A person's last connection to ``seat`` closed: a bot takes over after the grace."""
        if live.bot_after_leave is None or live.seats[seat].kind != "human":
            return
        if any(c.seat == seat for c in live.connections) or seat in live.leave_tasks:
            return
        live.leave_tasks[seat] = self.hub.spawn(self._take_over_later(live, seat))

    async def _take_over_later(self, live: LiveTable, seat: int) -> None:
        assert live.bot_after_leave is not None
        await asyncio.sleep(live.bot_after_leave)
        async with live.lock:
            live.leave_tasks.pop(seat, None)
            if not any(c.seat == seat for c in live.connections):
                self.take_over(live, seat)

    def absent(self, live: LiveTable) -> None:
        """Treat the people not connected to a running table as gone (:meth:`left`)."""
        for seat in live.seats:
            if seat.kind == "human":
                self.left(live, seat.seat)
