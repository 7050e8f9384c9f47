"""Real-time claim windows: the rules of timing answers, with the time passed in (no I/O).

A game played in the ``realtime-claims`` mode (Apache) has simultaneous steps where every seat
answers once: ``pass`` or a claim. With the rules' default ``claim_order=reaction`` a claim
carries its reaction time in milliseconds (``claim hunter 350``), and the engine's shared
resolution orders claims by it. Over the network the server measures that time itself:

- the window opens when the step's frames are sent (:attr:`ClaimWindow.opened`);
- a claim's time is its **receive time minus the opening**, rounded up to the rules' grid (the
  times the legal variants offer, 0–2000 ms in 50 ms steps for Apache; never faster than
  measured), so the record replays exactly;
- claims are ordered by the server's receive time: a claim that would get a time at or below
  an earlier claim's is given the next grid time after it (only the last grid time can tie;
  the engine then draws, from the game's seed);
- the window closes after the longest time the rules allow (:attr:`ClaimWindow.length`);
  whoever has not answered then passes.

A client's own time in a claim is ignored: only the server's measure counts.

>>> window = ClaimWindow(opened=10.0, length=2.0)
>>> legal = ["pass", *(f"claim hunter {ms}" for ms in range(0, 2001, 50))]
>>> window.stamp("claim hunter", 10.612, legal)
'claim hunter 650'
>>> window.stamp("claim hunter 0", 10.601, legal)   # received later: after the first claim
'claim hunter 700'
>>> window.stamp("pass", 10.9, legal)
'pass'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from campfire.core.actions import answer_name, split_timed

__all__ = ["ClaimWindow", "answered_ms", "timed_variants", "window_length"]


def timed_variants(name: str, legal: Sequence[str]) -> dict[int, str]:
    """The legal variants of the answer ``name`` by their times (empty: it carries no time)."""
    out: dict[int, str] = {}
    for notation in legal:
        answer, ms = split_timed(notation)
        if ms is not None and answer == name:
            out[ms] = notation
    return out


def window_length(legal: Sequence[str]) -> float | None:
    """The seconds a window stays open: the longest time the legal answers offer.

    ``None`` when no answer carries a time (``claim_order=arrival``: the caller's default).
    """
    times = [ms for n in legal if (ms := split_timed(n)[1]) is not None]
    return max(times) / 1000 if times else None


def answered_ms(notations: Sequence[str]) -> int:
    """The latest time among the answers at the end of a log (-1: none).

    The answers are read back to the first action that is none (the reveal that opened their
    window). A window opened again after a restart starts its timing afresh; the answers it already
    logged keep their times, and one received after them must not get an earlier one.

    >>> answered_ms(["reveal", "claim hunter 900", "pass", "claim chief 350"])
    900
    >>> answered_ms(["claim hunter 900", "booty", "reveal"])
    -1
    """
    latest = -1
    for notation in reversed(notations):
        name, ms = split_timed(notation)
        if ms is None and name != "pass":
            break
        if ms is not None:
            latest = max(latest, ms)
    return latest


@dataclass
class ClaimWindow:
    """One open window: when it opened, how long it stays open, the last claim time given."""

    opened: float
    length: float
    #: the seats that answer in this window
    seats: frozenset[int] = frozenset()
    #: the seats that have answered
    answered: set[int] = field(default_factory=set)
    #: the time (ms) of the last timed answer accepted in this window
    last_ms: int = -1

    def still_open(self, to_act: Sequence[int]) -> bool:
        """Whether the seats to act now are still this window's (not answered yet)."""
        return bool(to_act) and set(to_act) <= self.seats - self.answered

    @property
    def closes(self) -> float:
        """When the window closes (same scale as :attr:`opened`)."""
        return self.opened + self.length

    def measured_ms(self, received: float) -> float:
        """The reaction time of an answer received at ``received``, in ms."""
        return max(0.0, round((received - self.opened) * 1000, 3))  # no float dust

    def stamp(
        self, notation: str, received: float, legal: Sequence[str], own_ms: float | None = None
    ) -> str:
        """The notation to play for an answer received at ``received``.

        A timed answer gets the measured time (``own_ms`` instead, for a bot that answered
        after its own reaction time), rounded up to the grid and after every earlier claim's
        time (the last grid time if none is left); an
        untimed answer (``pass``) is returned as it is.
        """
        name = answer_name(notation)
        variants = timed_variants(name, legal)
        if not variants:
            return notation
        ms = self.measured_ms(received) if own_ms is None else own_ms
        grid = sorted(variants)
        later = [t for t in grid if t > self.last_ms] or grid[-1:]
        pick = min((t for t in later if t >= ms), default=later[-1])
        self.last_ms = max(self.last_ms, pick)
        return variants[pick]
