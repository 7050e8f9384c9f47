"""Clock rules: a table's time control and its seats' clocks, with the time passed in.

This module does no I/O and reads no clock: every method takes ``now`` (seconds on any
monotonic scale), so the rules are tested with a fake clock and the server drives them with
``time.monotonic`` and asyncio timers (:mod:`.tables`).

- :class:`TimeControl` — what a table plays with: ``none``, ``move`` (``seconds`` for each
  move, the clock starts afresh every time the seat is to act), ``game`` (``seconds`` for
  the whole game plus ``increment`` after each of the seat's moves, as on Board Game Arena)
  or ``turn`` (turn-based play: ``seconds`` for each move as ``move``, from an hour to 14
  days, :data:`TURN_MIN_SECONDS`–:data:`TURN_MAX_SECONDS`; the server keeps its deadlines as
  wall-clock times in the database, so that they hold across restarts, :mod:`.turns`),
  and the rule on time-out: ``bot`` (a bot takes the seat over until its player returns),
  ``random`` (a random legal action is played for the seat) or ``loss`` (the seat loses).
- :class:`Clocks` — each seat's remaining time and which clocks run.

>>> control = TimeControl.read({"kind": "game", "seconds": 60, "increment": 5})
>>> clocks = Clocks(control, 2)
>>> clocks.sync([0], now=100.0)        # seat 0 is to act: its clock runs from t=100
>>> clocks.remaining(0, now=130.0)
30.0
>>> clocks.moved(0, now=130.0)         # it moved after 30 s: 60 - 30 + 5
>>> clocks.remaining(0, now=999.0)
35.0
>>> clocks.sync([1], now=130.0)
>>> clocks.deadline()
(190.0, 1)
>>> clocks.expired(now=190.0)
[1]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from campfire.core import ErrorText, OptionError

__all__ = [
    "KINDS",
    "ON_TIMEOUT",
    "PER_MOVE",
    "TURN_MAX_SECONDS",
    "TURN_MIN_SECONDS",
    "Clocks",
    "TimeControl",
]

#: The kinds of time control.
KINDS = ("none", "move", "game", "turn")
#: The rules on time-out.
ON_TIMEOUT = ("bot", "random", "loss")
#: The longest time control (seconds): one day.
MAX_SECONDS = 86_400.0
#: A turn-based table's time for each move (seconds): from an hour ...
TURN_MIN_SECONDS = 3_600.0
#: ... to 14 days.
TURN_MAX_SECONDS = 14 * 86_400.0
#: The kinds whose clock starts afresh every time the seat is to act.
PER_MOVE = ("move", "turn")

Kind = Literal["none", "move", "game", "turn"]
Rule = Literal["bot", "random", "loss"]


def _seconds(
    raw: Mapping[str, Any],
    key: str,
    low: float,
    default: float | None,
    high: float = MAX_SECONDS,
) -> float:
    value = raw.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise OptionError(
            ErrorText(
                'clock: "{key}" is a number of seconds from {low} to {high} (got {got})',
                key=key,
                low=format(low, "g"),
                high=format(high, "g"),
                got=repr(value)[:40],
            )
        )
    return float(value)


@dataclass(frozen=True)
class TimeControl:
    """A table's time control and its time-out rule (see the module's documentation)."""

    kind: Kind = "none"
    #: per move: each move's time; game: the whole game's time
    seconds: float = 0.0
    #: game clock only: added after each of the seat's moves
    increment: float = 0.0
    on_timeout: Rule = "random"

    @classmethod
    def read(cls, raw: Any) -> TimeControl:
        """Read a lobby request's ``clock`` (``None``: no time control); :class:`OptionError`.

        >>> TimeControl.read({"kind": "move", "seconds": 30, "on_timeout": "bot"})
        TimeControl(kind='move', seconds=30.0, increment=0.0, on_timeout='bot')
        >>> TimeControl.read({"kind": "fischer"})
        Traceback (most recent call last):
        ...
        campfire.core.errors.OptionError: clock: "kind" is one of none, move, game, turn (got ...
        >>> TimeControl.read({"kind": "turn", "seconds": 86400, "on_timeout": "loss"}).kind
        'turn'
        """
        if raw is None:
            return cls()
        if not isinstance(raw, Mapping):
            raise OptionError(
                ErrorText(
                    "clock: an object such as {example}",
                    example='{"kind": "game", "seconds": 300, "increment": 5, "on_timeout": "bot"}',
                )
            )
        allowed = {"kind", "seconds", "increment", "on_timeout"}
        extra = sorted(str(k) for k in set(raw) - allowed)
        if extra:
            raise OptionError(
                ErrorText(
                    "clock: takes {allowed} (got {got})",
                    allowed=", ".join(sorted(allowed)),
                    got=", ".join(extra),
                )
            )
        kind = raw.get("kind", "none")
        if kind not in KINDS:
            raise OptionError(
                ErrorText(
                    'clock: "kind" is one of {allowed} (got {got})',
                    allowed=", ".join(KINDS),
                    got=repr(kind)[:40],
                )
            )
        rule = raw.get("on_timeout", "random")
        if rule not in ON_TIMEOUT:
            raise OptionError(
                ErrorText(
                    'clock: "on_timeout" is one of {allowed} (got {got})',
                    allowed=", ".join(ON_TIMEOUT),
                    got=repr(rule)[:40],
                )
            )
        if kind == "none":
            if set(raw) - {"kind"}:
                raise OptionError(ErrorText('clock: "kind": "none" takes no other field'))
            return cls()
        if kind == "turn":
            seconds = _seconds(raw, "seconds", TURN_MIN_SECONDS, None, TURN_MAX_SECONDS)
        else:
            seconds = _seconds(raw, "seconds", 0.1, None)
        increment = 0.0
        if kind == "game":
            increment = _seconds(raw, "increment", 0.0, 0.0)
        elif "increment" in raw:
            raise OptionError(
                ErrorText('clock: "increment" belongs to a game clock ("kind": "game")')
            )
        return cls(cast(Kind, kind), seconds, increment, cast(Rule, rule))

    def to_json(self) -> dict[str, Any] | None:
        """The control as the lobby and frames show it (``None``: no time control)."""
        if self.kind == "none":
            return None
        out: dict[str, Any] = {"kind": self.kind, "seconds": self.seconds}
        if self.kind == "game":
            out["increment"] = self.increment
        out["on_timeout"] = self.on_timeout
        return out


class Clocks:
    """Each seat's clock under a :class:`TimeControl`.

    A clock runs while its seat is to act (:meth:`sync`) and a person plays it; the table's
    owner says which seats that is. ``remaining`` holds each seat's time when its clock was last
    stopped (a per-move clock starts from ``seconds`` every time).
    """

    def __init__(
        self, control: TimeControl, players: int, remaining: Sequence[float] | None = None
    ) -> None:
        self.control = control
        self.players = players
        self._left = list(remaining) if remaining is not None else [control.seconds] * players
        #: the seats whose clocks run, and since when
        self.running: dict[int, float] = {}

    @property
    def enabled(self) -> bool:
        """Whether the table plays with a clock at all."""
        return self.control.kind != "none"

    def remaining(self, seat: int, now: float) -> float:
        """The seat's time left at ``now`` (never below zero)."""
        left = self._left[seat]
        if seat in self.running:
            left -= now - self.running[seat]
        return max(0.0, left)

    def _stop(self, seat: int, now: float) -> None:
        if seat in self.running:
            self._left[seat] = self.remaining(seat, now)
            del self.running[seat]

    def sync(self, to_act: Iterable[int], now: float) -> None:
        """Run exactly the clocks of ``to_act``: stop the others, start the new ones."""
        if not self.enabled:
            return
        wanted = set(to_act)
        for seat in [s for s in self.running if s not in wanted]:
            self._stop(seat, now)
        for seat in sorted(wanted - set(self.running)):
            if self.control.kind in PER_MOVE:
                self._left[seat] = self.control.seconds
            self.running[seat] = now

    def moved(self, seat: int, now: float) -> None:
        """``seat`` acted at ``now``: stop its clock and add the increment (game clock)."""
        if not self.enabled:
            return
        running = seat in self.running
        self._stop(seat, now)
        if running and self.control.kind == "game":
            self._left[seat] = min(MAX_SECONDS, self._left[seat] + self.control.increment)

    def timed_out(self, seat: int, now: float) -> None:
        """``seat`` ran out of time: its clock stops at zero."""
        self.running.pop(seat, None)
        self._left[seat] = 0.0

    def resume_running(self, seat: int, left: float, now: float) -> None:
        """A running clock has ``left`` seconds at ``now`` (a turn's deadline read back).

        A turn-based table is rebuilt from the database with each running clock's wall-clock
        deadline: the time that passed while no process held the table is charged, and a
        deadline that passed meanwhile makes the clock expire at once.
        """
        if seat in self.running:
            self._left[seat] = max(0.0, left)
            self.running[seat] = now

    def deadlines(self, now: float, wall: float) -> list[list[float]]:
        """The running clocks' deadlines on a wall clock that reads ``wall`` at ``now``.

        ``[[seat, unix seconds], ...]`` in whole seconds (a turn-based table stores them).

        >>> clocks = Clocks(TimeControl.read({"kind": "turn", "seconds": 3600}), 2)
        >>> clocks.sync([1], now=10.0)
        >>> clocks.deadlines(now=70.0, wall=1_000_000.0)
        [[1, 1003540.0]]
        """
        return [[s, float(round(wall + self.remaining(s, now)))] for s in sorted(self.running)]

    def restore(self, deadlines: Iterable[Sequence[float]], now: float, wall: float) -> None:
        """Run the running clocks to stored ``deadlines`` (the wall clock reads ``wall`` now)."""
        for seat, due in deadlines:
            self.resume_running(int(seat), float(due) - wall, now)

    def remaining_set(self, seat: int, seconds: float) -> None:
        """Give a stopped clock ``seconds`` (a person back after a bot's takeover)."""
        if seat not in self.running:
            self._left[seat] = max(0.0, seconds)

    def deadline(self) -> tuple[float, int] | None:
        """The earliest moment a running clock reaches zero, and its seat (``None``: none runs)."""
        ends = [(start + self._left[s], s) for s, start in self.running.items()]
        return min(ends) if ends else None

    def expired(self, now: float) -> list[int]:
        """The seats whose running clocks have reached zero at ``now``, lowest first."""
        return sorted(s for s in self.running if self.remaining(s, now) <= 0.0)

    def left(self, now: float) -> list[float]:
        """Every seat's time left at ``now`` (what is stored with each action)."""
        return [self.remaining(s, now) for s in range(self.players)]

    def to_json(self, now: float) -> dict[str, Any] | None:
        """The clocks as frames carry them (``None``: no time control)."""
        control = self.control.to_json()
        if control is None:
            return None
        return {
            "control": control,
            "remaining_ms": [round(t * 1000) for t in self.left(now)],
            "running": sorted(self.running),
        }
