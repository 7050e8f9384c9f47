"""Several server processes: table leases in PostgreSQL, actions and frames through Redis.

A single process (the default) uses none of this. With ``campfire serve --workers N`` (or
``--redis-url``), each process runs a :class:`Cluster`:

- **Ownership.** Each table is owned by one process at a time: a row of ``table_leases``
  (table, owner, expiry). A process takes a table when it first needs it and the lease is free,
  expired or held by a process that is gone (one atomic ``INSERT ... ON CONFLICT DO UPDATE ...
  WHERE ...``), renews all of its leases every third of the lease time (in a thread of its own,
  :meth:`Cluster._renew_forever`), and takes over the running tables whose lease has expired
  (their owner stalled or died): it rebuilds them from the action log, as a restart does.
- **A process that is gone.** A process that no longer listens on its Redis channel is gone:
  Redis drops a subscription the moment the subscriber's connection closes, which the
  operating system does the moment a process is killed or crashes. Every process looks for
  gone lease holders every :data:`WATCH_SECONDS` (and at once when something it publishes
  reaches nobody), and takes their tables at once, whatever their leases say
  (:meth:`Cluster.watch`): a dead owner's tables are served again in a fraction of a second.
  A process that stops gracefully (SIGTERM, :mod:`.graceful`) does not wait to be noticed:
  once the actions in flight are committed it takes no more tables (:meth:`Cluster.stop_claiming`)
  and deletes its leases (:meth:`Cluster.stop_serving`), so a reconnecting client's table is
  taken at once by the process it reaches.
  A stalled process still listens, so it loses its tables only when their leases expire. Every
  accepted action is committed before it is broadcast, so a killed process loses nothing. The
  log's writes are fenced: each write transaction (:class:`~.writer.LogWriter`, the lobby's
  and the clocks' :class:`~.tables.Store` writes) first locks this process's lease rows of the
  tables it writes for (``SELECT ... FOR SHARE``, in table order), and a table whose lease
  another process has taken fails with :class:`~.writer.LeaseLost`: nothing of it is written,
  the table is dropped from memory and its clients are closed with 1012 (they reconnect to the
  new owner). A new owner's claim waits for such a transaction to end, then reads the log:
  it sees every action the old owner committed, and the old owner can commit none after it.
  (The log's primary key, table, game and sequence number, would refuse a second action at
  one sequence number anyway.)
- **Connections on any process.** A WebSocket connection to a table owned by another process is
  proxied: the process forwards the client's messages to the owner and the owner sends the
  connection's frames back (each frame encoded once, :mod:`.wire`). Both go over Redis pub/sub:
  every process listens on its own channel ``campfire:w:<process>``; frames name the connection
  they are for, so a process receives only the frames of its own clients. The owner treats a
  proxied connection as one of its own (:class:`RemoteConnection`): the same snapshot, deltas
  (with display patches if the client asked for them, :mod:`.patches`: the owner keeps the
  model each patch starts from), errors, rate limits (checked by the proxying process) and
  seat takeover.
- **Lobby on any process.** An HTTP request about a table (``/api/tables/<id>/...``) that
  another process owns is run by the owner (:class:`ForwardMiddleware`) and its answer relayed.
  A request caught in a table's move (the owner answers that it no longer has the table, the
  owner is gone, the lease was lost while the request ran here) is tried again, at whichever
  process owns the table then, for up to :data:`FORWARD_TIMEOUT`; only then is it answered
  503 ``table_moved`` with ``Retry-After``. The list of tables is read from the database.

When the owner goes away, the proxying process closes its clients' connections with code 1012
(:data:`.protocol.CLOSE_MOVED`) once the table is served again; they reconnect (to any process)
and resume from their last sequence number. A connection whose ``open`` reached nobody is
opened again where the table is (its client gets a snapshot, never silence). When a
proxying process goes away, the owner notices within a lease check
(its ``campfire:alive:<process>`` key expires) and ends that process's connections as if
their clients had left; the clients reconnect (to any process) and resume the same way.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import logging
import math
import os
import re
import secrets
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import ClientDisconnect, Request

from campfire.core import ErrorText, OptionError
from campfire.i18n import translator

from . import protocol
from .lobby import MAX_BODY_BYTES, language_of, read_body
from .tables import Connection, LiveTable, LobbyError
from .wire import encode
from .writer import LeaseLost

if TYPE_CHECKING:
    from .tables import TableManager

__all__ = [
    "DEFAULT_REDIS_URL",
    "LEASE_SECONDS",
    "Cluster",
    "Elsewhere",
    "ForwardMiddleware",
    "RemoteConnection",
    "check_redis",
]

log = logging.getLogger(__name__)

#: The Redis server the processes meet at, unless ``--redis-url`` says another.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
#: How long a table's lease lasts without renewal (seconds): a dead process's tables are
#: taken over after at most this long (plus a third of it, the interval of the checks).
LEASE_SECONDS = 10.0
#: How often each process looks for processes that are gone (seconds): a process whose Redis
#: connection closed (it was killed, it crashed) no longer listens on its channel, and its
#: tables are taken over at once, whatever their leases say (see :meth:`Cluster.watch`).
WATCH_SECONDS = 0.25
#: How long a process's shutdown waits for each of its cluster's steps (seconds)
CLOSE_SECONDS = 5.0
#: How long a lobby request about a table may wait for the table's owner (seconds): for its
#: answer, and while the table moves, for it to be served again.
FORWARD_TIMEOUT = 10.0

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class Elsewhere(LobbyError):
    """The table is owned by another process (``owner``) now."""

    def __init__(self, table_id: int, owner: str) -> None:
        super().__init__(
            503,
            "table_moved",
            ErrorText(
                "table {table} is served by another server process at the moment: try again",
                table=table_id,
            ),
        )
        self.table_id = table_id
        self.owner = owner


def check_redis(url: str) -> None:
    """Raise :class:`OptionError` saying why if Redis at ``url`` does not answer a ping."""
    try:
        import redis
    except ImportError:  # pragma: no cover - the server extra installs it
        raise OptionError(
            ErrorText(
                "several server processes need the redis package: "
                "pip install 'campfire-games[server]'"
            )
        ) from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as exc:
        raise OptionError(
            ErrorText(
                "cannot reach Redis at {url} ({exc}): several server processes pass actions "
                "and frames to each other through it; start Redis or give --redis-url",
                url=repr(url),
                exc=exc,
            )
        ) from None


class RemoteConnection(Connection):
    """A client connected to another process, as the table's owner sees it.

    Its frames go to that process over Redis (each encoded once, shared with every connection
    that gets the same frame); its messages come from there, in order, through :attr:`inbox`.
    A client of display patches (``patch=1``, passed on in the ``open`` message) gets them as
    a client of this process does: the owner keeps :attr:`~.tables.Connection.shown`, the
    model each patch starts from, and the proxying process passes the frames on as they are.
    """

    def __init__(
        self,
        cluster: Cluster,
        conn_id: str,
        worker: str,
        table_id: int,
        language: str,
        patches: bool = False,
    ) -> None:
        super().__init__(None, language=language, patches=patches)
        self.cluster = cluster
        self.id = conn_id
        self.worker = worker
        self.table_id = table_id
        #: ``("msg", text)`` and ``("close", None)`` from the proxying process (or this one)
        self.inbox: asyncio.Queue[tuple[str, str | None]] = asyncio.Queue()
        self.closed = False

    def push(self, frame: dict[str, Any] | str) -> None:
        """Send ``frame`` to the client's process (nothing once the connection is closed).

        A snapshot's display model becomes :attr:`shown`, what the next patch starts from
        (as :meth:`Connection.push` does).
        """
        if self.closed:
            return
        self._note_snapshot(frame)
        text = frame if isinstance(frame, str) else encode(protocol.client_frame(frame, self.views))
        self.cluster.send(self.worker, f"F{self.id}\n{text}")

    def close(self, code: int | None = None) -> None:
        """Close the client's connection (with ``code``) from its process; stop serving it."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.cluster.send(self.worker, f"C{self.id}\n{code or 1000}")
        self.inbox.put_nowait(("close", None))


