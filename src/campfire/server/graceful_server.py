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

__all__ = ["GracefulServer"]

log = logging.getLogger(__name__)


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
        """Stop accepting, drain the application, then uvicorn's stop (closes with 1012)."""
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
        await super().shutdown(sockets=sockets)

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
