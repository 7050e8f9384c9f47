"""A graceful stop of one server process (SIGTERM), bounded in time.

uvicorn's own stop closes every WebSocket with 1012 first and shuts the application down
after, so a client that reconnects at once (to another process of ``--workers N``) finds its
table still held by the stopping process and is proxied there, only to be moved again a
moment later. :class:`.graceful_server.GracefulServer` stops in this order instead:

1. it stops accepting connections (with ``--workers N`` the other processes, sharing the
   listening socket, accept them from now on; ``GET /healthz`` answers 503);
2. it *drains* the application (:func:`register_drain`; the application's drain is
   :func:`drain_tables`): it takes every table's lock, so the action in flight (a person's or
   a bot's) finishes, is committed and broadcast, and no other starts; waits for the log
   writer's commits; gives its table leases up (another process takes a table the moment one
   of its clients reconnects); and drops the tables, closing their connections with 1012
   (:data:`.protocol.CLOSE_MOVED`: "reconnect"), those proxied from other processes too;
3. a connection it accepted just before it stopped accepting, whose first request has not
   arrived whole yet, may still send it (at most a fifth of the bound) and is answered:
   uvicorn's stop would close it unanswered, as if idle;
4. uvicorn's own stop: the remaining connections (lobby requests, this process's clients at
   other processes' tables) are closed, 1012 for WebSockets, and the application shut down.

The whole stop is bounded by ``stop_timeout`` (``campfire serve --stop-timeout``, default
:data:`STOP_TIMEOUT` seconds): the drain may take at most a third of it, the first requests
a fifth, the connections' tasks another third; if the process is still there when the bound
runs out it exits at once (status 1, logged). A second SIGTERM or SIGINT does the same.
Nothing that a client was told happened is lost by a forced exit: every action is committed
before it is broadcast.

The process exits with status 0 after a graceful stop (uvicorn's own would kill itself with
the signal it got again).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cluster import Cluster
    from .tables import TableManager

__all__ = ["FORCED", "STOP_TIMEOUT", "drain_tables", "register_drain", "running_drains"]

#: How long a stopping process may take (seconds), unless ``--stop-timeout`` says otherwise;
#: well under systemd's ``TimeoutStopSec=30`` (``deploy/systemd/campfire.service``).
STOP_TIMEOUT = 10.0

#: The status of a process whose stop was forced (a second signal, or the bound ran out).
FORCED = 1

_drains: list[Callable[[], Awaitable[None]]] = []


def register_drain(drain: Callable[[], Awaitable[None]]) -> Callable[[], None]:
    """Have a stopping server (:mod:`.graceful_server`) await ``drain`` before closing connections.

    The application's lifespan registers its drain when it starts; the function returned
    unregisters it (when the application has shut down).
    """
    _drains.append(drain)

    def unregister() -> None:
        with contextlib.suppress(ValueError):
            _drains.remove(drain)

    return unregister


async def drain_tables(manager: TableManager, cluster: Cluster | None) -> int:
    """Finish the action in flight at every table, commit, give the tables up; how many.

    The bots stop (a move a bot is still thinking about is not waited for: nobody was told
    of it). Each table's lock is taken (in table order), so the action that holds it (its
    commit included, :class:`~.writer.LogWriter`) finishes and no other action starts;
    then the writer's queue is flushed, the cluster's leases are given up (other processes
    take the tables at once: :meth:`.cluster.Cluster.stop_serving`), and the tables are
    dropped from memory, which closes their connections with 1012. An action that was
    waiting for a lock meanwhile is refused by the lease fence (several processes: nothing of
    it is written, and its client, already closed, was told nothing) or, in a single process,
    committed like any other.
    """
    if cluster is not None:
        cluster.stop_claiming()  # no table is taken (or taken back) from now on
    tables = [manager.tables[t] for t in sorted(manager.tables)]
    for live in tables:
        # a bot thinks with its table's lock held (seconds, at a high level): its move is not
        # waited for; one being committed right now is in the log all the same
        if live.bot_task is not None:
            live.bot_task.cancel()
    held = []
    try:
        for live in tables:
            await live.lock.acquire()
            held.append(live)
        await manager.writer.close()
        if cluster is not None:
            await cluster.stop_serving()
        for live in tables:
            manager.drop(live.id)  # its connections: closed with 1012
    finally:
        for live in held:
            live.lock.release()
    return len(tables)


def running_drains() -> list[Callable[[], Awaitable[None]]]:
    """The drains registered now (:func:`register_drain`), in their order."""
    return list(_drains)