@dataclass
class Proxy:
    """A client of this process at a table another process owns."""

    conn: Connection
    table_id: int
    owner: str
    #: the ``open`` message (sent again if the owner turns out to be gone before it answers)
    opening: dict[str, Any] | None = None
    #: whether the owner has sent anything for the connection yet
    answered: bool = False


_TABLE_PATH = re.compile(r"^/api/tables/(\d{1,12})(?:/|$)")
_FORWARDED = b"x-campfire-forwarded"


class ForwardMiddleware:
    """Runs an HTTP request about a table at the process that owns the table.

    The request is run here if this process owns the table, else forwarded to the owner
    (:meth:`Cluster.serve_http`); one caught in the table's move is tried again. A request
    forwarded here by another process is run here only (:meth:`Cluster.run_forwarded`).
    """

    def __init__(self, app: App, cluster: Cluster):
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Forward, run here, or pass on."""
        if scope["type"] == "http" and self.cluster.started:
            match = _TABLE_PATH.match(scope["path"])
            if match:
                table_id = int(match.group(1))
                if any(k == _FORWARDED for k, _ in scope["headers"]):
                    await self.cluster.run_forwarded(self.app, table_id, scope, receive, send)
                else:
                    await self.cluster.serve_http(self.app, table_id, scope, receive, send)
                return
        await self.app(scope, receive, send)


def _body_once(body: bytes) -> Receive:
    """An ASGI ``receive`` that gives ``body`` (read already), then waits forever."""
    delivered = False

    async def receive() -> MutableMapping[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # never: the request is answered before
        return {"type": "http.disconnect"}  # pragma: no cover

    return receive


def _json_answer(status: int, body: Any, headers: Collection[tuple[str, str]] = ()) -> Answer:
    return Answer(
        status,
        [("content-type", "application/json"), *headers],
        json.dumps(body).encode(),
    )


def _is_moved(answer: Answer) -> bool:
    """Whether ``answer`` says that the table is served by another process now."""
    if answer.status != 503:
        return False
    try:
        error = json.loads(answer.body)["error"]
    except (ValueError, TypeError, KeyError):
        return False
    return isinstance(error, dict) and error.get("code") == "table_moved"


@dataclass
class Answer:
    """An HTTP response, whole: what a process sends back for a forwarded request."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def to_json(self) -> dict[str, Any]:
        """The answer as a ``reply`` message holds it."""
        return {
            "status": self.status,
            "headers": [list(h) for h in self.headers],
            "body": base64.b64encode(self.body).decode("ascii"),
        }

    @classmethod
    def from_json(cls, reply: dict[str, Any]) -> Answer:
        """Read a ``reply`` message's answer."""
        return cls(
            int(reply["status"]),
            [(str(k), str(v)) for k, v in reply["headers"]],
            base64.b64decode(reply["body"]),
        )

    async def send(self, send: Send) -> None:
        """Send the answer through ASGI's ``send``."""
        await send(
            {
                "type": "http.response.start",
                "status": self.status,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in self.headers],
            }
        )
        await send({"type": "http.response.body", "body": self.body})


