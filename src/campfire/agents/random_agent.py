"""The random agent: a uniformly random legal action."""

from __future__ import annotations

from collections.abc import Sequence

from campfire.core import Action, Agent, Event, Observation
from campfire.core.draws import choice

__all__ = ["RandomAgent"]


class RandomAgent(Agent):
    """Plays a uniformly random legal action (deterministic given its seed).

    >>> from campfire import all_games
    >>> from campfire.core import Observation
    >>> game = all_games()[0]
    >>> state = game.new_game(2, seed=1)
    >>> seat = state.seats_to_act()[0]
    >>> agent = RandomAgent(game, seat, 2, state.options, seed=4)
    >>> agent.act(Observation.of(state, agent.seat)) in state.legal_actions(seat)
    True
    """

    name = "random"
    description = "a uniformly random legal action"
    uses_world = False

    def observe(self, events: Sequence[Event]) -> None:
        """Nothing to remember: the choice depends on the legal actions alone."""

    def act(self, obs: Observation) -> Action:
        """Pick a random legal action."""
        legal = obs.legal_actions
        return choice(self.rng, legal)
