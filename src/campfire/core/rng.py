"""The seeded random generator of a game.

All randomness of a game comes from one :class:`GameRng`, created from the game's seed. Its full
state can be saved into a position and restored, so a restored game continues identically.

>>> a, b = GameRng(7), GameRng(7)
>>> [a.randrange(100) for _ in range(3)] == [b.randrange(100) for _ in range(3)]
True
>>> c = GameRng.from_json(a.to_json())
>>> c.random() == a.random()
True
"""

from __future__ import annotations

import math
import random
from typing import Any

from .errors import ErrorText, PositionError

__all__ = ["GameRng"]


class GameRng(random.Random):
    """A :class:`random.Random` whose state serialises to JSON and copies cheaply."""

    def copy(self) -> GameRng:
        """Return an independent generator in the same state."""
        other = GameRng()
        other.setstate(self.getstate())
        return other

    def to_json(self) -> list[Any]:
        """Return the generator state as a JSON-ready list."""
        version, internal, gauss = self.getstate()
        return [version, list(internal), gauss]

    @classmethod
    def from_json(cls, data: Any) -> GameRng:
        """Restore a generator from :meth:`to_json` output (raise :class:`PositionError`).

        The state must be exactly what :meth:`to_json` writes: ``[3, [625 integers 0 … 2**32 - 1,
        the last one at most 624], null or a finite number]``.
        """
        shape = (
            "malformed random generator state: expected [3, [625 integers 0 … 2**32 - 1], "
            "null or a number] as written by the engine"
        )
        if not isinstance(data, (list, tuple)) or len(data) != 3:
            raise PositionError(shape)
        version, internal, gauss = data
        if (
            type(version) is not int
            or not isinstance(internal, (list, tuple))
            or len(internal) != _STATE_LENGTH
            or not all(type(x) is int and 0 <= x < 2**32 for x in internal)
            or not (gauss is None or (type(gauss) is float and math.isfinite(gauss)))
        ):
            raise PositionError(shape)
        rng = cls()
        try:
            rng.setstate((version, tuple(internal), gauss))
        except (TypeError, ValueError) as exc:
            raise PositionError(
                ErrorText("malformed random generator state: {exc}", exc=exc)
            ) from None
        return rng


_STATE_LENGTH = len(random.Random(0).getstate()[1])
