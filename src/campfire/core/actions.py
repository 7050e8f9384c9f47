"""Actions: small immutable values with a text notation.

Each game defines its own action class deriving from :class:`Action`. An action's ``str`` is its
notation, and the game's ``parse_action`` turns the notation back into an equal action (like UCI
moves in chess). Each game also numbers its actions in a fixed integer index space (per player
count) for learning frameworks.
"""

from __future__ import annotations

import re

__all__ = ["Action", "answer_name", "split_timed"]

#: a timed answer: an answer's notation followed by a reaction time in ms (``claim hunter 350``)
_TIMED = re.compile(r"^(.*\D) (\d+)$")


def split_timed(notation: str) -> tuple[str, int | None]:
    """A timed answer's notation split into the answer and its time in ms (``None``: untimed).

    Real-time games (Apache with ``claim_order=reaction``) write how fast an answer came as its
    last word; the terminal app and the server both read it from here.

    >>> split_timed("claim hunter 350"), split_timed("pass")
    (('claim hunter', 350), ('pass', None))
    """
    match = _TIMED.match(notation)
    return (match.group(1), int(match.group(2))) if match else (notation, None)


def answer_name(notation: str) -> str:
    """An answer's notation without its reaction time (``claim hunter 350`` → ``claim hunter``).

    >>> answer_name("claim hunter 350")
    'claim hunter'
    """
    return split_timed(notation)[0]


class Action:
    """Base class of every game's actions.

    Subclasses are immutable and hashable, compare by value, and implement :meth:`notation`.
    """

    __slots__ = ()

    def notation(self) -> str:
        """Return the action's text notation."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.notation()
