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
  and the clocks' :class:`~.store.Store` writes) first locks this process's lease rows of the
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

The parts are modules of their own: the leases' SQL (:mod:`.leases`), the bus between the
processes (:mod:`.bus`: Redis, or in memory for tests), socket proxying (:mod:`.remote`) and
HTTP forwarding (:mod:`.forwarding`); :class:`Cluster` runs them and decides when.

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
import contextlib
import itertools
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Collection, Coroutine
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session, sessionmaker

from . import protocol
from .bus import DEFAULT_REDIS_URL, Bus, Published, RedisBus, check_redis
from .connection import Connection
from .forwarding import FORWARD_TIMEOUT, App, ForwardMiddleware, HttpForwarding
from .leases import Elsewhere, LeaseStore
from .remote import Proxy, RemoteConnection, SocketRelay

if TYPE_CHECKING:
    from .tables import TableManager

__all__ = [
    "DEFAULT_REDIS_URL",
    "FORWARD_TIMEOUT",
    "LEASE_SECONDS",
    "Cluster",
    "Elsewhere",
    "ForwardMiddleware",
    "RemoteConnection",
    "check_redis",
]

log = logging.getLogger(__name__)

#: How long a table's lease lasts without renewal (seconds): a dead process's tables are
#: taken over after at most this long (plus a third of it, the interval of the checks).
LEASE_SECONDS = 10.0
#: How often each process looks for processes that are gone (seconds): a process whose Redis
#: connection closed (it was killed, it crashed) no longer listens on its channel, and its
#: tables are taken over at once, whatever their leases say (see :meth:`Cluster.watch`).
WATCH_SECONDS = 0.25
#: How long a process's shutdown waits for each of its cluster's steps (seconds)
CLOSE_SECONDS = 5.0


