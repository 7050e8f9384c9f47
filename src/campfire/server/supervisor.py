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
- notices a worker's exit at once (``SIGCHLD``), and replaces each one on its own, while the
  others go on serving;
- on SIGTERM or SIGINT passes SIGTERM to the workers (each stops gracefully,
  :mod:`.graceful`: it finishes the action in flight, gives its tables up and closes its
  clients with 1012) and exits once they have; a worker still there ``stop_timeout`` + 5 s
  later, or after a second signal, is killed (``SIGKILL``);
- on SIGHUP restarts the workers one at a time (a *rolling restart*, for an upgrade): it starts
  a new worker, waits until it serves, then stops one old worker gracefully, and so on, so at
  least N processes accept throughout and no acknowledged action is lost (each old worker's
  tables are taken over by the others the moment its clients reconnect). The new workers are
  started with ``exec`` (a fresh interpreter), so they run the code installed *now*: an
  upgrade is ``pip install`` the new version, then ``kill -HUP`` the supervisor
  (``systemctl reload campfire``). From then on a worker that dies is replaced the same way. A
  new worker that fails to start (exits, or does not serve within :data:`START_TIMEOUT`) ends
  the rolling restart: the old workers go on serving, and the error is logged. The supervisor
  itself (this module, a few hundred lines) keeps the code it started with: a change to it
  needs a full restart.

A worker that fails before serving (uvicorn's start-up failure, exit status 3: the application
cannot be built) at start stops the whole group, as uvicorn's supervisor does; a worker that
keeps failing by itself within a second of its start is started again after a growing pause (up
to 5 s); one killed by a signal is replaced at once.
The parent starts no thread and no event loop before it forks.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import select
import signal
import socket
import sys
import time
from dataclasses import dataclass
from typing import Any

from .graceful import STOP_TIMEOUT

__all__ = ["START_TIMEOUT", "exec_worker", "supervise"]

log = logging.getLogger(__name__)

#: uvicorn's exit status for a worker that could not start (``uvicorn.config.STARTUP_FAILURE``)
STARTUP_FAILURE = 3
#: How long a rolling restart's new worker may take to serve (seconds) before it is given up
START_TIMEOUT = 120.0
#: The environment variable an exec'd worker reads its settings from (:func:`exec_worker`)
WORKER_VARIABLE = "CAMPFIRE_SERVE_WORKER"
#: How long after ``stop_timeout`` the supervisor waits for a stopping worker before killing it
KILL_GRACE = 5.0


def supervise(
    app: str, workers: int, options: dict[str, Any], stop_timeout: float = STOP_TIMEOUT
) -> int:
    """Serve ``app`` (``module:factory``) with ``workers`` processes until stopped; the exit status.

    ``options`` are :class:`uvicorn.Config`'s (host, port, protocol options ..., by name and
    JSON-serialisable: a rolling restart passes them to new interpreters); ``stop_timeout``
    bounds each worker's graceful stop (:mod:`.graceful`).
    """
    import uvicorn

    config = uvicorn.Config(app, factory=True, **options)
    sock = config.bind_socket()
    _warm(config, app)
    gc.collect()  # once here: a worker's own collection (cli.tune_gc) finds it all frozen
    gc.freeze()
    return _Supervisor(app, workers, options, config, sock, stop_timeout).run()


@dataclass
class _Worker:
    pid: int
    started: float
    #: the pipe's reading end the worker writes a byte to once it serves (``None``: it did)
    ready: int | None
    #: "serving", "new" (a rolling restart's, not serving yet) or "stopping"
    role: str = "serving"
    #: when it was told to stop (``time.monotonic``)
    stop_at: float | None = None


