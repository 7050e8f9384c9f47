"""What each seat to act may do, and since when (:class:`Offers`: which late answers still fit).

A table in memory (:class:`.live.LiveTable`) keeps one, so that an answer to an earlier step of
a simultaneous question is accepted while the seat's choice has not changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["Offers"]


class Offers:
    """What each seat to act may do, and since which sequence number it has been unchanged.

    An action names the sequence number it answers. In a simultaneous step (several seats answer
    one question, or choose at once) another seat's answer moves the table on without changing what
    this seat may do: an answer to the earlier step still fits, and is accepted. It is stale
    once the seat's legal actions differ from those it answered, or it has acted since, or it
    is no longer to act.

    >>> offers = Offers()
    >>> offers.note(0, {0: ["a", "b"], 1: ["c"]})
    >>> offers.note(1, {0: ["a", "b"]}, mover=1)   # seat 1 answered: seat 0's choice stands
    >>> offers.fits(0, 0, 1), offers.fits(1, 0, 1)
    (True, False)
    >>> offers.note(2, {0: ["a"]}, mover=None)     # seat 0's choice changed
    >>> offers.fits(0, 1, 2), offers.fits(0, 2, 2)
    (False, True)
    """

    def __init__(self) -> None:
        #: seat -> (the first sequence number of its current choice, that choice)
        self._since: dict[int, tuple[int, tuple[Any, ...]]] = {}

    def note(self, seq: int, legal: Mapping[int, Sequence[Any]], mover: int | None = None) -> None:
        """Note the table at ``seq``, after ``mover``'s step (``None``: a fresh start).

        ``legal`` holds the legal actions of each seat to act (a seat not in it is not to act).
        """
        since: dict[int, tuple[int, tuple[Any, ...]]] = {}
        for seat, actions in legal.items():
            choice = tuple(actions)
            before = self._since.get(seat)
            keep = before is not None and seat != mover and before[1] == choice
            since[seat] = before if keep and before is not None else (seq, choice)
        self._since = since

    def fits(self, seat: int, answered: int, seq: int) -> bool:
        """Whether an answer of ``seat`` to step ``answered`` fits the table at ``seq``."""
        found = self._since.get(seat)
        return found is not None and found[0] <= answered <= seq