async def _capture(app: App, scope: Scope, body: bytes) -> Answer:
    """Run ``app`` on a request whose body is ``body``; its whole answer."""
    answer = Answer(500, [], b"")

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer.status = int(message["status"])
            answer.headers = [
                (k.decode("latin-1"), v.decode("latin-1")) for k, v in message["headers"]
            ]
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")

    await app(scope, _body_once(body), send)
    return answer


class Cluster:
    """One process's part in a group of server processes (see the module's description)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        redis_url: str = DEFAULT_REDIS_URL,
        lease_seconds: float = LEASE_SECONDS,
        worker: str | None = None,
    ) -> None:
        self.sessions = sessions
        self.redis_url = redis_url
        self.lease = float(lease_seconds)
        #: this process's id (``host:pid:random``)
        self.me = worker or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.manager: TableManager | None = None
        #: the ASGI application forwarded HTTP requests are run through
        self.app: Callable[[Scope, Receive, Send], Awaitable[None]] | None = None
        #: the owner's side: clients of other processes at this process's tables
        self.remotes: dict[str, RemoteConnection] = {}
        #: the proxy's side: this process's clients at other processes' tables
        self.proxies: dict[str, Proxy] = {}
        self.started = False
        #: set when this process stops (:meth:`stop_claiming`): it takes no more tables
        self.stopping = False
        #: the processes known to be gone (no longer listening on their channel): their
        #: leases may be taken at once (:meth:`claim`, :meth:`orphans`)
        self.dead: frozenset[str] = frozenset()
        #: when this process last took or renewed each table's lease (``time.monotonic``)
        self._claimed: dict[int, float] = {}
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._out: list[tuple[str, str, Callable[[int], None] | None]] = []
        self._wake: asyncio.Event | None = None
        self._ids = itertools.count()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._redis: Any = None
        self._pubsub: Any = None

    # ----- the database's leases --------------------------------------------------------------

    def claim(self, table_id: int) -> bool:
        """Take or renew the lease of ``table_id``: ``True``; ``False``: there is no such table.

        The lease is taken if it is free, expired, or held by a process known to be gone
        (:attr:`dead`). Raises :class:`Elsewhere` when another process holds it, and always
        once this process is stopping (:meth:`stop_claiming`): it takes no table any more.
        """
        if self.stopping:
            with self.sessions() as session:
                owner = session.execute(
                    text(
                        "SELECT coalesce(l.owner, '') FROM game_tables g LEFT JOIN table_leases l "
                        "ON l.table_id = g.id WHERE g.id = :t"
                    ),
                    {"t": table_id},
                ).scalar()
            if owner is None:
                return False
            raise Elsewhere(table_id, str(owner))
        with self.sessions.begin() as session:
            got = session.execute(
                text(
                    "INSERT INTO table_leases (table_id, owner, expires) "
                    "SELECT id, :me, now() + make_interval(secs => :ttl) FROM game_tables "
                    "WHERE id = :t "
                    "ON CONFLICT (table_id) DO UPDATE "
                    "SET owner = excluded.owner, expires = excluded.expires "
                    "WHERE table_leases.owner = excluded.owner OR table_leases.expires < now() "
                    "OR table_leases.owner = ANY(CAST(:dead AS text[])) "
                    "RETURNING owner"
                ),
                {"me": self.me, "ttl": self.lease, "t": table_id, "dead": sorted(self.dead)},
            ).scalar()
            if got is not None:
                self._claimed[table_id] = time.monotonic()
                return True
            owner = session.execute(
                text("SELECT owner FROM table_leases WHERE table_id = :t"), {"t": table_id}
            ).scalar()
        if owner is None:
            return False
        raise Elsewhere(table_id, str(owner))

    def renew(self) -> set[int]:
        """Renew every lease of this process; the tables it still holds.

        The rows are locked in table order, as :meth:`fence` locks them (no deadlock).
        """
        with self.sessions.begin() as session:
            return set(
                session.execute(
                    text(
                        "UPDATE table_leases SET expires = now() + make_interval(secs => :ttl) "
                        "WHERE table_id IN (SELECT table_id FROM table_leases WHERE owner = :me "
                        "ORDER BY table_id FOR UPDATE) AND owner = :me RETURNING table_id"
                    ),
                    {"me": self.me, "ttl": self.lease},
                ).scalars()
            )

    def fence(self, session: Session, table_ids: Collection[int]) -> None:
        """Raise :class:`~.writer.LeaseLost` unless this process holds every lease of ``table_ids``.

        Called first in a write transaction (``session``) for those tables: it locks their lease
        rows (shared, in table order) until the transaction ends, so another process's
        :meth:`claim` of one of them waits for the transaction, and then reads its writes.
        A lease that expired but that nobody has taken yet still counts as held.
        """
        held = set(
            session.execute(
                text(
                    "SELECT table_id FROM table_leases WHERE table_id = ANY(:ids) "
                    "AND owner = :me ORDER BY table_id FOR SHARE"
                ),
                {"ids": sorted(table_ids), "me": self.me},
            ).scalars()
        )
        lost = sorted(set(table_ids) - held)
        if lost:
            raise LeaseLost(lost[0])

    def orphans(self) -> list[int]:
        """The running tables nobody holds, oldest first.

        Nobody holds a table without a lease, with an expired one, or with one of a process
        known to be gone (:attr:`dead`).
        """
        with self.sessions() as session:
            return list(
                session.execute(
                    text(
                        "SELECT g.id FROM game_tables g "
                        "LEFT JOIN table_leases l ON l.table_id = g.id "
                        "WHERE g.status = 'running' AND (l.table_id IS NULL OR l.expires < now() "
                        "OR l.owner = ANY(CAST(:dead AS text[]))) ORDER BY g.id"
                    ),
                    {"dead": sorted(self.dead)},
                ).scalars()
            )

    def owners(self, table_ids: list[int]) -> dict[int, str]:
        """The processes holding unexpired leases of ``table_ids`` (not those known gone)."""
        with self.sessions() as session:
            rows = session.execute(
                text(
                    "SELECT table_id, owner FROM table_leases "
                    "WHERE table_id = ANY(:ids) AND expires >= now() "
                    "AND owner <> ALL(CAST(:dead AS text[]))"
                ),
                {"ids": table_ids, "dead": sorted(self.dead)},
            ).all()
        return {int(t): str(o) for t, o in rows}

    def holders(self, table_ids: list[int]) -> dict[int, str]:
        """The processes named in the leases of ``table_ids``, expired or not."""
        with self.sessions() as session:
            rows = session.execute(
                text("SELECT table_id, owner FROM table_leases WHERE table_id = ANY(:ids)"),
                {"ids": table_ids},
            ).all()
        return {int(t): str(o) for t, o in rows}

    def lease_holders(self) -> set[str]:
        """The other processes that hold (or held: expired) the lease of a running table."""
        with self.sessions() as session:
            return set(
                session.execute(
                    text(
                        "SELECT DISTINCT l.owner FROM table_leases l "
                        "JOIN game_tables g ON g.id = l.table_id "
                        "WHERE g.status = 'running' AND l.owner <> :me"
                    ),
                    {"me": self.me},
                ).scalars()
            )

    def release(self) -> None:
        """Give up every lease (a clean stop: the others take the tables over at once)."""
        with self.sessions.begin() as session:
            session.execute(text("DELETE FROM table_leases WHERE owner = :me"), {"me": self.me})

    def owner_for(self, table_id: int) -> str | None:
        """The process that owns ``table_id`` if not this one (``None``: this one, or none)."""
        manager = self.manager
        if manager is None or table_id in manager.tables:
            return None
        try:
            manager.load(table_id)
        except Elsewhere as moved:
            return moved.owner
        return None

    # ----- running ----------------------------------------------------------------------------

    async def start(self, manager: TableManager, app: Any) -> None:
        """Connect to Redis, listen on this process's channel, start the lease checks."""
        import redis.asyncio as aioredis

        self.manager = manager
        manager.cluster = self
        manager.writer.fence = manager.store.fence = self.fence
        self.app = app
        self._wake = asyncio.Event()
        self._redis = aioredis.Redis.from_url(self.redis_url, decode_responses=True)
        try:
            await self._redis.ping()
            await self._alive()
            pubsub = self._pubsub = self._redis.pubsub()
            await pubsub.subscribe(f"campfire:w:{self.me}")
        except Exception as exc:
            raise OptionError(
                ErrorText(
                    "cannot reach Redis at {url} ({exc}): several server processes pass "
                    "actions and frames to each other through it",
                    url=repr(self.redis_url),
                    exc=exc,
                )
            ) from None
        self._spawn(self._listen(pubsub))
        self._spawn(self._publish())
        self._spawn(self._check_loop())
        self._spawn(self._watch_loop())
        self._stop.clear()
        self._renewer = threading.Thread(
            target=self._renew_forever,
            args=(asyncio.get_running_loop(),),
            name="campfire-leases",
            daemon=True,
        )
        self._renewer.start()
        self.started = True
        log.info("campfire serve: process %s joined (lease %g s)", self.me, self.lease)

    # ----- a graceful stop (graceful.drain_tables) -----------------------------------------

    def stop_claiming(self) -> None:
        """Take no table from now on, not even back (:meth:`claim` answers :class:`Elsewhere`).

        The first step of a graceful stop (:func:`.graceful.drain_tables`): the lease checks
        and the requests of other processes must not take back a table this process is about
        to give up.
        """
        self.stopping = True

    async def stop_serving(self) -> None:
        """Give every lease up now, once the tables' actions are committed (a graceful stop).

        The renewals stop and the lease rows are deleted: another process takes a table the
        moment one of its clients reconnects (or at its next lease check), without waiting for
        the lease to expire or for this process to be gone. Bounded (:data:`CLOSE_SECONDS`).
        """
        self.stopping = True
        self._stop.set()
        if self._renewer is not None:  # (its renewal in progress ends before the delete)
            await asyncio.to_thread(self._renewer.join, CLOSE_SECONDS)
        await asyncio.wait_for(asyncio.to_thread(self.release), CLOSE_SECONDS)
        log.info("campfire serve: process %s gave its tables up", self.me)

    async def close(self) -> None:
        """Stop, give the leases up and disconnect (at shutdown)."""
        self.started = False
        self._stop.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 10)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:  # bounded: a shutdown never hangs on a task (or on Redis, below)
            _, pending = await asyncio.wait(tasks, timeout=CLOSE_SECONDS)
            if pending:
                log.warning("%d tasks of the cluster did not stop", len(pending))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.to_thread(self.release), CLOSE_SECONDS)
        if self._redis is not None:
            steps: list[Callable[[], Awaitable[Any]]] = [
                lambda: self._redis.delete(f"campfire:alive:{self.me}"),
                lambda: self._pubsub.aclose(),
                lambda: self._redis.aclose(),
            ]
            for step in steps:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(step(), CLOSE_SECONDS)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def new_id(self) -> str:
        """A connection's or request's id, unique among this process's."""
        return f"{self.me}/{next(self._ids)}"

    async def _alive(self) -> None:
        await self._redis.set(f"campfire:alive:{self.me}", "1", ex=max(1, math.ceil(self.lease)))

    def send(
        self, worker: str, payload: str, published: Callable[[int], None] | None = None
    ) -> None:
        """Publish ``payload`` to ``worker``'s channel (in order, batched).

        ``published`` is called once it is published, with the number of processes that
        received it: 0 if nobody listens on that channel (the process is gone) or Redis could
        not be reached.
        """
        self._out.append((f"campfire:w:{worker}", payload, published))
        if self._wake is not None:
            self._wake.set()

    async def _publish(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._out:
                batch, self._out = self._out, []
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, payload, _ in batch:
                            pipe.publish(channel, payload)
                        listeners = await pipe.execute()
                except Exception:
                    log.exception("could not publish %d messages to Redis", len(batch))
                    listeners = [0] * len(batch)
                for (_, _, published), count in zip(batch, listeners, strict=True):
                    if published is not None:
                        published(int(count))

    async def _watch_loop(self) -> None:
        failing = False
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                await self.watch()
            except Exception:
                if not failing:  # once per outage, not four times a second
                    log.exception("looking for processes that are gone failed")
                failing = True
            else:
                failing = False

    async def _dead_among(self, workers: Collection[str]) -> set[str]:
        """Those of ``workers`` that do not listen on their channel (they are gone)."""
        if not workers:
            return set()
        names = sorted(workers)
        counts = await self._redis.pubsub_numsub(*(f"campfire:w:{w}" for w in names))
        listening = {str(channel) for channel, count in counts if int(count) > 0}
        return {w for w in names if f"campfire:w:{w}" not in listening}

    async def watch(self) -> None:
        """Take over the tables of the processes that are gone; close the proxies to them.

        A process is gone when it no longer listens on its Redis channel: Redis drops the
        subscription the moment the process's connection closes (killed, crashed, its
        machine's kernel closed the socket). Its tables' leases are then taken at once
        (:attr:`dead`), without waiting for them to expire, and rebuilt from the log; only then
        are this process's clients at those tables closed with 1012, so that a reconnect
        finds the table served. A process that stalls keeps listening: its tables move only
        when their leases expire (:meth:`check`), and its writes stay fenced.
        """
        candidates = await asyncio.to_thread(self.lease_holders)
        candidates |= {p.owner for p in self.proxies.values()}
        candidates.discard(self.me)
        dead = await self._dead_among(candidates)
        self.dead = frozenset(dead)
        if dead:
            await self._take_over(dead)

    async def _take_over(self, dead: set[str]) -> None:
        """Take the tables of the processes ``dead`` (gone); see to the proxies to them.

        A proxy the gone owner had answered is closed with 1012 (its client reconnects with
        ``since=`` and finds the table served); one it had not (its ``open`` was lost) is
        opened again where its table is now, this process included: that client gets its
        snapshot as if nothing had happened.
        """
        manager = self.manager
        assert manager is not None
        self.dead = self.dead | dead
        adopted = manager.recover()
        if adopted:
            log.info("took over %d tables of processes that are gone", adopted)
        for conn_id, proxy in list(self.proxies.items()):
            if proxy.owner not in dead:
                continue
            if proxy.answered or proxy.opening is None:
                proxy.conn.close(protocol.CLOSE_MOVED)
                continue
            try:
                new = self.owner_for(proxy.table_id) or self.me
            except Exception:
                log.exception("table %s: could not find its owner", proxy.table_id)
                proxy.conn.close(protocol.CLOSE_MOVED)
                continue
            proxy.owner = new
            self.send(new, json.dumps(proxy.opening), self._on_published(conn_id, new))

    async def _if_gone(self, owner: str) -> None:
        """If ``owner`` is gone, take its tables over (:meth:`_take_over`)."""
        try:
            dead = await self._dead_among([owner])
            if dead:
                await self._take_over(dead)
        except Exception:
            log.exception("could not find out whether process %s is gone", owner)

    async def _owner_silent(self, conn_id: str, owner: str) -> None:
        """A message to ``owner`` for connection ``conn_id`` reached no process.

        If the owner is gone, its tables are taken over (:meth:`_take_over`: the connection
        is opened again where its table is, or closed with 1012); if it is not, or that
        cannot be known, the connection is closed with 1012. Never silence.
        """
        await self._if_gone(owner)
        proxy = self.proxies.get(conn_id)
        if proxy is not None and proxy.owner == owner:
            proxy.conn.close(protocol.CLOSE_MOVED)

    def _on_published(self, conn_id: str, owner: str) -> Callable[[int], None]:
        """A ``published`` callback: if nobody received it, see to the connection."""

        def published(count: int) -> None:
            if count == 0 and conn_id in self.proxies:
                self._spawn(self._owner_silent(conn_id, owner))

        return published

    async def _check_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.check()
            except Exception:
                log.exception("the lease check failed")

    def _renew_forever(self, loop: asyncio.AbstractEventLoop) -> None:
        """Renew this process's leases every third of the lease time, in a thread of its own.

        A busy event loop (a table being rebuilt, a slow claim) or a starved machine does not
        delay the renewals, so a process that is only slow keeps its tables: ownership does
        not bounce between processes under load. The tables found lost are dropped in the
        event loop (:meth:`_renewed`).
        """
        period = self.lease / 3
        due = time.monotonic()
        while True:
            due += period
            now = time.monotonic()
            if due < now:  # far behind (the process was stopped): from now on
                due = now + period
            if self._stop.wait(due - now):
                return
            started = time.monotonic()
            try:
                held = self.renew()
            except Exception:
                log.exception("the leases could not be renewed")
                continue
            with contextlib.suppress(RuntimeError):  # the loop is closed: shutting down
                loop.call_soon_threadsafe(self._renewed, held, started)

    def _renewed(self, held: set[int], started: float) -> None:
        """Drop the tables whose lease a renewal begun at ``started`` found taken."""
        manager = self.manager
        if manager is None:
            return
        for table_id in sorted(set(manager.tables) - held):
            if self._claimed.get(table_id, 0.0) >= started:
                continue  # taken after the renewal began: not lost
            log.warning("table %s: its lease was lost; another process serves it", table_id)
            self._claimed.pop(table_id, None)
            manager.drop(table_id)

    async def check(self) -> None:
        """Adopt orphans, close proxies whose table moved on, end dead proxies' connections.

        The orphans are the tables whose leases expired; a proxy is closed (1012) when
        another process holds its table's lease or its owner is gone; the connections of a
        proxying process that is gone are ended as if their clients had left.

        (The leases are renewed in a thread of their own, :meth:`_renew_forever`; the gone
        processes are looked for more often, :meth:`watch`.)
        """
        manager = self.manager
        assert manager is not None
        await self._alive()
        adopted = manager.recover()
        if adopted:
            log.info("took over %d tables whose owner went away", adopted)
        if self.proxies:
            tables = sorted({p.table_id for p in self.proxies.values()})
            holders = await asyncio.to_thread(self.holders, tables)
            for proxy in list(self.proxies.values()):
                # a lease that merely expired (its owner is slow) is not a move: only another
                # holder, or an owner that is gone, is
                if holders.get(proxy.table_id) != proxy.owner or proxy.owner in self.dead:
                    proxy.conn.close(protocol.CLOSE_MOVED)
        for worker in {r.worker for r in self.remotes.values()}:
            if not await self._redis.exists(f"campfire:alive:{worker}"):
                # that process is gone: its clients count as having left (they reconnect)
                for remote in [r for r in self.remotes.values() if r.worker == worker]:
                    remote.close(protocol.CLOSE_MOVED)

    # ----- messages from the other processes ----------------------------------------------------

    async def _listen(self, pubsub: Any) -> None:
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                self._receive(str(message["data"]))
            except Exception:
                log.exception("a message from another process failed")

    def _receive(self, data: str) -> None:
        kind = data[:1]
        if kind in ("F", "C"):  # a frame for (or the close of) one of this process's clients
            conn_id, _, rest = data[1:].partition("\n")
            proxy = self.proxies.get(conn_id)
            if proxy is None:
                return
            proxy.answered = True
            if kind == "F":
                proxy.conn.push(rest)
            else:
                proxy.conn.close(int(rest))
            return
        op: dict[str, Any] = json.loads(data)
        name = op.get("op")
        if name == "open":
            remote = RemoteConnection(
                self,
                op["conn"],
                op["worker"],
                int(op["table"]),
                str(op.get("lang") or "en"),
                patches=op.get("patches") is True,  # absent: a process from before patches
            )
            remote.views = op.get("views") is True  # the client asked for raw views (view=1)
            self.remotes[remote.id] = remote
            self._spawn(self._serve_remote(remote, op))
        elif name in ("msg", "close"):
            found = self.remotes.get(op["conn"])
            if found is not None:
                found.inbox.put_nowait((name, op.get("text")))
            elif name == "msg":  # this process no longer serves that connection
                self.send(op["worker"], f"C{op['conn']}\n{protocol.CLOSE_MOVED}")
        elif name == "http":
            self._spawn(self._serve_http(op))
        elif name == "reply":
            future = self._replies.pop(op["id"], None)
            if future is not None and not future.done():
                future.set_result(op)

    async def _serve_remote(self, remote: RemoteConnection, op: dict[str, Any]) -> None:
        """Serve a client of another process as a connection of this one."""
        from .app import attach, dispatch

        manager = self.manager
        assert manager is not None
        live: LiveTable | None = None
        try:
            try:
                live = await attach(
                    manager, remote, str(op["table"]), op.get("token"), op.get("since")
                )
            except Elsewhere:
                remote.close(protocol.CLOSE_MOVED)
            if live is None:
                return
            while True:
                kind, message = await remote.inbox.get()
                if kind == "close":
                    return
                if manager.tables.get(live.id) is not live:  # dropped: the lease was lost
                    remote.close(protocol.CLOSE_MOVED)
                    return
                await dispatch(message or "", remote, live, manager)
        finally:
            self.remotes.pop(remote.id, None)
            if live is not None:
                live.connections.discard(remote)
                seat = remote.seat
                mine = manager.tables.get(live.id) is live
                if seat is not None and live.status == "running" and mine:
                    manager.left(live, seat)

    # ----- a client of this process at another's table -------------------------------------------

    def open_proxy(
        self,
        conn: Connection,
        table_id: int,
        owner: str,
        token: str | None,
        since: int | None,
    ) -> str:
        """Ask ``owner`` to serve ``conn`` at ``table_id``; the proxy's id.

        If ``owner`` turns out to be gone (nobody receives the request), its tables are taken
        over and the connection is opened where ``table_id`` is then, this process included
        (:meth:`_owner_silent`).
        """
        conn_id = self.new_id()
        opening = {
            "op": "open",
            "conn": conn_id,
            "worker": self.me,
            "table": table_id,
            "token": token,
            "since": since,
            "lang": conn.language,
            "patches": conn.patches,
            "views": conn.views,
        }
        self.proxies[conn_id] = Proxy(conn, table_id, owner, opening)
        self.send(owner, json.dumps(opening), self._on_published(conn_id, owner))
        return conn_id

    def forward(self, conn_id: str, message: str | bytes) -> None:
        """Pass a client's message on to its table's owner.

        A message that reaches no process (the owner is gone) closes the connection with
        1012 once the owner's tables have been taken over (:meth:`_owner_silent`).
        """
        proxy = self.proxies.get(conn_id)
        if proxy is None:
            return
        if isinstance(message, bytes):
            message = message.decode("utf-8", "replace")
        self.send(
            proxy.owner,
            json.dumps({"op": "msg", "conn": conn_id, "worker": self.me, "text": message}),
            self._on_published(conn_id, proxy.owner),
        )

    def close_proxy(self, conn_id: str) -> None:
        """The client left: tell the owner."""
        proxy = self.proxies.pop(conn_id, None)
        if proxy is not None:
            self.send(proxy.owner, json.dumps({"op": "close", "conn": conn_id, "worker": self.me}))

    # ----- HTTP requests about a table ---------------------------------------------------------

    async def serve_http(
        self, app: App, table_id: int, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Answer an HTTP request about ``table_id`` at the process that owns the table.

        Run through ``app`` here if this process owns the table (or nobody does: it takes it),
        else forwarded to the owner. A request caught in the table's move (:func:`_is_moved`:
        the process that ran it no longer had the table; the owner was gone; this process's
        lease was lost while it ran) is run again where the table is then, until
        :data:`FORWARD_TIMEOUT` has passed; only then is it answered 503 ``table_moved`` (in
        the request's language, with ``Retry-After``). Trying again is safe: the table's lease
        is checked before anything is changed (:meth:`claim`), and a write whose lease was
        lost is refused whole (:meth:`fence`).
        """
        request = Request(scope, receive)
        try:
            body = await read_body(request, MAX_BODY_BYTES)
        except ClientDisconnect:
            return  # the client went away
        except LobbyError as exc:
            await self._error(exc, request).send(send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FORWARD_TIMEOUT
        pause = 0.05
        while True:
            owner = self.owner_for(table_id)
            if owner is None:
                answer = await self._run_here(app, scope, body, send)
                if answer is None:
                    return  # answered
            else:
                asked = await self._ask(owner, table_id, scope, body, deadline - loop.time())
                if asked is None:  # it may have run the request: not asked again
                    answer = self._error(
                        LobbyError(
                            503,
                            "table_moved",
                            ErrorText(
                                "the server process that serves table {table} did not answer "
                                "in time: try again in a moment",
                                table=table_id,
                            ),
                        ),
                        request,
                    )
                    break
                answer = asked
            if not _is_moved(answer):
                break
            left = deadline - loop.time()
            if left <= 0:
                answer = self._error(Elsewhere(table_id, owner or ""), request)
                break
            await asyncio.sleep(min(pause, left))  # the new owner renews the lease meanwhile
            pause = min(pause * 2, self.lease / 4)
        await answer.send(send)

    def _error(self, error: LobbyError, request: Request) -> Answer:
        """``error`` as the lobby answers it: JSON, in the request's language."""
        message = translator(language_of(request)).error(error)
        headers = []
        if error.code == "table_moved":
            headers.append(("retry-after", str(max(1, math.ceil(self.lease / 3)))))
        return _json_answer(
            error.status, {"error": {"code": error.code, "message": message}}, headers
        )

    async def _run_here(self, app: App, scope: Scope, body: bytes, send: Send) -> Answer | None:
        """Run a request through ``app``; ``None`` once answered, or an answer that says moved.

        An answer other than 503 is passed on as it comes; a 503 is held back until it is
        whole, to see whether it says ``table_moved``.
        """
        held = Answer(503, [], b"")
        passing = False

        async def hold(message: MutableMapping[str, Any]) -> None:
            nonlocal passing
            if passing:
                await send(message)
            elif message["type"] == "http.response.start":
                if message["status"] != 503:
                    passing = True
                    await send(message)
                else:
                    held.headers = [
                        (k.decode("latin-1"), v.decode("latin-1")) for k, v in message["headers"]
                    ]
            elif message["type"] == "http.response.body":
                held.body += message.get("body", b"")

        try:
            await app(scope, _body_once(body), hold)
        except (Elsewhere, LeaseLost) as exc:
            if passing:
                raise
            if isinstance(exc, LeaseLost) and self.manager is not None:
                self.manager.drop(exc.table_id)
            return _json_answer(503, {"error": {"code": "table_moved", "message": str(exc)}})
        if passing:
            return None
        if _is_moved(held):
            return held
        await held.send(send)
        return None

    async def run_forwarded(
        self, app: App, table_id: int, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Run an HTTP request another process forwarded here (and nowhere else).

        If this process turns out not to own ``table_id`` (any more) the answer is 503
        ``table_moved``, and the forwarding process tries again.
        """
        request = Request(scope, receive)
        started = False

        async def watch(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            await app(scope, receive, watch)
        except (Elsewhere, LeaseLost) as exc:
            if started:
                raise
            if isinstance(exc, LeaseLost) and self.manager is not None:
                self.manager.drop(exc.table_id)
            moved = exc if isinstance(exc, Elsewhere) else Elsewhere(table_id, "")
            await self._error(moved, request).send(send)

    async def _ask(
        self, owner: str, table_id: int, scope: Scope, body: bytes, timeout: float
    ) -> Answer | None:
        """Have ``owner`` run this request; its answer (``None``: none came within ``timeout``).

        An owner that is not listening (gone) answers at once that the table moved. While
        the answer is awaited, the lease is looked at every third of the lease time: if the
        table has moved on (the owner stalled and lost it), a request that only reads
        (``GET``, ``HEAD``) is answered as moved, to be run again where the table is now; any
        other gets ``None`` (the old owner may have run it before it stalled).
        """
        request_id = self.new_id()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._replies[request_id] = future
        delivered: asyncio.Future[bool] = loop.create_future()

        def published(count: int) -> None:
            if not delivered.done():
                delivered.set_result(count > 0)
            if not count and not future.done():
                future.set_result(_MOVED_REPLY)
                self._spawn(self._if_gone(owner))  # its tables are served again at once

        self.send(
            owner,
            json.dumps(
                {
                    "op": "http",
                    "id": request_id,
                    "worker": self.me,
                    "method": scope["method"],
                    "path": scope["path"],
                    "query": scope.get("query_string", b"").decode("latin-1"),
                    "headers": [
                        [k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]
                    ],
                    "body": base64.b64encode(body).decode("ascii"),
                }
            ),
            published,
        )
        end = loop.time() + timeout
        try:
            while True:
                left = end - loop.time()
                if left <= 0:
                    if not delivered.done():  # whether it reached the owner: known in a moment
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(asyncio.shield(delivered), 1.0)
                    if future.done():
                        return Answer.from_json(future.result())
                    return None
                try:
                    reply = await asyncio.wait_for(
                        asyncio.shield(future), min(left, self.lease / 3)
                    )
                except TimeoutError:
                    owners = await asyncio.to_thread(self.owners, [table_id])
                    if owners.get(table_id) == owner:
                        continue  # still the owner: it is only slow
                    if scope["method"] in ("GET", "HEAD"):
                        reply = _MOVED_REPLY
                    else:
                        return None
                return Answer.from_json(reply)
        finally:
            self._replies.pop(request_id, None)

    async def _serve_http(self, op: dict[str, Any]) -> None:
        """Run a forwarded HTTP request through this process's application; send the answer."""
        assert self.app is not None
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in op["headers"]]
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": op["method"],
            "scheme": "http",
            "path": op["path"],
            "raw_path": op["path"].encode("utf-8"),
            "query_string": op["query"].encode("latin-1"),
            "root_path": "",
            "headers": [*headers, (_FORWARDED, b"1")],
            "client": ("127.0.0.1", 0),
            "server": ("127.0.0.1", 0),
        }
        try:
            answer = await _capture(self.app, scope, base64.b64decode(op["body"]))
        except Exception:
            log.exception("a forwarded request failed")
            answer = self._error(
                LobbyError(500, "internal", ErrorText("the server could not handle that request")),
                Request(scope),
            )
        self.send(op["worker"], json.dumps({"op": "reply", "id": op["id"], **answer.to_json()}))


#: a ``reply`` that says the table moved (for a request its owner never received or ran)
_MOVED_REPLY: dict[str, Any] = {
    "status": 503,
    "headers": [],
    "body": base64.b64encode(
        json.dumps({"error": {"code": "table_moved", "message": ""}}).encode()
    ).decode("ascii"),
}
