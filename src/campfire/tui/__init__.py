"""Play in the terminal: the Textual app behind ``campfire play`` and ``campfire replay --watch``.

The package is layered: :mod:`~campfire.tui.session` (a match with human and bot seats, logs
made by the game's presenter, records, resuming), :mod:`~campfire.tui.modes` (the play modes a
game declares: turns, timed peek, real-time claims), :mod:`~campfire.tui.widgets` (board,
players, choices, log, move field: drawn from display models only), :mod:`~campfire.tui.app`
(the Textual screens, laid out by ``app.tcss``) and :mod:`~campfire.tui.terminal` (leaving
cleanly when the terminal goes away). Nothing here imports a game or asks which game it plays.
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