class Cluster:
    """One process's part in a group of server processes (see the module's description).

    ``bus`` replaces the Redis bus at ``redis_url`` (e.g. a :class:`~.bus.MemoryBus`).
    """

    def __init__(
        self,
        sessions: sessionmaker[Session],
        redis_url: str = DEFAULT_REDIS_URL,
        lease_seconds: float = LEASE_SECONDS,
        worker: str | None = None,
        bus: Bus | None = None,
    ) -> None:
        self.sessions = sessions
        self.redis_url = redis_url
        self.lease = float(lease_seconds)
        #: this process's id (``host:pid:random``)
        self.me = worker or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.manager: TableManager | None = None
        #: the ASGI application forwarded HTTP requests are run through
        self.app: App | None = None
        self.started = False
        #: the leases' SQL (:mod:`.leases`)
        self.leases = LeaseStore(sessions, self.me, self.lease)
        #: the messages between the processes (:mod:`.bus`)
        self.bus: Bus = bus if bus is not None else RedisBus(redis_url, self.me, self.lease)
        #: clients proxied between processes, both sides (:mod:`.remote`)
        self.relay = SocketRelay(self)
        #: lobby requests run at the table's owner (:mod:`.forwarding`)
        self.http = HttpForwarding(self)
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None
        self._ids = itertools.count()
        self._tasks: set[asyncio.Task[Any]] = set()

    # ----- the parts' state, as it was named before the split -----------------------------------

    @property
    def remotes(self) -> dict[str, RemoteConnection]:
        """The owner's side: clients of other processes at this process's tables."""
        return self.relay.remotes

    @property
    def proxies(self) -> dict[str, Proxy]:
        """The proxy's side: this process's clients at other processes' tables."""
        return self.relay.proxies

    @property
    def stopping(self) -> bool:
        """Set when this process stops (:meth:`stop_claiming`): it takes no more tables."""
        return self.leases.stopping

    @stopping.setter
    def stopping(self, value: bool) -> None:
        self.leases.stopping = value

    @property
    def dead(self) -> frozenset[str]:
        """The processes known to be gone: their leases may be taken at once."""
        return self.leases.dead

    @dead.setter
    def dead(self, value: frozenset[str]) -> None:
        self.leases.dead = value

    # ----- the leases (:mod:`.leases`) ----------------------------------------------------------

    def claim(self, table_id: int) -> bool:
        """Take or renew the lease of ``table_id`` (:meth:`.LeaseStore.claim`)."""
        return self.leases.claim(table_id)

    def renew(self) -> set[int]:
        """Renew every lease of this process; the tables it still holds."""
        return self.leases.renew()

    def fence(self, session: Session, table_ids: Collection[int]) -> None:
        """Raise :class:`~.writer.LeaseLost` unless this process holds all of ``table_ids``."""
        self.leases.fence(session, table_ids)

    def orphans(self) -> list[int]:
        """The running tables nobody holds, oldest first."""
        return self.leases.orphans()

    def release_table(self, table_id: int) -> None:
        """Give up the lease of ``table_id`` (:meth:`.LeaseStore.release_table`)."""
        self.leases.release_table(table_id)

    def owners(self, table_ids: list[int]) -> dict[int, str]:
        """The processes holding unexpired leases of ``table_ids`` (not those known gone)."""
        return self.leases.owners(table_ids)

    def holders(self, table_ids: list[int]) -> dict[int, str]:
        """The processes named in the leases of ``table_ids``, expired or not."""
        return self.leases.holders(table_ids)

    def lease_holders(self) -> set[str]:
        """The other processes that hold (or held: expired) the lease of a running table."""
        return self.leases.lease_holders()

    def release(self) -> None:
        """Give up every lease (a clean stop: the others take the tables over at once)."""
        self.leases.release()

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

    # ----- running ----------------------------------------------------------------------------

    async def start(self, manager: TableManager, app: Any) -> None:
        """Connect to the bus, listen on this process's channel, start the lease checks."""
        self.manager = manager
        manager.cluster = self
        manager.writer.fence = manager.store.fence = self.fence
        self.app = app
        await self.bus.connect(self._receive)
        self.spawn(self._check_loop())
        self.spawn(self._watch_loop())
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
        await self.bus.close()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as one of the cluster's tasks (cancelled at :meth:`close`)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def new_id(self) -> str:
        """A connection's or request's id, unique among this process's."""
        return f"{self.me}/{next(self._ids)}"

    def send(self, worker: str, payload: str, published: Published | None = None) -> None:
        """Publish ``payload`` to ``worker``'s channel (in order; :meth:`.bus.Bus.send`)."""
        self.bus.send(worker, payload, published)

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
        dead = await self.bus.dead_among(candidates)
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
            self.send(new, json.dumps(proxy.opening), self.on_published(conn_id, new))

    async def if_gone(self, owner: str) -> None:
        """If ``owner`` is gone, take its tables over (:meth:`_take_over`)."""
        try:
            dead = await self.bus.dead_among([owner])
            if dead:
                await self._take_over(dead)
        except Exception:
            log.exception("could not find out whether process %s is gone", owner)

    async def owner_silent(self, conn_id: str, owner: str) -> None:
        """A message to ``owner`` for connection ``conn_id`` reached no process.

        If the owner is gone, its tables are taken over (:meth:`_take_over`: the connection
        is opened again where its table is, or closed with 1012); if it is not, or that
        cannot be known, the connection is closed with 1012. Never silence.
        """
        await self.if_gone(owner)
        proxy = self.proxies.get(conn_id)
        if proxy is not None and proxy.owner == owner:
            proxy.conn.close(protocol.CLOSE_MOVED)

    def on_published(self, conn_id: str, owner: str) -> Callable[[int], None]:
        """A ``published`` callback: if nobody received it, see to the connection."""

        def published(count: int) -> None:
            if count == 0 and conn_id in self.proxies:
                self.spawn(self.owner_silent(conn_id, owner))

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
            if self.leases.claimed.get(table_id, 0.0) >= started:
                continue  # taken after the renewal began: not lost
            log.warning("table %s: its lease was lost; another process serves it", table_id)
            self.leases.claimed.pop(table_id, None)
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
        await self.bus.mark_alive()
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
            if not await self.bus.is_alive(worker):
                # that process is gone: its clients count as having left (they reconnect)
                for remote in [r for r in self.remotes.values() if r.worker == worker]:
                    remote.close(protocol.CLOSE_MOVED)

    # ----- messages from the other processes ----------------------------------------------------

    # ----- messages from the other processes ----------------------------------------------------

    def _receive(self, data: str) -> None:
        kind = data[:1]
        if kind in ("F", "C"):  # a frame for (or the close of) one of this process's clients
            self.relay.frame_for_proxy(kind, data[1:])
            return
        op: dict[str, Any] = json.loads(data)
        name = op.get("op")
        if name == "open":
            self.relay.opened(op)
        elif name in ("msg", "close"):
            self.relay.message(name, op)
        elif name == "http":
            self.spawn(self.http.serve_op(op))
        elif name == "reply":
            self.http.reply(op)

    # ----- a client of this process at another's table (:mod:`.remote`) ----------------------

    def open_proxy(
        self,
        conn: Connection,
        table_id: int,
        owner: str,
        token: str | None,
        since: int | None,
    ) -> str:
        """Ask ``owner`` to serve ``conn`` at ``table_id``; the proxy's id."""
        return self.relay.open_proxy(conn, table_id, owner, token, since)

    def forward(self, conn_id: str, message: str | bytes) -> None:
        """Pass a client's message on to its table's owner."""
        self.relay.forward(conn_id, message)

    def close_proxy(self, conn_id: str) -> None:
        """The client left: tell the owner."""
        self.relay.close_proxy(conn_id)
