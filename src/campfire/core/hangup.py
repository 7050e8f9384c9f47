"""Noticing that the terminal a program runs in has gone away.

Shared by the terminal app and the game server of ``make run`` (neither imports the other).

When a terminal window is closed the kernel hangs the terminal up: reads return end of input,
writes fail, and ``SIGHUP`` goes to the session's leader only. A program that does not lead its
session (one started by ``make``) never gets the signal, so it looks for itself:
:func:`terminal_gone` tells whether a terminal has hung up without reading from it, and
:func:`foreground_terminal` which standard stream is a terminal the program runs in the
foreground of.
"""

from __future__ import annotations

import os
import select

__all__ = ["foreground_terminal", "terminal_gone"]


def terminal_gone(fd: int) -> bool:
    """Whether the terminal (or pipe) open as ``fd`` has hung up or is no longer usable.

    Looks without reading: a hung-up terminal polls as ``POLLHUP``, a closed file descriptor as
    ``POLLNVAL``. Always ``False`` where ``poll`` does not exist (Windows).

    >>> import os
    >>> read_end, write_end = os.pipe()
    >>> terminal_gone(read_end)
    False
    >>> os.close(write_end)
    >>> terminal_gone(read_end)
    True
    >>> os.close(read_end)
    """
    poll = getattr(select, "poll", None)
    if poll is None:  # pragma: no cover - Windows
        return False
    poller = poll()
    poller.register(fd, select.POLLIN)
    try:
        ready = poller.poll(0)
    except OSError:  # pragma: no cover - defensive
        return True
    gone = select.POLLHUP | select.POLLERR | select.POLLNVAL
    return any(mask & gone for _, mask in ready)


def foreground_terminal() -> int | None:
    """The standard stream (0, 1 or 2) that is a terminal this process runs in the foreground of.

    ``None`` if there is none (output to a file, ``nohup``, ``make run &``, Windows).
    """
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd) and os.tcgetpgrp(fd) == os.getpgrp():
                return fd
        except (AttributeError, OSError):
            continue
    return None
