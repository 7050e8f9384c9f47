"""A fast rollout model of Big Manitou for search (ISMCTS).

Simulated games are played with random legal moves for a limited horizon (about one hunt); the
position is then scored by the tiles owned at that moment (manitou §7), which is what the rest of
the game adds to.
"""

from __future__ import annotations

import random

from campfire.core import Action, Outcome, RolloutPolicy, State

from .state import ManitouState

__all__ = ["ManitouRollout"]


class ManitouRollout(RolloutPolicy):
    """Random play for about a hunt, then the tiles owned scored as they stand."""

    horizon = 80

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        """A random legal action."""
        legal = state.legal_actions(seat)
        return legal[rng.randrange(len(legal))]

    def evaluate(self, state: State) -> Outcome | None:
        """The victory points of the tiles owned now (manitou §7)."""
        assert isinstance(state, ManitouState)
        return state.score()
