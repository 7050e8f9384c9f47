"""A seat's memory: :class:`Belief`, the base every game's memory subclasses.

It lives in its own module so that the compiled build compiles it (``docs/compiled.md``,
change 22): a game's compiled memory then reads its ``seat`` as a native field and is told its
events through a native call, where an interpreted base made both a Python-level look-up at
every event. :mod:`campfire.core.agent` re-exports it, with the agent protocol it
belongs to.

>>> import random
>>> from campfire import all_games
>>> state = all_games()[0].new_game(2, seed=3)
>>> memory = Belief(1)
>>> memory.observe([])  # the base remembers nothing
>>> world = memory.sample(state, random.Random(0))
>>> world is not state and world.view(1) == state.view(1)
True
>>> memory.clone().seat
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from .events import Event
from .state import State

__all__ = ["Belief"]


@mypyc_attr(allow_interpreted_subclasses=True)  # a plugin's memory, a researcher's, a test's
class Belief:
    """What a seat remembers beyond its view; the default remembers nothing.

    Games with memory subclass it (see ``Game.new_belief``): :meth:`observe` updates the memory
    from the seat's events (the public ones and the seat's private ones), and :meth:`sample`
    draws determinisations consistent with it.

    The contract of :meth:`sample` (``docs/architecture.md``, "Determinisation"): it returns a
    new state, never ``state`` itself; the seat's view of it equals the seat's view of
    ``state``; it agrees with every fact the memory holds; and it is a function of the seat's
    information (its view and the memory) and of ``rng`` only, so that sampling from a sample
    gives the same states as sampling from the true state.
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def observe(self, events: Sequence[Event]) -> None:
        """Update the memory from events the seat may see (default: nothing to remember)."""

    def sample(self, state: State, rng: random.Random) -> State:
        """A determinisation of ``state`` for the seat, consistent with the memory."""
        return state.determinize(self.seat, rng)

    def clone(self) -> Belief:
        """An independent copy."""
        return type(self)(self.seat)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the seat's new memory (as :meth:`clone` makes one), then its fields.

        The default, an empty object filled field by field, cannot make a memory of the
        compiled build (``docs/compiled.md``, change 20), whose constructor always runs.
        """
        return type(self), (self.seat,), self.__getstate__()
