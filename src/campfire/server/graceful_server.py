"""The uvicorn server of ``campfire serve``: a graceful stop, bounded in time (:mod:`.graceful`).

Imported only when the server runs (it needs uvicorn, of the server extra).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from collections.abc import Generator
from types import FrameType
from typing import Any

import uvicorn

from .graceful import FORCED, STOP_TIMEOUT, running_drains

__all__ = ["FIRST_REQUEST_SHARE", "GracefulServer"]

log = logging.getLogger(__name__)

#: The share of the stop's bound that connections accepted before it may take to send their
#: first request (:meth:`GracefulServer._await_first_requests`): 2 s of the default 10 s.
#: With the drain's third and the connections' tasks' third, the stop stays within its bound.
FIRST_REQUEST_SHARE = 0.2

#: How often a stopping process looks whether those requests have arrived (seconds).
FIRST_REQUEST_POLL = 0.02

#: A connection's ``cycle`` before its first request has been read whole (uvicorn's HTTP
#: protocols); WebSocket protocols have no ``cycle``.
_NO_CYCLE = object()


def _before_first_request(connection: object) -> bool:
    """Whether an HTTP connection has not yet received its first request whole."""
    return getattr(connection, "cycle", _NO_CYCLE) is None


class GracefulServer(uvicorn.Server):
    """A uvicorn server that stops gracefully and within a bound (the module's description).

    The bound starts with the first signal and holds until the process has exited (what the
    interpreter still waits for after :meth:`run`, a bot's thread, is bounded too): run it in
    a process of its own, as ``campfire serve`` does.

    ``ready_fd``: a pipe's writing end, written one byte once the server accepts
    connections, then closed (how ``campfire serve --workers N``'s supervisor learns that a
    new process serves, :mod:`.supervisor`).
    """

    def __init__(
        self,
        config: uvicorn.Config,
        stop_timeout: float = STOP_TIMEOUT,
        ready_fd: int | None = None,
    ) -> None:
        super().__init__(config)
        self.stop_timeout = float(stop_timeout)
        self.ready_fd = ready_fd
        config.timeout_graceful_shutdown = max(1, round(self.stop_timeout / 3))
        self._watchdog: threading.Timer | None = None

    async def startup(self, sockets: list[Any] | None = None) -> None:
        """Start as uvicorn does; then tell the supervisor (``ready_fd``) that it serves."""
        await super().startup(sockets=sockets)
        if self.ready_fd is not None:
            fd, self.ready_fd = self.ready_fd, None
            with contextlib.suppress(OSError):
                if self.started:
                    os.write(fd, b"1")
            with contextlib.suppress(OSError):
                os.close(fd)

    async def shutdown(self, sockets: list[Any] | None = None) -> None:
        """Stop accepting, drain, let new connections ask, then uvicorn's stop (1012).

        Connections accepted just before the stop whose first request has not arrived whole
        may still send it (:meth:`_await_first_requests`).
        """
        for server in self.servers:
            server.close()  # stop accepting: with --workers N, another process accepts
        drains = running_drains()
        if drains:
            log.info("campfire serve: stopping; finishing the actions in flight")
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(drain() for drain in drains)),
                    timeout=self.stop_timeout / 3,
                )
            except TimeoutError:
                log.error("campfire serve: the drain took too long; stopping anyway")
            except Exception:
                log.exception("campfire serve: the drain failed; stopping anyway")
        await self._await_first_requests(self.stop_timeout * FIRST_REQUEST_SHARE)
        await super().shutdown(sockets=sockets)

    async def _await_first_requests(self, bound: float) -> None:
        """Give new connections up to ``bound`` seconds to send their first request whole.

        Such a request is answered, then its connection closed, before the process exits.
        uvicorn's stop closes such a connection at once, as if idle: its client, which has
        connected (the kernel accepted it; this process took it from the shared socket just
        before it stopped accepting) and is sending its request, reads a close without an
        answer. A client that sends nothing is closed when ``bound`` runs out. Connections
        that have had a request (an idle keep-alive one) are closed at once, as uvicorn does.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + bound
        told = False
        while True:
            await asyncio.sleep(FIRST_REQUEST_POLL)  # a connection being accepted is made now
            waiting = sum(_before_first_request(c) for c in self.server_state.connections)
            if not waiting:
                return
            if not told:
                log.info(
                    "campfire serve: stopping; waiting for %d new connection(s) to send "
                    "their first request",
                    waiting,
                )
                told = True
            if loop.time() >= deadline:
                log.warning(
                    "campfire serve: %d connection(s) sent no request in %g s; closing them",
                    waiting,
                    bound,
                )
                return

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """The first SIGTERM or SIGINT stops gracefully (bounded); a second one at once."""
        if self.should_exit:
            log.warning("campfire serve: signal %d again: exiting now", sig)
            os._exit(FORCED)
        self.should_exit = True
        timer = threading.Timer(self.stop_timeout, self._too_long)
        timer.daemon = True
        timer.start()
        self._watchdog = timer

    def _too_long(self) -> None:
        log.error(
            "campfire serve: the stop took longer than %g s (--stop-timeout): exiting now",
            self.stop_timeout,
        )
        os._exit(FORCED)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        """Handle SIGTERM and SIGINT (:meth:`handle_exit`) while serving.

        Unlike uvicorn's, it does not raise the signal again once stopped: the process exits
        with status 0.
        """
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        signals = (signal.SIGINT, signal.SIGTERM)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in signals}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)
            # the bound (self._watchdog) keeps running until the process has exited: what the
            # interpreter waits for at exit (a bot's thread still thinking) is bounded too
