"""Post-game reviews on the server: queued, run in the bot pool after live bots, kept with the game.

``POST /api/tables/{id}/review?game=N`` (:mod:`.review_api`) asks for the review of a finished
game of a table (:mod:`campfire.agents.review`: every decision of every seat with a choice,
each assessed from that seat's own knowledge); ``GET`` the same address answers how far it is
and, once done, the review with the presenter's words for the moves in the request's language
(``docs/protocol.md``, "Reviews").

Reviews never delay live tables: one review runs at a time, in the bot worker pool, a slice of
at most :data:`SLICE_SECONDS` of work (or one decision) at a go, and before each slice it waits
until no live bot's decision is waiting or being made (:meth:`.bots.BotDriver.busy`). At most
:data:`MAX_QUEUED` reviews wait; a request beyond that is refused (503 ``review_busy``). A
finished review is kept with the game: written into the ``meta`` of the game's stored record
(``meta.review``, when the meta stays within :data:`~campfire.core.records.MAX_META_BYTES`),
so it is computed once; the last :data:`KEEP` reviews are also kept in memory.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from campfire.agents.review import Review, Reviewer
from campfire.core import CampfireError, ErrorText, Record
from campfire.core.records import MAX_META_BYTES

from .hub import Hub
from .seating import LobbyError

__all__ = ["KEEP", "MAX_QUEUED", "ReviewJob", "ReviewQueue"]

log = logging.getLogger(__name__)

#: reviews that may wait to run (a request beyond is refused)
MAX_QUEUED = 8
#: finished reviews kept in memory
KEEP = 32
#: the longest a review works in the pool at one go before it looks at the live bots again
SLICE_SECONDS = 0.05


@dataclass
class ReviewJob:
    """A review asked for: its game, how far it is, and its result once done."""

    table: int
    number: int
    record: str
    status: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    waiters: list[asyncio.Future[None]] = field(default_factory=list)

    def progress(self) -> dict[str, Any]:
        """The job's state as the API answers it (without the review itself)."""
        return {
            "table": self.table,
            "game_number": self.number,
            "status": self.status,
            "done": self.done,
            "total": self.total,
        }


def _stored(text: str) -> dict[str, Any] | None:
    """The review kept in a record's ``meta`` (``None``: none)."""
    try:
        record = Record.loads(text)
    except CampfireError:
        return None
    found = record.meta.get("review")
    try:
        return Review.from_json(found).to_json() if found is not None else None
    except ValueError:
        return None


class ReviewQueue:
    """The server's reviews (see the module)."""

    #: the search's iterations per decision (``None``: each game's review default, its hard
    #: level's); the tests lower it, a server keeps the default
    iterations: int | None = None

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.jobs: OrderedDict[tuple[int, int], ReviewJob] = OrderedDict()
        self.waiting: deque[ReviewJob] = deque()
        self._worker: asyncio.Task[None] | None = None

    def status(self, table: int, number: int, record: str) -> ReviewJob | None:
        """The job of a game's review: in memory, or done from the stored record; else ``None``."""
        job = self.jobs.get((table, number))
        if job is not None:
            return job
        stored = _stored(record)
        if stored is None:
            return None
        job = ReviewJob(table, number, record, "done", result=stored)
        job.done = job.total = len(Record.loads(record).actions)
        self._keep(job)
        return job

    def request(self, table: int, number: int, record: str) -> ReviewJob:
        """The review of a finished game: started (queued) unless it exists already."""
        job = self.status(table, number, record)
        if job is not None and job.status != "failed":
            return job
        if len(self.waiting) >= MAX_QUEUED:
            raise LobbyError(
                503,
                "review_busy",
                ErrorText("too many reviews are waiting: ask again in a minute"),
            )
        job = ReviewJob(table, number, record)
        self._keep(job)
        self.waiting.append(job)
        if self._worker is None or self._worker.done():
            self._worker = self.hub.spawn(self._work())
        return job

    def _keep(self, job: ReviewJob) -> None:
        self.jobs[job.table, job.number] = job
        self.jobs.move_to_end((job.table, job.number))
        while len(self.jobs) > KEEP + MAX_QUEUED:
            key, old = next(iter(self.jobs.items()))
            if old.status in ("queued", "running"):
                break
            del self.jobs[key]

    async def _work(self) -> None:
        while self.waiting:
            job = self.waiting.popleft()
            try:
                await self._run(job)
            except Exception as exc:  # a record that cannot be reviewed fails alone
                log.exception("the review of table %s game %s failed", job.table, job.number)
                job.status, job.error = "failed", str(exc)[:200]

    async def _run(self, job: ReviewJob) -> None:
        loop = asyncio.get_running_loop()
        pool = self.hub.bots.pool
        record = Record.loads(job.record)
        job.status = "running"
        reviewer = await loop.run_in_executor(
            pool, lambda: Reviewer(record, iterations=self.iterations)
        )
        job.total = reviewer.total

        def work() -> bool:
            until = time.perf_counter() + SLICE_SECONDS
            going = True
            while going and time.perf_counter() < until:
                going = reviewer.step()
            return going

        going = True
        while going:
            while self.hub.bots.busy():  # live bots first
                await asyncio.sleep(0.02)
            going = await loop.run_in_executor(pool, work)
            job.done = reviewer.done
        result = reviewer.result.to_json()
        job.result = result
        job.status = "done"
        record.meta["review"] = result
        if len(json.dumps(record.meta, separators=(",", ":"))) <= MAX_META_BYTES:
            self.hub.store.update_record(job.table, job.number, record.dumps())
