"""Bot driving: the bots at a table decide in a thread pool and play through the pipeline.

A bot's decision can take long (a search); it runs in :attr:`BotDriver.pool`, so it never blocks
the event loop or another table. Its action then takes the same path as a person's
(:meth:`~.pipeline.ActionPipeline.apply`). While a claim window is open, the window times the
bots' answers (:mod:`.windows`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from campfire.core import Action
from campfire.core.table import AgentError, Table

from .hub import Hub
from .live import LiveTable

__all__ = ["BotDriver"]

log = logging.getLogger(__name__)


class BotDriver:
    """Lets the bots of the tables play (see the module)."""

    def __init__(self, hub: Hub, workers: int = 2) -> None:
        self.hub = hub
        #: where bots think (threads: a search never blocks the event loop or other tables)
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="campfire-bot")
        #: live bots' decisions asked for and not yet made (reviews wait while any is)
        self.pending = 0

    def busy(self) -> bool:
        """Whether a live bot's decision is waiting for a thread or being made.

        A review (:mod:`.reviews`) assesses its next decision only when none is, so live
        tables never wait behind it for longer than one of its decisions.
        """
        return self.pending > 0

    def kick(self, live: LiveTable) -> None:
        """Let the table's bots play, if one is to act and none is already thinking."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if live.table is None or live.status != "running" or live.table.agent_to_act() is None:
            return
        live.bot_task = self.hub.spawn(self._drive(live))

    async def think(self, table: Table, seat: int) -> tuple[Action, float, int]:
        """The bot of ``seat`` decides, in a thread of the bot pool (``Table.decide``).

        The decisions waiting for a thread and each one's time are counted (:mod:`.metrics`).
        """
        metrics = self.hub.metrics
        metrics.bot_waiting(1)
        self.pending += 1

        def decide() -> tuple[Action, float, int]:
            metrics.bot_waiting(-1)
            started = time.perf_counter()
            try:
                return table.decide(seat)
            finally:
                metrics.bot_thought(time.perf_counter() - started)

        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, decide)
        finally:
            self.pending -= 1

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
                await self.hub.pipeline.apply(live, seat, action, spent, choices, checked=True)
            await asyncio.sleep(0)  # let people's actions in between bots' moves

    def close(self) -> None:
        """Stop the pool (at shutdown; decisions in progress are not waited for)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
