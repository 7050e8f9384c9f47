"""Leaving cleanly when the terminal goes away.

A terminal app must not outlive its terminal. When the terminal window is closed the kernel hangs
up the terminal: reads from it return end of input, writes fail with ``EIO``, and ``SIGHUP`` goes
to the session leader only. That is the shell, which passes it on to its jobs; but when a program
that does not pass it on leads the session (``make run`` started as the terminal's command: GNU
make, on ``SIGHUP``, waits for its children to end, since a signal typed at the terminal reaches
them too), the app never gets the signal. Textual's input thread then reads end of input over and
over, and the app would spin forever with nobody to see it.

:class:`TerminalApp` is the base of the apps behind ``campfire play`` and ``campfire replay
--watch``. Running in a real terminal it leaves exactly as its quit key does (an unfinished game
is not saved; a finished one was saved when it ended) when any of these happens:

* ``SIGHUP`` or ``SIGTERM`` arrives (the exit status is then 128 + the signal number);
* the terminal hangs up (:func:`terminal_gone`, checked twice a second; exit status 129);
* reading or writing the terminal fails (the driver's writes are then dropped, so that leaving
  never blocks on a dead terminal).

In headless tests (Textual's pilot) nothing of this is installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from typing import IO, Any

from textual.app import App
from textual.driver import Driver

from campfire.core.hangup import terminal_gone

__all__ = ["HANG_UP_STATUS", "TerminalApp", "terminal_gone"]

#: The exit status after the terminal went away: 128 + ``SIGHUP``, as a shell reports a hang-up.
HANG_UP_STATUS = 129

#: How often (seconds) a running app checks that its terminal is still there.
CHECK_INTERVAL = 0.5


class _GuardedFile:
    """The driver's output file, whose writes never raise: a failure marks the terminal gone."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self.failed = False

    def write(self, text: str) -> int:
        if self.failed:
            return len(text)
        try:
            return self._file.write(text)
        except (OSError, ValueError):
            self.failed = True
            return len(text)

    def flush(self) -> None:
        if self.failed:
            return
        try:
            self._file.flush()
        except (OSError, ValueError):
            self.failed = True

    def fileno(self) -> int:
        return self._file.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


def _guarded_driver(base: type[Driver]) -> type[Driver]:
    """``base`` (Textual's Linux/macOS driver), made safe for a terminal that goes away.

    Textual writes to the terminal from a thread that would die on the first ``EIO``, after which
    the app blocks as soon as its write queue is full, and could never leave: the output file's
    writes never raise. A read that fails (``EIO`` while the terminal is being hung up) would end
    the app with a traceback: it ends the input thread quietly, and the app leaves.
    """

    class GuardedDriver(base):  # type: ignore[valid-type, misc]
        #: reading the terminal failed: it is gone
        input_failed = False

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            file = getattr(self, "_file", None)
            if file is not None and hasattr(file, "write"):
                self._file = _GuardedFile(file)

        def run_input_thread(self) -> None:
            try:
                super().run_input_thread()
            except OSError:
                self.input_failed = True

    GuardedDriver.__name__ = GuardedDriver.__qualname__ = f"Guarded{base.__name__}"
    return GuardedDriver


class TerminalApp(App[None]):
    """A Textual app that leaves as its quit key does when its terminal goes away.

    Subclasses call :meth:`watch_terminal` when mounted and may override :meth:`hang_up`.
    """

    _hung_up = False

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this platform; on Linux and macOS one whose writes never raise."""
        driver = super().get_driver_class()
        if driver.__name__ == "LinuxDriver":
            return _guarded_driver(driver)
        return driver

    def watch_terminal(self) -> None:
        """In a real terminal: leave on ``SIGHUP``/``SIGTERM`` and when the terminal hangs up."""
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        for name in ("SIGHUP", "SIGTERM"):
            signum = getattr(signal, name, None)
            if signum is None:  # pragma: no cover - Windows
                continue
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self._signalled(signum))
        self.set_interval(CHECK_INTERVAL, self._check_terminal)

    def _signalled(self, signum: int) -> Callable[[], None]:
        return lambda: self.hang_up(128 + signum)

    def _terminal_fds(self) -> list[int]:
        fds = []
        for stream in (sys.__stdin__, sys.__stderr__):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                if stream is not None:
                    fds.append(stream.fileno())
        return fds

    def _check_terminal(self) -> None:
        output = getattr(self._driver, "_file", None)
        failed = isinstance(output, _GuardedFile) and output.failed
        failed = failed or getattr(self._driver, "input_failed", False) is True
        if failed or any(terminal_gone(fd) for fd in self._terminal_fds()):
            self.hang_up(HANG_UP_STATUS)

    def hang_up(self, status: int = HANG_UP_STATUS) -> None:
        """Leave because the terminal went away or a signal asked to; ``status`` is the exit code.

        By default the app exits as its quit key does. Only the first call counts.
        """
        if self._hung_up:
            return
        self._hung_up = True
        self.exit(return_code=status)
