"""The agent protocol: a computer player for one seat.

An :class:`Agent` never sees the true state. At each decision it receives an
:class:`Observation`: the seat's view, its legal actions, and a way to draw determinisations (full
states consistent with what the seat knows, for search). Between decisions it is told the events
its seat may see. Agents are deterministic given their seed.

A :class:`Belief` is what a seat remembers beyond its current view (the cards it was shown in
private, the cards it saw go face down into other seats' piles); the game provides it, and it
shapes the determinisations.

An observation cannot leak the true state, by construction: :meth:`Observation.of` reads the
view and the legal actions from the true state, draws one determinisation of it through the
belief (a *world*: every hidden card re-dealt) and keeps that world, never the true state.
:meth:`Observation.sample` re-determinises the world, which gives exactly the determinisation
the true state would have given with the same generator, because a determinisation depends only
on what the seat knows and on the generator (``docs/architecture.md``, "Determinisation").

>>> import random
>>> from campfire import all_games
>>> state = all_games()[0].new_game(2, seed=3)
>>> obs = Observation.of(state, state.seats_to_act()[0], rng=random.Random(1))
>>> obs.legal_actions == state.legal_actions(obs.seat)
True
>>> obs.view == state.view(obs.seat)
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .abc_caches import own_abc_cache
from .actions import Action
from .belief import Belief
from .draws import choice
from .errors import ErrorText, OptionError
from .events import Event
from .options import Options, option
from .outcome import Outcome
from .state import State

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "ActionValue",
    "Agent",
    "AgentConfig",
    "Assessment",
    "Belief",
    "NoisyConfig",
    "Observation",
    "RolloutPolicy",
]

_A = TypeVar("_A")


class Observation:
    """What an agent may use to decide: its seat's view, legal actions, and determinisations.

    Build it with :meth:`of` (calling the class with the same arguments does the same). It holds
    the seat, the game, its options and player count, the legal actions (read from the true
    state), the seat's belief, and one determinisation of the true state (the *world*); nothing
    it holds, directly or through any attribute chain, is the true state or part of it. The view
    is the world's view of the seat, which is the true state's view (a determinisation keeps the
    seat's view). :meth:`sample` re-determinises the world.

    ``rng`` draws the world; the default is a fresh generator seeded by the operating system.
    Agents never depend on it: the world's view is the seat's view, and :meth:`sample` returns
    the same states whatever the world is (see the module docstring). Pass a seeded generator
    for a reproducible observation object. With ``world=False`` (for an agent whose
    :attr:`Agent.uses_world` is false) no world is drawn: the observation holds only the legal
    actions, and :attr:`view` and :meth:`sample` raise :class:`TypeError`.
    """

    __slots__ = ("_legal", "_view", "_world", "belief", "game", "num_players", "options", "seat")

    def __init__(
        self,
        state: State,
        seat: int,
        belief: Belief | None = None,
        rng: random.Random | None = None,
        *,
        world: bool = True,
    ) -> None:
        self.seat = seat
        self.game: Game[Any] = state.game
        self.num_players = state.num_players
        self.options = state.options
        self.belief = belief if belief is not None else Belief(seat)
        self._legal: list[Action] = list(state.legal_actions(seat))
        self._world: State | None = None
        self._view: Mapping[str, Any] | None = None
        if not world:
            return
        drawn = self.belief.sample(state, rng if rng is not None else random.Random())
        if drawn is state:
            raise TypeError(
                f"{type(self.belief).__name__}.sample returned the state itself; a belief must "
                "return a determinised copy"
            )
        self._world = drawn

    @classmethod
    def of(
        cls,
        state: State,
        seat: int,
        belief: Belief | None = None,
        rng: random.Random | None = None,
        *,
        world: bool = True,
    ) -> Observation:
        """The observation of ``seat`` in the true ``state``, with the world drawn from ``rng``.

        This is how every driver (the arena, the terminal UI, a table) hands a decision to an
        agent: the observation keeps the legal actions and a determinisation of ``state``,
        never ``state`` itself. ``world=agent.uses_world`` skips the draw for agents that
        decide from the legal actions alone.
        """
        return cls(state, seat, belief, rng, world=world)

    @classmethod
    def of_world(cls, world: State, seat: int, belief: Belief | None = None) -> Observation:
        """An observation whose world is ``world`` itself, drawn by the caller (no new draw).

        For a search that hands its own simulated game to models of the players (the heuristic
        rollouts of ISMCTS): the simulated state is already a determinisation from the searching
        seat's knowledge, so drawing another one would only cost time. Drivers of real games
        use :meth:`of`; never pass a true state here.
        """
        obs = cls.__new__(cls)
        obs.seat = seat
        obs.game = world.game
        obs.num_players = world.num_players
        obs.options = world.options
        obs.belief = belief if belief is not None else Belief(seat)
        obs._legal = list(world.legal_actions(seat))
        obs._world = world
        obs._view = None
        return obs

    def _drawn(self) -> State:
        if self._world is None:
            raise TypeError(
                "this observation holds no world (it was made with world=False, for an agent "
                "whose uses_world is false): only legal_actions is available"
            )
        return self._world

    @property
    def view(self) -> Mapping[str, Any]:
        """The seat's view (computed on first use): read it through the game's view type.

        Each game declares its view as a ``TypedDict`` (``campfire.games.<name>.types``); an
        agent of that game casts once, ``cast(PileView, obs.view)``, so every key it reads
        is checked.
        """
        if self._view is None:
            self._view = self._drawn().view(self.seat)
        return self._view

    @property
    def legal_actions(self) -> list[Action]:
        """The seat's legal actions, in the game's deterministic order."""
        return self._legal

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with everything the seat knows (for search).

        It is a fresh copy each time: the agent may play it forward freely.
        """
        return self.belief.sample(self._drawn(), rng)


@dataclass(frozen=True)
class ActionValue:
    """What a search found for one action of a decision: visits, mean reward and win share.

    An agent that can assess a decision (``ISMCTSAgent.assess``, a game's own search) returns
    one per action it weighed, in an :class:`Assessment`.
    """

    action: Action
    #: the iterations that went through this action
    visits: int
    #: the mean reward of the deciding seat after it (the search's own reward, in [0, 1])
    value: float
    #: the mean win share of the deciding seat after it (the estimated chance to win)
    win: float


@dataclass(frozen=True)
class Assessment:
    """A search's view of one decision: the actions it weighed, the one it plays first.

    ``iterations`` 0 says that the agent did not search this decision (it has nothing to
    weigh there): a review leaves such a decision unassessed.
    """

    entries: list[ActionValue]
    #: the iterations the search ran
    iterations: int

    @property
    def best(self) -> ActionValue:
        """The action the search plays (the first entry: for ISMCTS the most visited)."""
        return self.entries[0]

    def get(self, action: Action) -> ActionValue | None:
        """The entry of ``action`` (``None``: the search never tried it)."""
        for entry in self.entries:
            if entry.action == action:
                return entry
        return None


class RolloutPolicy:
    """A fast model of play that finishes simulated games inside a search.

    A game's policy (``Game.rollout_policy``) is made afresh for each simulated game. It acts on
    full, determinised states, so it may use everything in them; :meth:`after` is told every step
    of the simulated game (the tree part included), so the policy can keep track of what each
    seat would know — a seat remembers the cards it was shown in private.
    """

    #: most actions in one rollout before :meth:`evaluate` scores it (``None``: play to the end,
    #: within the search's own ``max_rollout``)
    horizon: ClassVar[int | None] = None
    #: the score lead that a search rewarding margins counts as decisive (``None``: the spread of
    #: the scores). With a scale, a margin reward grows smoothly with the lead instead of only
    #: telling ahead from behind, which is what a two-player game needs to compare moves that do
    #: not change who leads
    margin_scale: ClassVar[float | None] = None
    #: the reward a search uses unless told otherwise (``None``: the search's own default);
    #: one of ``win``, ``rank``, ``margin`` and ``mixed`` (see ``campfire.agents.reward_vector``)
    reward: ClassVar[str | None] = None

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


@dataclass(frozen=True)
class NoisyConfig(AgentConfig):
    """Parameters of a rule-of-thumb bot that slips: ``noise``, its chance of a random move.

    A game's heuristic bot derives its parameters from it and asks :meth:`slip` first in
    ``act``; an easy level is such a bot with ``noise`` above 0. A subclass that overrides
    :meth:`validate` calls ``super().validate()``.

    >>> import random
    >>> NoisyConfig().slip(random.Random(1), ["a", "b"]) is None  # noise 0: never a slip
    True
    >>> NoisyConfig(noise=1.0).slip(random.Random(1), ["a", "b"]) in ("a", "b")
    True
    """

    noise: float = option(
        0.0, help="probability of playing a uniformly random legal action instead (0–1)"
    )

    def validate(self) -> None:
        """``noise`` is a probability."""
        if not 0.0 <= self.noise <= 1.0:
            raise OptionError(
                ErrorText("noise is a probability from 0 to 1 (got {noise})", noise=self.noise)
            )

    def slip(self, rng: random.Random, legal: Sequence[_A]) -> _A | None:
        """With probability ``noise`` a uniformly random one of ``legal`` (drawn from ``rng``).

        ``None`` otherwise: the bot then plays its rule of thumb. With ``noise`` 0 it draws
        nothing from ``rng``.
        """
        if self.noise > 0 and rng.random() < self.noise:
            return choice(rng, legal)
        return None


class Agent(ABC):
    """A computer player for one seat.

    Subclasses set :attr:`name`, optionally :attr:`config_type` (their parameters, validated like
    game options) and implement :meth:`act`.
    """

    name: ClassVar[str] = "agent"
    description: ClassVar[str] = ""
    config_type: ClassVar[type[AgentConfig]] = AgentConfig
    #: whether the agent reads its observation's view or samples; an agent that decides from
    #: the legal actions alone sets it false, and drivers then skip drawing a world for it
    uses_world: ClassVar[bool] = True

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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give a compiled subclass its own ``isinstance`` caches (:mod:`.abc_caches`)."""
        super().__init_subclass__(**kwargs)
        own_abc_cache(cls)

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
