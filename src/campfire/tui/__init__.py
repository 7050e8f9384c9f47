"""Play in the terminal: the Textual app behind ``campfire play`` and ``campfire replay --watch``.

The package is layered: :mod:`~campfire.tui.session` (a match with human and bot seats, logs,
records), :mod:`~campfire.tui.realtime` (Apache on a clock), :mod:`~campfire.tui.views` and
:mod:`~campfire.tui.words` (text from views and events only), :mod:`~campfire.tui.app` (the
Textual screens) and :mod:`~campfire.tui.terminal` (leaving cleanly when the terminal goes away).
Screens are built only from a seat's view and the events it may see.
"""

from .clock import Clock, FakeClock, MonotonicClock
from .session import PlaySession, SeatSpec, default_record_path, parse_opponents

__all__ = [
    "Clock",
    "FakeClock",
    "MonotonicClock",
    "PlaySession",
    "SeatSpec",
    "default_record_path",
    "parse_opponents",
]