class _Supervisor:
    """The supervisor's state and loop (see the module's description)."""

    def __init__(
        self,
        app: str,
        workers: int,
        options: dict[str, Any],
        config: Any,
        sock: socket.socket,
        stop_timeout: float,
    ) -> None:
        self.app = app
        self.workers = workers
        self.options = options
        self.config = config
        self.sock = sock
        self.stop_timeout = stop_timeout
        self.children: dict[int, _Worker] = {}
        #: workers are started with exec (new code) since the first rolling restart
        self.exec_mode = False
        #: during a rolling restart: the old workers still to replace
        self.rolling: list[int] | None = None
        self.stopping = False
        self.status = 0
        self.failures = 0
        self.signals: list[int] = []
        self.wake_r, self.wake_w = os.pipe()

    # ----- starting workers -------------------------------------------------------------------

    def start(self, role: str = "serving") -> _Worker:
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            status = 1
            try:
                os.close(ready_r)
                signal.set_wakeup_fd(-1)
                for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD):
                    signal.signal(sig, signal.SIG_DFL)
                signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the supervisor's signal
                os.close(self.wake_r)
                os.close(self.wake_w)
                for other in self.children.values():
                    if other.ready is not None:
                        os.close(other.ready)
                if self.exec_mode or role == "new":
                    self._exec(ready_w)  # does not return
                _serve(self.config, self.sock, self.stop_timeout, ready_w)
                status = 0
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                log.exception("a worker failed")
            finally:
                os._exit(status)
        os.close(ready_w)
        worker = _Worker(pid, time.monotonic(), ready_r, role)
        self.children[pid] = worker
        how = "exec" if self.exec_mode or role == "new" else "fork"
        log.info("campfire serve: worker %d started (%s)", pid, how)
        return worker

    def _exec(self, ready_w: int) -> None:
        """In a forked child: become a fresh interpreter serving as a worker (new code)."""
        os.set_inheritable(self.sock.fileno(), True)
        os.set_inheritable(ready_w, True)
        spec = {
            "app": self.app,
            "options": self.options,
            "fd": self.sock.fileno(),
            "ready": ready_w,
            "stop_timeout": self.stop_timeout,
        }
        env = dict(os.environ, **{WORKER_VARIABLE: json.dumps(spec)})
        code = "from campfire.server.supervisor import exec_worker; exec_worker()"
        os.execve(sys.executable, [sys.executable, "-c", code], env)

    # ----- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        os.set_blocking(self.wake_w, False)
        signal.set_wakeup_fd(self.wake_w, warn_on_full_buffer=False)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(sig, self._on_signal)
        log.info("campfire serve: supervisor %d, %d workers", os.getpid(), self.workers)
        for _ in range(self.workers):
            self.start()
        while self.children:
            waiting = {w.ready: w for w in self.children.values() if w.ready is not None}
            try:
                readable, _, _ = select.select([self.wake_r, *waiting], [], [], 0.5)
            except InterruptedError:  # pragma: no cover - (retried by Python itself)
                readable = []
            if self.wake_r in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(self.wake_r, 4096)
            for fd in readable:
                if fd in waiting:
                    self._ready(waiting[fd])
            self._handle_signals()
            self._reap()
            self._tick()
        signal.set_wakeup_fd(-1)
        self.sock.close()
        return self.status

    def _on_signal(self, signum: int, frame: Any) -> None:
        self.signals.append(signum)

    def _handle_signals(self) -> None:
        signals, self.signals = self.signals, []
        for sig in signals:
            if sig in (signal.SIGTERM, signal.SIGINT):
                if self.stopping:
                    log.warning("campfire serve: signal %d again: killing the workers", sig)
                    self._kill_all()
                else:
                    log.info("campfire serve: stopping the workers (signal %d)", sig)
                    self.stop_all()
            elif sig == signal.SIGHUP and not self.stopping:
                self.rolling_restart()

    def stop_all(self) -> None:
        """Stop every worker gracefully; kill those still there after the bound."""
        self.stopping = True
        self.rolling = None
        for pid in list(self.children):
            self._stop(pid)

    def _stop(self, pid: int) -> None:
        worker = self.children.get(pid)
        if worker is not None:
            worker.role = "stopping"
            worker.stop_at = time.monotonic()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)

    def _kill_all(self) -> None:
        for pid in list(self.children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def rolling_restart(self) -> None:
        """Replace every worker, one at a time, with one running the code installed now."""
        if self.rolling is not None:
            log.warning("campfire serve: a rolling restart is under way already (SIGHUP ignored)")
            return
        self.rolling = [p for p, w in self.children.items() if w.role == "serving"]
        log.info("campfire serve: rolling restart of %d workers", len(self.rolling))
        self._next_step()

    def _next_step(self) -> None:
        """Start the next new worker of the rolling restart, or end it."""
        assert self.rolling is not None
        self.rolling = [p for p in self.rolling if p in self.children]
        if any(w.role in ("new", "stopping") for w in self.children.values()):
            return  # one at a time: a new one starting, or an old one still stopping
        if not self.rolling:
            log.info("campfire serve: rolling restart done")
            self.rolling = None
            return
        self.start(role="new")

    def _ready(self, worker: _Worker) -> None:
        fd, worker.ready = worker.ready, None
        assert fd is not None
        got = b""
        with contextlib.suppress(OSError):
            got = os.read(fd, 1)
        os.close(fd)
        if worker.role != "new":
            return
        if not got:  # the pipe closed without a byte: it exits (its status is reaped)
            return
        worker.role = "serving"
        self.exec_mode = True
        log.info("campfire serve: new worker %d serves", worker.pid)
        if self.rolling is None:
            return
        self.rolling = [p for p in self.rolling if p in self.children]
        if not self.rolling:  # (the old ones died meanwhile)
            self._next_step()
            return
        old = self.rolling.pop(0)
        log.info("campfire serve: stopping old worker %d", old)
        self._stop(old)

    def _reap(self) -> None:
        while self.children:
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.children.clear()
                return
            if pid == 0:
                return
            worker = self.children.pop(pid, None)
            if worker is None:
                continue
            if worker.ready is not None:
                os.close(worker.ready)
            code = os.waitstatus_to_exitcode(wait_status)
            self._exited(worker, code)

    def _exited(self, worker: _Worker, code: int) -> None:
        pid = worker.pid
        if self.stopping:
            log.info("campfire serve: worker %d stopped (%d)", pid, code)
            return
        if worker.role == "stopping":  # a rolling restart's old worker
            log.info("campfire serve: old worker %d stopped (%d)", pid, code)
            if self.rolling is not None:
                self._next_step()
            return
        if worker.role == "new":
            log.error(
                "campfire serve: the new worker %d exited (%d) before serving: rolling restart "
                "abandoned, the old workers go on",
                pid,
                code,
            )
            self.rolling = None
            return
        if code == STARTUP_FAILURE and not self.exec_mode:
            log.error("campfire serve: worker %d could not start; stopping", pid)
            self.status = STARTUP_FAILURE
            self.stop_all()
            return
        log.warning("campfire serve: worker %d exited (%d); starting another", pid, code)
        # a worker that fails by itself right after its start (not one killed by a signal, whose
        # exit code is negative): killing young workers must not make the pauses grow
        crashed = code >= 0 and time.monotonic() - worker.started < 1.0
        self.failures = self.failures + 1 if crashed else 0
        if self.failures:
            time.sleep(min(5.0, 0.1 * 2**self.failures))  # one that dies at once: not in a loop
        replacement = self.start()
        if self.rolling is not None and not self.exec_mode:  # (forked: the old code) replaced too
            self.rolling.append(replacement.pid)

    def _tick(self) -> None:
        """Kill the workers past their bounds: a stop, or a rolling restart's start."""
        now = time.monotonic()
        for worker in list(self.children.values()):
            if worker.stop_at is not None and now - worker.stop_at > self.stop_timeout + KILL_GRACE:
                log.error(
                    "campfire serve: worker %d still there %g s after SIGTERM: killed",
                    worker.pid,
                    self.stop_timeout + KILL_GRACE,
                )
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)
                worker.stop_at = None  # (killed once; reaped as an exit)
            elif worker.role == "new" and now - worker.started > START_TIMEOUT:
                log.error(
                    "campfire serve: the new worker %d did not serve within %g s: killed",
                    worker.pid,
                    START_TIMEOUT,
                )
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)
                worker.started = now  # (killed once; reaped as an exit before serving)


def exec_worker() -> None:
    """The start of a worker a rolling restart exec'd (a fresh interpreter: the new code).

    Its settings come from the environment (:data:`WORKER_VARIABLE`): the application, the
    uvicorn options, the inherited listening socket's and readiness pipe's descriptors.
    """
    import uvicorn

    spec = json.loads(os.environ.pop(WORKER_VARIABLE))
    sock = socket.socket(fileno=int(spec["fd"]))
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    config = uvicorn.Config(spec["app"], factory=True, **spec["options"])
    _serve(config, sock, float(spec["stop_timeout"]), int(spec["ready"]))


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


def _serve(config: Any, sock: socket.socket, stop_timeout: float, ready_fd: int) -> None:
    """A worker: serve on the inherited socket until told to stop (gracefully, :mod:`.graceful`).

    ``ready_fd`` is written a byte once the worker serves (the supervisor waits for it).
    """
    from .graceful_server import GracefulServer

    config.configure_logging()
    GracefulServer(config, stop_timeout=stop_timeout, ready_fd=ready_fd).run(sockets=[sock])
