"""Batched games for researchers: N games stepped by one call, arrays in and out.

:class:`VectorGames` holds ``num_envs`` games of one game and player count. In each game one
seat acts at a time (the adapters' rule: the lowest seat of those that may act, so simultaneous
steps become hidden sequential moves); :meth:`VectorGames.step` takes one action index per game
for its seat to act, plays them all and answers a :class:`Batch` of NumPy arrays — the acting
seats' observations and action masks (the same encoders and index space as the PettingZoo and
OpenSpiel adapters), the seats to act next, every seat's reward and the games' ``terminated``
and ``truncated`` flags. A game that ends is reset in the same call (*same-step* reset): its
flags and rewards say how it ended, its observation, mask and seat are those of the next game.
Self-play therefore needs no bookkeeping but the seats: ``batch.seats[i]`` is whose turn it is
in game ``i``.

Determinism: game number ``k`` of slot ``i`` (``k`` counts from 0 since the last
:meth:`~VectorGames.reset`) has the engine seed :func:`game_seed` ``(seed, i, k)``, so the same
seed and actions give the same trajectories, whatever else runs.

Why batched: a per-step environment (PettingZoo's AEC) pays its protocol once per move, which
costs about as much as the engine's move itself; here the Python around a move is a loop over
the games, the masks are written with one NumPy assignment per call, and each game's
observation rows are kept and brought up to date part by part (``Encoder.update_state_into``,
docs/adapters.md, "Kept rows"). ``benchmarks/adapters_bench.py --vector 64`` measures it beside
the engine and the AEC environment (benchmarks/README.md).

:class:`CampfireVectorEnv` is a Gymnasium ``VectorEnv`` for a single learner: the learner at one
seat of every game, Campfire agents at the others (as :class:`~.gymnasium.CampfireEnv`, whose
observations, rewards and illegal-action rule it shares).

>>> from campfire import all_games
>>> game = all_games()[0]
>>> games = VectorGames(game.name, 4, players=2, seed=7)
>>> batch = games.reset()
>>> batch.observations.shape == (4, games.observation_size), batch.action_masks.shape[0]
(True, 4)
>>> actions = [int(row.nonzero()[0][0]) for row in batch.action_masks]  # a legal one each
>>> batch = games.step(actions)
>>> batch.rewards.shape, batch.terminated.dtype.name
((4, 2), 'bool')
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import campfire
from campfire.core import OptionError

from .batch import MAX_ENVS, Batch, VectorGames, game_seed
from .gymnasium import CampfireEnv

__all__ = [
    "MAX_ENVS",
    "Batch",
    "CampfireVectorEnv",
    "VectorGames",
    "game_seed",
    "random_actions",
]


def random_actions(
    masks: npt.NDArray[np.integer[Any] | np.bool_], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row of ``masks`` (a batch's ``action_masks``).

    The random player of a batch, and a baseline: each row's legal indices are found at once
    for the whole batch, and one uniform draw per row picks among them (about as much work per
    action slot as reading the mask, where a random score per slot, masked, then its argmax,
    draws a number for every slot). Every row must have a legal action (a batch's always
    does); ``rng`` alone decides, so the same generator state gives the same actions.

    >>> masks = np.array([[0, 1, 1, 0], [1, 0, 0, 0]], dtype=np.int8)
    >>> picked = random_actions(masks, np.random.default_rng(0))
    >>> bool(masks[0, picked[0]]), int(picked[1])
    (True, 0)
    """
    n, width = masks.shape
    # row by row, each row's legal indices ascending; found among bools (NumPy finds the
    # nonzero entries of an int8 array item by item, those of a bool array seven times faster)
    legal = np.flatnonzero(masks if masks.dtype == np.bool_ else masks != 0)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if width == 0:
        raise OptionError("every row of the masks needs a legal action (a 1)")
    rows = np.arange(0, n * width, width)  # where each row starts in the flat masks
    # where each row's entries start among them: one binary search a row (counting every
    # entry's row, then summing the counts, made the whole draw 1.2-1.5 times as long)
    starts = legal.searchsorted(rows)
    counts = np.empty_like(starts)
    counts[:-1] = starts[1:]
    counts[-1] = legal.size
    counts -= starts
    if not counts.all():
        raise OptionError("every row of the masks needs a legal action (a 1)")
    picks = starts + (rng.random(n) * counts).astype(np.int64)
    chosen: npt.NDArray[np.int64] = legal[picks] - rows
    return chosen


class CampfireVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """A Gymnasium ``VectorEnv``: the learner at ``seat`` of ``num_envs`` games.

    Campfire agents play the other seats (each game a :class:`~.gymnasium.CampfireEnv`, all
    stepped in one call).
    Observations are the dict of ``observation`` and ``action_mask`` batched (arrays with a
    first axis of ``num_envs``); rewards, the learner's illegal-action rule and ``shaping`` are
    :class:`~.gymnasium.CampfireEnv`'s. A game that ends is reset in the same call
    (``autoreset_mode`` *same-step*): ``infos["final_obs"]`` and ``infos["final_info"]`` hold
    the ended games' last observations and infos, marked by ``infos["_final_obs"]``, as
    Gymnasium's own vector environments lay them out in that mode. Game ``k`` of slot ``i`` is
    seeded from ``seed`` through :func:`game_seed`.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int = 2,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        *,
        shaping: float = 0.0,
        max_moves: int | None = None,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int):
            raise OptionError(f"num_envs must be an integer 1–{MAX_ENVS} (got {num_envs!r})")
        if not 1 <= num_envs <= MAX_ENVS:
            raise OptionError(f"num_envs must be 1–{MAX_ENVS} (got {num_envs})")
        campfire.get_game(game).check_players(players)
        self.envs = [
            CampfireEnv(
                game, players, seat, opponents, shaping=shaping, max_moves=max_moves, **options
            )
            for _ in range(num_envs)
        ]
        self.num_envs = num_envs
        first = self.envs[0]
        assert isinstance(first.observation_space, spaces.Dict)
        assert isinstance(first.action_space, spaces.Discrete)
        #: one game's spaces: the dict of ``observation`` and ``action_mask``, the action index
        self.single_observation_space: spaces.Dict = first.observation_space
        self.single_action_space: spaces.Discrete = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seed = 0
        self._numbers = [0] * num_envs

    def _reset_one(self, i: int) -> tuple[dict[str, Any], dict[str, Any]]:
        seed = game_seed(self._seed, i, self._numbers[i])
        return self.envs[i].reset(seed=seed)

    @staticmethod
    def _stack(observations: list[dict[str, Any]]) -> dict[str, Any]:
        return {key: np.stack([o[key] for o in observations]) for key in observations[0]}

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game in every slot (``seed``: one int for the batch); the observations."""
        if isinstance(seed, list):
            raise OptionError("give one seed for the whole batch (an int), not one per game")
        if seed is not None:
            self._seed = operator.index(seed)
        self._numbers = [0] * self.num_envs
        observations = [self._reset_one(i)[0] for i in range(self.num_envs)]
        return self._stack(observations), {}

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, Any],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play each game's learner action (and the agents up to the learner's next turn)."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise OptionError(
                f"actions must be {self.num_envs} integer action indices, one per game "
                f"(got shape {chosen.shape}, dtype {chosen.dtype})"
            )
        n = self.num_envs
        observations: list[dict[str, Any]] = []
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        infos: dict[str, Any] = {}
        for i, (env, action) in enumerate(zip(self.envs, chosen.tolist(), strict=True)):
            obs, reward, term, trunc, info = env.step(action)
            rewards[i], terminated[i], truncated[i] = reward, term, trunc
            if term or trunc:  # Gymnasium's same-step layout (its SyncVectorEnv's)
                infos = self._add_info(infos, {"final_obs": obs, "final_info": info}, i)
                self._numbers[i] += 1
                obs, info = self._reset_one(i)
            infos = self._add_info(infos, info, i)
            observations.append(obs)
        return self._stack(observations), rewards, terminated, truncated, infos
