"""Gymnasium adapter: one seat for the learner, Campfire agents in the others.

``CampfireEnv(name, players=2, seat=0, opponents="random")`` is a single-agent
``gymnasium.Env``. The opponents are agent specs or difficulty levels (``random``,
``heuristic``, ``easy``, ``medium``, ``hard``, ``ismcts:iterations=200`` …), one for all or one
per other seat; they see only their own views and events. Observations and actions are those of
the PettingZoo adapter (a dict of ``observation`` and ``action_mask``; an index of the game's
action space). The reward is the learner's zero-sum win share at the end (1 for a lone win,
−1/(N−1) for a loss), plus the optional score-lead ``shaping``.

An illegal action (one the mask excludes) ends the episode with reward −1 and
``info["illegal"] = True``: it is a bug in the learner, not a move.

>>> from campfire import all_games
>>> game = all_games()[0]
>>> env = CampfireEnv(game.name, players=game.min_players, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape == env.observation_space["observation"].shape
True
>>> int(obs["action_mask"].sum()) > 0
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import campfire
from campfire.agents import make_agent
from campfire.core import Agent, OptionError, visible_events
from campfire.core.agent import Observation

from .encoders import encoder_for
from .session import Session, default_max_moves

__all__ = ["CampfireEnv"]

ObsDict = dict[str, npt.NDArray[Any]]


class CampfireEnv(gymnasium.Env[Any, Any]):
    """A single-agent environment: the learner at ``seat``, agents at the other seats."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int = 2,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        render_mode: str | None = None,
        *,
        shaping: float = 0.0,
        max_moves: int | None = None,
        **options: Any,
    ) -> None:
        spec = campfire.get_game(game)
        spec.check_players(players)
        if not 0 <= seat < players:
            raise OptionError(f"seat must be 0–{players - 1} (got {seat})")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode must be ansi, human or None (got {render_mode!r})")
        others = [s for s in range(players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise OptionError(
                f"give one opponent spec for all, or one per other seat ({len(others)}); "
                f"got {len(specs)}"
            )
        self.game = spec
        self.players = players
        self.seat = seat
        self.options = spec.options(options).to_dict()
        self.opponent_specs = dict(zip(others, specs, strict=True))
        for s, agent_spec in self.opponent_specs.items():  # fail early on a bad spec
            make_agent(agent_spec, spec, s, players, self.options)
        self.render_mode = render_mode
        self.shaping = float(shaping)
        self.max_moves = max_moves if max_moves is not None else default_max_moves(game, players)
        size = encoder_for(spec.name, players).size
        n_actions = spec.num_distinct_actions(players)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32
                ),
                "action_mask": spaces.MultiBinary(n_actions),
            }
        )
        self.action_space = spaces.Discrete(n_actions)
        self.session: Session | None = None
        self.agents: dict[int, Agent] = {}
        self._potential = 0.0

    def _obs(self) -> ObsDict:
        assert self.session is not None
        return {
            "observation": self.session.new_observation(self.seat),
            "action_mask": self.session.legal_mask(self.seat),
        }

    def _lead(self) -> float:
        assert self.session is not None
        return self.session.score_potential()[self.seat] if self.shaping else 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Start a new game and play the opponents up to the learner's first decision."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self.session = Session(
            self.game, self.players, self.options, seed=game_seed, max_moves=self.max_moves
        )
        self.agents = {
            s: make_agent(agent_spec, self.game, s, self.players, self.options, seed=game_seed + s)
            for s, agent_spec in self.opponent_specs.items()
        }
        self._play_opponents()
        self._potential = self._lead()
        return self._obs(), {}

    def _play_opponents(self) -> None:
        session = self.session
        assert session is not None
        while True:
            seat = session.current_seat()
            if seat is None or seat == self.seat:
                return
            agent = self.agents[seat]
            action = agent.act(Observation(session.state, seat, agent.belief))
            self._tell(session.apply(seat, session.index_of(action)))

    def _tell(self, events: list[Any]) -> None:
        for agent in self.agents.values():
            agent.observe(visible_events(events, agent.seat))

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents until the learner's next decision."""
        session = self.session
        if session is None:
            raise OptionError("call reset() before step()")
        if session.is_over():
            raise OptionError("the game is over; call reset()")
        index = int(action)
        if index not in session.legal(self.seat):
            return self._obs(), -1.0, True, False, {"illegal": True}
        self._tell(session.apply(self.seat, index))
        self._play_opponents()
        reward = 0.0
        if self.shaping:
            lead = self._lead()
            reward += self.shaping * (lead - self._potential)
            self._potential = lead
        terminated = session.state.is_terminal()
        truncated = session.truncated
        if terminated:
            reward += session.returns()[self.seat]
        if self.render_mode == "human":
            self.render()
        info = {"moves": session.moves}
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> str | None:
        """``ansi``: the table as the learner's seat sees it; ``human``: printed."""
        if self.render_mode is None or self.session is None:
            return None
        text = self.session.state.render(self.seat)
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")
            return None
        return text
