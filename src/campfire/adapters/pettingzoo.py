"""PettingZoo adapter: every Campfire game as an AEC environment (classic-environment style).

``env(name, players=4, render_mode="ansi", **options)`` builds the environment (wrapped in
PettingZoo's ``OrderEnforcingWrapper``); ``raw_env`` is the unwrapped class. Agents are
``player_0 … player_{N−1}`` (seat numbers). Each observation is a dict:

* ``observation``: the game's encoding (:mod:`campfire.adapters.encoders`), ``Box`` of
  ``float32``, built from that agent's view and memory only;
* ``action_mask``: ``MultiBinary`` over the game's fixed action index space, the legal actions
  of the agent to act (all zeros for the others).

Turn order follows the engine: the agent to act is the lowest seat that may act (the seats of a
simultaneous step answer as hidden sequential moves, as in the OpenSpiel adapter). Rewards come at
the end: zero-sum win shares (a lone winner 1, each loser −1/(N−1)). With ``shaping=s > 0`` every
step also pays ``s`` × the change of the agent's score lead (its score minus the others' mean: the
scores every seat sees during the game, ``Game.public_scores``, the final scores at the end), so
over a game the shaping adds ``s`` × the final score lead. A game that reaches ``max_moves`` is
truncated (every agent ``truncated``, no final reward).

>>> from campfire import all_games
>>> game = all_games()[0]
>>> e = env(game.name, players=game.min_players, render_mode="ansi")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection in e.agents, obs["observation"].dtype.name, int(obs["action_mask"].sum()) > 0
(True, 'float32', True)
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

import campfire
from campfire.core import OptionError

from .encoders import encoder_for
from .session import Session, default_max_moves

__all__ = ["OrderEnforcingWrapper", "env", "raw_env"]

RENDER_MODES = ("ansi", "human")


class raw_env(AECEnv):  # type: ignore[misc]
    """An AEC environment for one Campfire game (see the module documentation)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (the frameworks read it from the class)
        "render_modes": list(RENDER_MODES),
        "name": "campfire",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int = 2,
        render_mode: str | None = None,
        *,
        shaping: float = 0.0,
        max_moves: int | None = None,
        memory: str = "perfect",
        **options: Any,
    ) -> None:
        super().__init__()
        spec = campfire.get_game(game)
        spec.check_players(players)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(
                f"render_mode must be one of {', '.join(RENDER_MODES)} or None "
                f"(got {render_mode!r})"
            )
        if shaping < 0:
            raise OptionError(f"shaping must be 0 or more (got {shaping})")
        self.game = spec
        self.players = players
        self.options = spec.options(options).to_dict()
        self.render_mode = render_mode
        self.shaping = float(shaping)
        self.max_moves = max_moves if max_moves is not None else default_max_moves(game, players)
        self.memory = memory
        self.metadata = {**self.metadata, "name": f"campfire_{spec.name}_v0"}
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = encoder_for(spec.name, players).size
        n_actions = spec.num_distinct_actions(players)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32
                ),
                "action_mask": spaces.MultiBinary(n_actions),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.session: Session | None = None
        self._potential: list[float] = [0.0] * players

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the game's fixed index space."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` makes this and the following games reproducible."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.session = Session(
            self.game,
            self.players,
            self.options,
            seed=self._seeds.getrandbits(63),
            max_moves=self.max_moves,
            memory=self.memory,
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._potential = self.session.score_potential() if self.shaping else [0.0] * self.players
        self._select()

    def _select(self) -> None:
        assert self.session is not None
        seat = self.session.current_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, terminated, truncated and info of the agent to act."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: its encoding and the action mask."""
        assert self.session is not None, "reset the environment first"
        seat = self._seat[agent]
        return {
            "observation": self.session.new_observation(seat),
            "action_mask": self.session.legal_mask(seat),
        }

    def step(self, action: int | None) -> None:
        """Play ``action`` (an index) for the agent to act; ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        session = self.session
        assert session is not None
        if action is None:
            raise OptionError(f"{agent} is still playing; give an action index, not None")
        self._cumulative_rewards[agent] = 0.0
        session.apply(self._seat[agent], int(action))
        seat = session.current_seat()
        over = seat is None and session.is_over()
        if self.shaping or over:  # else every reward is 0 until the end: none to clear or add
            self._clear_rewards()
            if self.shaping:
                potential = session.score_potential()
                for s, a in enumerate(self.possible_agents):
                    self.rewards[a] += self.shaping * (potential[s] - self._potential[s])
                self._potential = potential
            if over:
                final = session.returns()
                for s, a in enumerate(self.possible_agents):
                    self.rewards[a] += final[s]
                    if session.truncated:
                        self.truncations[a] = True
                    else:
                        self.terminations[a] = True
                    self.infos[a] = {"moves": session.moves, "truncated": session.truncated}
            self._accumulate_rewards()
        if over:
            self._deads_step_first()
        elif seat is not None:
            self.agent_selection = self.possible_agents[seat]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the table as a spectator sees it, as text; ``human``: printed."""
        if self.render_mode is None or self.session is None:
            return None
        session = self.session
        seat = session.current_seat()
        who = "game over" if seat is None else f"to act: player_{seat}"
        text = f"{self.game.title}, move {session.moves}, {who}\n{session.state.render(None)}"
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _forwarded(name: str, before_reset: bool) -> property:
    """A read-only attribute of the wrapped environment, read without ``__getattr__``."""

    def get(self: OrderEnforcingWrapper) -> Any:
        if not (before_reset or self._has_reset):
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The wrapped environment's ``{name}``.")


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with direct reads of the per-step attributes.

    The stock wrapper reaches ``agents``, ``agent_selection``, ``rewards`` and the other
    per-step dictionaries through two ``__getattr__`` calls each, eight times per step of an
    ``agent_iter`` loop; here they are properties (the same checks: an ``AttributeError``
    before ``reset``), and :meth:`last` asks the environment directly.
    """

    agents = _forwarded("agents", before_reset=False)
    agent_selection = _forwarded("agent_selection", before_reset=False)
    rewards = _forwarded("rewards", before_reset=False)
    terminations = _forwarded("terminations", before_reset=False)
    truncations = _forwarded("truncations", before_reset=False)
    infos = _forwarded("infos", before_reset=False)
    _cumulative_rewards = _forwarded("_cumulative_rewards", before_reset=True)

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool, dict[str, Any]]:
        """Observation, cumulative reward, terminated, truncated and info of the agent to act."""
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        result: tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool, dict[str, Any]]
        result = self.env.last(observe)
        return result

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to act (PettingZoo's checks, one call less)."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if self.env.agents:
            self.env.step(action)
        else:
            EnvLogger.warn_step_after_terminated_truncated()

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        """The agent to act, step after step, until every agent is done (or ``max_iter``)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the wrapped environment directly."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = env.agent_selection
        return agent


def env(game: str, players: int = 2, render_mode: str | None = None, **kwargs: Any) -> Any:
    """The environment for ``game``, wrapped in an order-enforcing wrapper.

    The wrapper is a subclass of PettingZoo's ``OrderEnforcingWrapper`` that reads the
    per-step attributes directly (same behaviour, less overhead per step). ``kwargs`` are
    ``shaping``, ``max_moves``, ``memory`` and the game's options.
    """
    return OrderEnforcingWrapper(raw_env(game, players, render_mode, **kwargs))
