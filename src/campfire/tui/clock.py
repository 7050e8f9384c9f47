"""Clocks for the terminal UI: the real one, and a fake one that tests move by hand.

Everything in the UI that depends on time (the reveal timer and claim windows of the
``realtime-claims`` play mode, the bots' reaction times, how long a privately shown card stays
visible in the ``timed-peek`` mode) reads an injected :class:`Clock`, so tests can drive it
without waiting.

>>> clock = FakeClock()
>>> clock.now()
0.0
>>> clock.advance(1.5)
>>> clock.now()
1.5
"""

from __future__ import annotations

import time
from typing import Protocol

__all__ = ["Clock", "FakeClock", "MonotonicClock"]


class Clock(Protocol):
    """Something that tells the time in seconds (only differences matter)."""

    def now(self) -> float:
        """The current time in seconds."""
        ...


class MonotonicClock:
    """The real clock (:func:`time.monotonic`)."""

    def now(self) -> float:
        """The current time in seconds."""
        return time.monotonic()


class FakeClock:
    """A clock that moves only when told to (for tests)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        """The current (fake) time in seconds."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (must not be negative)."""
        if seconds < 0:
            raise ValueError(f"a clock only moves forward (got {seconds})")
        self._now += seconds
