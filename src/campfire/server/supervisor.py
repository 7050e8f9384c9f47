"""The parent of ``campfire serve --workers N``: it holds the socket and keeps N processes serving.

uvicorn's own supervisor starts each worker with ``multiprocessing``'s *spawn* (a fresh
interpreter that imports everything again: seconds on a busy machine) and looks at its workers
every half second, so a worker that died was replaced several seconds later, and two that died
one after the other left no process at all for that long. This one:

- binds the listening socket once and keeps it open, so a connection that arrives while no
  worker is accepting waits in the socket's backlog instead of being refused;
- imports the application's modules before it starts any worker, and starts each worker with
  ``fork``: a replacement has nothing to import, only the application to build (the database
  check, Redis, taking over tables), well under a second;
- waits on its children (``os.wait``), so it replaces a worker the moment it exits, each one on
  its own, while the others go on serving;
- on SIGTERM or SIGINT passes SIGTERM to the workers (each stops cleanly: it gives its leases
  up, :meth:`.cluster.Cluster.close`) and exits once they have.

A worker that fails before serving (uvicorn's start-up failure, exit status 3: the application
cannot be built) stops the whole group, as uvicorn's supervisor does; a worker that keeps
failing by itself within a second of its start is started again after a growing pause (up
to 5 s); one killed by a signal is replaced at once.
The parent starts no thread and no event loop before it forks.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import signal
import socket
import time
from typing import Any

__all__ = ["supervise"]

log = logging.getLogger(__name__)

#: uvicorn's exit status for a worker that could not start (``uvicorn.config.STARTUP_FAILURE``)
STARTUP_FAILURE = 3


def supervise(app: str, workers: int, options: dict[str, Any]) -> int:
    """Serve ``app`` (``module:factory``) with ``workers`` forked processes; the exit status.

    ``options`` are :class:`uvicorn.Config`'s (host, port, protocol options ...).
    """
    import uvicorn

    config = uvicorn.Config(app, factory=True, **options)
    sock = config.bind_socket()
    _warm(config, app)
    gc.collect()  # once here: a worker's own collection (cli.tune_gc) finds it all frozen
    gc.freeze()
    children: dict[int, float] = {}
    stopping = False
    failures = 0

    def start() -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            status = 1
            try:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                _serve(config, sock)
                status = 0
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                log.exception("a worker failed")
            finally:
                os._exit(status)
        children[pid] = time.monotonic()
        log.info("campfire serve: worker %d started", pid)

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.info("campfire serve: supervisor %d, %d workers", os.getpid(), workers)
    for _ in range(workers):
        start()
    status = 0
    while children:
        try:
            pid, wait_status = os.wait()
        except ChildProcessError:
            break
        started = children.pop(pid, None)
        if started is None or stopping:
            continue
        code = os.waitstatus_to_exitcode(wait_status)
        if code == STARTUP_FAILURE:
            log.error("campfire serve: worker %d could not start; stopping", pid)
            status = STARTUP_FAILURE
            stop(signal.SIGTERM, None)
            continue
        log.warning("campfire serve: worker %d exited (%d); starting another", pid, code)
        # a worker that fails by itself right after its start (not one that was killed)
        crashed = code >= 0 and time.monotonic() - started < 1.0
        failures = failures + 1 if crashed else 0
        if failures:
            time.sleep(min(5.0, 0.1 * 2**failures))  # not in a tight loop
            if stopping:
                continue
        start()
    sock.close()
    return status


#: modules a worker imports only when it starts (the database's and Redis's drivers, the
#: migrations): imported by the parent once, before it forks
WARM = ("psycopg", "redis.asyncio", "alembic.command", "sqlalchemy.dialects.postgresql.psycopg")


def _warm(config: Any, app: str) -> None:
    """Import what every worker needs, so that a forked worker has nothing left to import."""
    import importlib

    from uvicorn.config import HTTP_PROTOCOLS, WS_PROTOCOLS
    from uvicorn.importer import import_from_string

    importlib.import_module(app.partition(":")[0])
    for name in WARM:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    for value, known in ((config.http, HTTP_PROTOCOLS), (config.ws, WS_PROTOCOLS)):
        if isinstance(value, str):
            target = known.get(value, value)
            if target:
                with contextlib.suppress(Exception):
                    import_from_string(target)


def _serve(config: Any, sock: socket.socket) -> None:
    """A worker: serve on the inherited socket until told to stop."""
    import uvicorn

    config.configure_logging()
    uvicorn.Server(config).run(sockets=[sock])
