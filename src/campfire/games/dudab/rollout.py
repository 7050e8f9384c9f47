"""A fast rollout model of Dudab for search (ISMCTS).

Simulated games are played with random legal moves, but only for a short horizon; the position
is then scored as if the round ended now (dudab §7 on the current hands and piles, added to the
totals so far). That keeps each search iteration cheap in a game of several long rounds.
"""

from __future__ import annotations

import random

from campfire.core import Action, Outcome, RolloutPolicy, State

from .scoring import round_score
from .state import DudabState

__all__ = ["DudabRollout"]


class DudabRollout(RolloutPolicy):
    """Random play for a few dozen moves, then the current round scored as it stands."""

    horizon = 40

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        """A random legal action."""
        legal = state.legal_actions(seat)
        return legal[rng.randrange(len(legal))]

    def evaluate(self, state: State) -> Outcome | None:
        """Totals so far plus the running round scored now; lowest total wins."""
        assert isinstance(state, DudabState)
        totals = state.totals()
        scores = [
            totals[s] + round_score(state.hands[s], state.piles[s]).total
            for s in range(state.num_players)
        ]
        return Outcome.from_scores(scores, lower_is_better=True)
