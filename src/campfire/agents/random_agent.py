"""The random agent: a uniformly random legal action."""

from __future__ import annotations

from campfire.core import Action, Agent, Observation

__all__ = ["RandomAgent"]


class RandomAgent(Agent):
    """Plays a uniformly random legal action (deterministic given its seed).

    >>> from campfire import get_game
    >>> from campfire.core import Observation
    >>> game = get_game("tracker")
    >>> state = game.new_game(2, seed=1)
    >>> agent = RandomAgent(game, state.current_seat(), 2, state.options, seed=4)
    >>> agent.act(Observation(state, agent.seat)) in state.legal_actions()
    True
    """

    name = "random"
    description = "a uniformly random legal action"

    def act(self, obs: Observation) -> Action:
        """Pick a random legal action."""
        legal = obs.legal_actions
        return legal[self.rng.randrange(len(legal))]
