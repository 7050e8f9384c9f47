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

A record file can be reviewed too (``POST /api/review`` with the file, the replay page's
*Review this game* for an opened file): the job is named by the SHA-256 of the record as
the strict reader wrote it back (:meth:`ReviewQueue.request_upload`), so the same file sent
twice is one review. It is kept in memory only (there is no game to keep it with: a record
downloaded after its review carries ``meta.review``, which is read instead of searching again),
and at most :data:`MAX_UPLOADS_QUEUED` of the waiting reviews are files, so strangers' files
never fill the queue that the tables' games share.
"""

from __future__ import annotations

import asyncio
import hashlib
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

__all__ = [
    "KEEP",
    "MAX_QUEUED",
    "MAX_UPLOADS_QUEUED",
    "REVIEW_ITERATIONS_VARIABLE",
    "ReviewJob",
    "ReviewQueue",
]

#: what names a review: a table's game ``(table, game number)``, or an uploaded record's id
Key = tuple[int, int] | str

log = logging.getLogger(__name__)

#: reviews that may wait to run (a request beyond is refused)
MAX_QUEUED = 8
#: finished reviews kept in memory
KEEP = 32
#: reviews of uploaded record files that may wait at once (of the :data:`MAX_QUEUED`)
MAX_UPLOADS_QUEUED = 2
#: The environment variable that passes ``--review-iterations`` to ``--workers`` processes.
REVIEW_ITERATIONS_VARIABLE = "CAMPFIRE_SERVE_REVIEW_ITERATIONS"
#: the longest a review works in the pool at one go before it looks at the live bots again
SLICE_SECONDS = 0.05


@dataclass
class ReviewJob:
    """A review asked for: its game, how far it is, and its result once done.

    A table's game has its ``table`` and ``number``; an uploaded record has ``upload``, its
    id (``table`` and ``number`` are then 0).
    """

    table: int
    number: int
    record: str
    status: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    waiters: list[asyncio.Future[None]] = field(default_factory=list)
    upload: str | None = None

    @property
    def key(self) -> Key:
        """What names the job in the queue."""
        return self.upload if self.upload is not None else (self.table, self.number)

    def progress(self) -> dict[str, Any]:
        """The job's state as the API answers it (without the review itself)."""
        named: dict[str, Any] = (
            {"id": self.upload}
            if self.upload is not None
            else {"table": self.table, "game_number": self.number}
        )
        return {**named, "status": self.status, "done": self.done, "total": self.total}


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


def _busy() -> LobbyError:
    return LobbyError(
        503, "review_busy", ErrorText("too many reviews are waiting: ask again in a minute")
    )


class ReviewQueue:
    """The server's reviews (see the module)."""

    #: the search's iterations per decision (``None``: each game's review default, its hard
    #: level's); ``campfire serve --review-iterations N`` sets it (the browser tests lower it)
    iterations: int | None = None

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.jobs: OrderedDict[Key, ReviewJob] = OrderedDict()
        self.waiting: deque[ReviewJob] = deque()
        self._worker: asyncio.Task[None] | None = None

    def status(self, table: int, number: int, record: str) -> ReviewJob | None:
        """The job of a game's review: in memory, or done from the stored record; else ``None``."""
        return self._status(ReviewJob(table, number, record))

    def _status(self, asked: ReviewJob) -> ReviewJob | None:
        job = self.jobs.get(asked.key)
        if job is not None:
            return job
        stored = _stored(asked.record)
        if stored is None:
            return None
        asked.status, asked.result = "done", stored
        asked.done = asked.total = len(Record.loads(asked.record).actions)
        self._keep(asked)
        return asked

    def upload(self, review_id: str) -> ReviewJob | None:
        """The review of an uploaded record by its id, while it is in memory (else ``None``)."""
        job = self.jobs.get(review_id)
        return job if job is not None and job.upload is not None else None

    def request(self, table: int, number: int, record: str) -> ReviewJob:
        """The review of a finished game: started (queued) unless it exists already."""
        return self._request(ReviewJob(table, number, record))

    def request_upload(self, record: Record) -> ReviewJob:
        """The review of an uploaded record (read and checked already): started unless it exists.

        Its id is the SHA-256 of the record as written back by :meth:`Record.dumps` (the same
        file sent twice is one review). A review the file's ``meta`` carries (a record
        downloaded after its review) is answered as it is, under that file's own id: it is
        the sender's file, and nobody else's review is named by it.
        """
        text = record.dumps()
        review_id = hashlib.sha256(text.encode()).hexdigest()
        asked = ReviewJob(0, 0, text, upload=review_id)
        if self._status(asked) is None and (
            sum(job.upload is not None for job in self.waiting) >= MAX_UPLOADS_QUEUED
        ):
            raise _busy()
        return self._request(asked)

    def _request(self, asked: ReviewJob) -> ReviewJob:
        job = self._status(asked)
        if job is not None and job.status != "failed":
            return job
        if len(self.waiting) >= MAX_QUEUED:
            raise _busy()
        job = asked
        job.status, job.done, job.total, job.result, job.error = "queued", 0, 0, None, None
        self._keep(job)
        self.waiting.append(job)
        if self._worker is None or self._worker.done():
            self._worker = self.hub.spawn(self._work())
        return job

    def _keep(self, job: ReviewJob) -> None:
        self.jobs[job.key] = job
        self.jobs.move_to_end(job.key)
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
                log.exception("the review %s failed", job.key)
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
        if job.upload is not None:
            return  # an uploaded file: kept in memory only
        record.meta["review"] = result
        if len(json.dumps(record.meta, separators=(",", ":"))) <= MAX_META_BYTES:
            self.hub.store.update_record(job.table, job.number, record.dumps())
