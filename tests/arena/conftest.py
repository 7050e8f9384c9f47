from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest

from campfire.agents import registry
from campfire.core import Action, Agent, Event, Observation


class RaisingAgent(Agent):
    """Plays randomly, then raises on its third move."""

    name = "raising"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = 0

    def act(self, obs: Observation) -> Action:
        self.moves += 1
        if self.moves == 3:
            raise RuntimeError("deliberately broken")
        legal = obs.legal_actions
        return legal[self.rng.randrange(len(legal))]


class FlakyAgent(Agent):
    """Plays randomly, but fails its first move when its seed is divisible by 3."""

    name = "flaky"

    def act(self, obs: Observation) -> Action:
        if self.seed % 3 == 0:
            raise ValueError("flaky")
        legal = obs.legal_actions
        return legal[self.rng.randrange(len(legal))]


class SpyAgent(Agent):
    """Plays randomly and logs every event it is told (class-wide, in this process)."""

    name = "spy"
    log: ClassVar[list[tuple[int, Event]]] = []

    def observe(self, events: Sequence[Event]) -> None:
        SpyAgent.log.extend((self.seat, e) for e in events)
        super().observe(events)

    def act(self, obs: Observation) -> Action:
        if obs.seat != self.seat or hasattr(obs, "state"):
            raise AssertionError("the observation is not the seat's own")
        legal = obs.legal_actions
        return legal[self.rng.randrange(len(legal))]


class IllegalAgent(Agent):
    """Returns an action of the game's index space that is not legal now."""

    name = "illegal"

    def act(self, obs: Observation) -> Action:
        legal = set(obs.legal_actions)
        for index in range(obs.game.num_distinct_actions(obs.num_players)):
            action = obs.game.action_from_index(index, obs.num_players)
            if action not in legal:
                return action
        raise AssertionError("every action is legal")


@pytest.fixture
def broken_agents() -> Iterator[None]:
    """Register the broken agents (in this process only: run them with jobs=1)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(registry.GENERIC_AGENTS, "raising", RaisingAgent)
        mp.setitem(registry.GENERIC_AGENTS, "illegal", IllegalAgent)
        mp.setitem(registry.GENERIC_AGENTS, "flaky", FlakyAgent)
        mp.setitem(registry.GENERIC_AGENTS, "spy", SpyAgent)
        SpyAgent.log.clear()
        yield
