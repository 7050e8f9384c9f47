"""The agent protocol: a computer player for one seat.

An :class:`Agent` never sees the true state. At each decision it receives an
:class:`Observation`: the seat's view, its legal actions, and a way to draw determinisations (full
states consistent with what the seat knows, for search). Between decisions it is told the events
its seat may see. Agents are deterministic given their seed.

A :class:`Belief` is what a seat remembers beyond its current view (a Tracker player's memory of
peeked cards, for example); the game provides it, and it shapes the determinisations.

>>> from campfire import get_game
>>> state = get_game("tracker").new_game(2, seed=3)
>>> obs = Observation(state, state.current_seat())
>>> len(obs.legal_actions), obs.view["phase"]
(63, 'normal')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action
from .events import Event
from .options import Options
from .outcome import Outcome
from .state import State

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Agent", "AgentConfig", "Belief", "Observation", "RolloutPolicy"]


class Belief:
    """What a seat remembers beyond its view; the default remembers nothing.

    Games with memory subclass it (see ``Game.new_belief``): :meth:`observe` updates the memory
    from the seat's events, and :meth:`sample` draws determinisations consistent with it.
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


class Observation:
    """What an agent may use to decide: its seat's view, legal actions, and determinisations.

    The true state stays private; :meth:`sample` returns a determinised copy, never the state
    itself.
    """

    def __init__(self, state: State, seat: int, belief: Belief | None = None) -> None:
        self._state = state
        self.seat = seat
        self.game: Game[Any] = state.game
        self.num_players = state.num_players
        self.options = state.options
        self.belief = belief if belief is not None else Belief(seat)
        self._view: dict[str, Any] | None = None
        self._legal: list[Action] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view (computed on first use)."""
        if self._view is None:
            self._view = self._state.view(self.seat)
        return self._view

    @property
    def legal_actions(self) -> list[Action]:
        """The seat's legal actions, in the game's deterministic order."""
        if self._legal is None:
            self._legal = self._state.legal_actions(self.seat)
        return self._legal

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with everything the seat knows (for search)."""
        return self.belief.sample(self._state, rng)


class RolloutPolicy:
    """A fast model of play that finishes simulated games inside a search.

    A game's policy (``Game.rollout_policy``) is made afresh for each simulated game. It acts on
    full, determinised states, so it may use everything in them; :meth:`after` is told every step
    of the simulated game (the tree part included), so the policy can keep track of what each
    seat would know — a Tracker seat remembers the cards it peeked.
    """

    #: most actions in one rollout before :meth:`evaluate` scores it (``None``: play to the end,
    #: within the search's own ``max_rollout``)
    horizon: int | None = None
    #: the score lead that a search rewarding margins counts as decisive (``None``: the spread of
    #: the scores). With a scale, a margin reward grows smoothly with the lead instead of only
    #: telling ahead from behind, which is what a two-player game needs to compare moves that do
    #: not change who leads
    margin_scale: float | None = None
    #: the reward a search uses unless told otherwise (``None``: the search's own default);
    #: one of ``win``, ``rank``, ``margin`` and ``mixed`` (see ``campfire.agents.reward_vector``)
    reward: str | None = None

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        """A legal action for ``seat`` in ``state``."""
        raise NotImplementedError

    def after(self, state: State, seat: int, action: Action) -> None:
        """Take note that ``seat`` just played ``action`` (``state`` is the state after it)."""

    def prune(
        self, state: State, seat: int, actions: list[Action], rng: random.Random
    ) -> list[Action]:
        """The actions a search should consider (a non-empty subset; default: all of them).

        Games with wide, mostly equivalent choices narrow them here, so the search spends its
        iterations on sensible moves.
        """
        return actions

    def evaluate(self, state: State) -> Outcome | None:
        """An estimate of the final outcome of an unfinished game (``None``: no estimate).

        A search that cuts a rollout short scores it with this estimate.
        """
        return None


@dataclass(frozen=True)
class AgentConfig(Options):
    """Base class of agents' parameters (an agent without parameters uses it as is)."""


class Agent(ABC):
    """A computer player for one seat.

    Subclasses set :attr:`name`, optionally :attr:`config_type` (their parameters, validated like
    game options) and implement :meth:`act`.
    """

    name: ClassVar[str] = "agent"
    description: ClassVar[str] = ""
    config_type: ClassVar[type[AgentConfig]] = AgentConfig

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        num_players: int,
        options: Options,
        config: AgentConfig | None = None,
        seed: int = 0,
    ) -> None:
        self.game = game
        self.seat = seat
        self.num_players = num_players
        self.options = options
        self.config = config if config is not None else self.config_type()
        self.seed = seed
        self.rng = random.Random(seed)
        memory = getattr(self.config, "memory", "perfect")
        self.belief = game.new_belief(seat, num_players, options, memory, seed)

    def observe(self, events: Sequence[Event]) -> None:
        """Take note of events this seat may see (the runner filters them)."""
        self.belief.observe(events)

    @abstractmethod
    def act(self, obs: Observation) -> Action:
        """Return one of ``obs.legal_actions``."""

    def spec(self) -> str:
        """The agent's name with its non-default parameters, e.g. ``ismcts:iterations=500``."""
        params = self.config.non_default()
        if not params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
