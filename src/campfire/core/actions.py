"""Actions: small immutable values with a text notation.

Each game defines its own action class deriving from :class:`Action`. An action's ``str`` is its
notation, and the game's ``parse_action`` turns the notation back into an equal action (like UCI
moves in chess). Each game also numbers its actions in a fixed integer index space (per player
count) for learning frameworks.
"""

from __future__ import annotations

__all__ = ["Action"]


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
