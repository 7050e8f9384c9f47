"""OpenSpiel adapter: every Campfire game as a ``pyspiel`` Python game.

Importing this module registers every installed game as ``campfire_<name>`` with
:func:`pyspiel.register_game` (``pip install campfire-games[rl]``). Parameters: ``players``
(default 2), ``options`` (the game's options as a JSON object string, default ``{}``),
``max_moves`` (the move cap, 0: the adapter's default), ``seeds`` (the number of chance outcomes,
default 1024) and ``seed_offset`` (added to the drawn outcome to make the game's seed, default 0).

Modelling choices (``docs/adapters.md`` has the details):

* **Chance** is one initial chance node: a uniform draw among ``seeds`` outcomes, which becomes the
  engine's seed. Every later random event (shuffles, tie-breaks) follows from it inside the engine,
  hidden from the players.
* **Simultaneous steps** (``Game.simultaneous_steps``: a poll of every seat, a secret choice) are
  *sequential hidden moves*: the lowest seat still to answer acts first, and the others cannot see
  its answer (the engine hides it until the poll closes). ``Dynamics.SEQUENTIAL``.
* **Returns** are zero-sum win shares: a lone winner 1, each loser −1/(N−1), shared wins split; a
  game cut at the move cap is a draw (all 0).
* **Observations** are the encoders of :mod:`campfire.adapters.encoders`; the observation and
  information-state strings are the seat's view and memory as JSON (what the seat knows now, not
  its full action history). Serialisation goes through the engine's position JSON.

>>> import pyspiel
>>> from campfire.adapters import openspiel as cs
>>> spec = campfire.all_games()[0]
>>> game = pyspiel.load_game(f"campfire_{spec.name}", {"players": spec.min_players})
>>> game.num_players() == spec.min_players
True
>>> game.num_distinct_actions() == spec.num_distinct_actions(spec.min_players)
True
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1024)
>>> state.apply_action(7)
>>> state.current_player() in range(spec.min_players)
True
>>> first = state.legal_actions()[0]
>>> state.action_to_string(first) == str(spec.action_from_index(first, spec.min_players))
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

import campfire
from campfire.core import OptionError

from .encoders import encoder_for
from .session import Session, default_max_moves

__all__ = ["GAME_NAMES", "ismcts_bot", "load", "make_resampler", "register"]

#: the OpenSpiel names of the games: ``campfire_<name>``
GAME_NAMES = tuple(f"campfire_{g.name}" for g in campfire.all_games())
_DEFAULT_SEEDS = 1024


@dataclass(frozen=True)
class _Config:
    """What a state needs to start its game (shared by every clone, never copied)."""

    game: str
    players: int
    options: dict[str, Any]
    max_moves: int
    seeds: int
    seed_offset: int

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self


def _config(name: str, params: dict[str, Any] | None) -> _Config:
    game = campfire.get_game(name)
    params = dict(params or {})
    players = int(params.get("players", game.min_players))
    game.check_players(players)
    raw = params.get("options", "{}") or "{}"
    try:
        options = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise OptionError(f"options must be a JSON object string (got {raw!r}: {exc})") from None
    if not isinstance(options, dict):
        raise OptionError(f"options must be a JSON object string (got {raw!r})")
    options = game.options(options).to_dict()
    max_moves = int(params.get("max_moves", 0)) or default_max_moves(game, players)
    seeds = int(params.get("seeds", _DEFAULT_SEEDS))
    if seeds < 1:
        raise OptionError(f"seeds must be at least 1 (got {seeds})")
    return _Config(name, players, options, max_moves, seeds, int(params.get("seed_offset", 0)))


def _game_type(name: str) -> Any:
    game = campfire.get_game(name)
    return pyspiel.GameType(
        short_name=f"campfire_{name}",
        long_name=f"Campfire {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={
            "players": game.min_players,
            "options": "{}",
            "max_moves": 0,
            "seeds": _DEFAULT_SEEDS,
            "seed_offset": 0,
        },
    )


class CampfireGame(pyspiel.Game):  # type: ignore[misc]
    """A Campfire game for OpenSpiel (one subclass per game, see :func:`register`)."""

    campfire_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cfg = _config(self.campfire_name, params)
        n = cfg.players
        info = pyspiel.GameInfo(
            num_distinct_actions=campfire.get_game(cfg.game).num_distinct_actions(n),
            max_chance_outcomes=cfg.seeds,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=cfg.max_moves,
        )
        super().__init__(_game_type(cfg.game), info, params or {})
        self.config = cfg

    def new_initial_state(self) -> CampfireState:
        """The state before the deal: a chance node over the seeds."""
        return CampfireState(self, self.config)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CampfireObserver:
        """The observer: the game's encoder as a tensor and a string.

        The string is the seat's view and memory, or, with perfect recall
        (``iig_obs_type.perfect_recall``: the information state), its view and history.
        """
        if params:
            raise OptionError(f"observer parameters are not supported (got {params})")
        perfect = bool(getattr(iig_obs_type, "perfect_recall", False))
        return CampfireObserver(self.config, perfect_recall=perfect)


class CampfireState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around a :class:`~campfire.adapters.session.Session`."""

    def __init__(self, game: CampfireGame, config: _Config) -> None:
        super().__init__(game)
        self._cfg = config
        self._session: Session | None = None

    @property
    def session(self) -> Session | None:
        """The Campfire game behind this state (``None`` before the deal)."""
        return self._session

    def current_player(self) -> int:
        """The seat to act, or ``PlayerId.CHANCE`` / ``PlayerId.TERMINAL``."""
        session = self._session
        if session is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = session.current_seat()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return [] if self._session is None else self._session.legal(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seeds, uniformly."""
        k = self._cfg.seeds
        return [(i, 1.0 / k) for i in range(k)]

    def _apply_action(self, action: int) -> None:
        cfg = self._cfg
        if self._session is None:
            self._session = Session(
                cfg.game,
                cfg.players,
                cfg.options,
                seed=cfg.seed_offset + int(action),
                max_moves=cfg.max_moves,
            )
            return
        seat = self._session.current_seat()
        assert seat is not None
        self._session.apply(seat, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {self._cfg.seed_offset + int(action)}"
        return str(campfire.get_game(self._cfg.game).action_from_index(action, self._cfg.players))

    def is_terminal(self) -> bool:
        """Whether the game ended (by the rules or at the move cap)."""
        return self._session is not None and self._session.is_over()

    def returns(self) -> list[float]:
        """Zero-sum win shares at the end, zeros before it (and for a game cut at the cap)."""
        if self._session is None:
            return [0.0] * self._cfg.players
        return self._session.returns()

    def resample(self, player: int, rng: random.Random) -> CampfireState:
        """A state that ``player`` cannot tell from this one (its ``determinize``)."""
        assert self._session is not None, "resample after the deal"
        other: CampfireState = self.get_game().new_initial_state()
        other._session = self._session.determinize(player, rng)
        return other

    def __str__(self) -> str:
        if self._session is None:
            return f"{self._cfg.game}: before the deal"
        return json.dumps(self._session.state.to_position(), sort_keys=True)


class CampfireObserver:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from`` and ``string_from``."""

    def __init__(self, config: _Config, *, perfect_recall: bool = False) -> None:
        size = encoder_for(config.game, config.players).size
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: CampfireState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor`."""
        session = state.session
        if session is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = session.observation(player)

    def string_from(self, state: CampfireState, player: int) -> str:
        """``player``'s view and memory as JSON; with perfect recall its view and history."""
        session = state.session
        if session is None:
            return "before the deal"
        if self.perfect_recall:
            return session.information_state_string(player)
        return session.observation_string(player)


def make_resampler(seed: int = 0) -> Callable[[CampfireState, int], CampfireState]:
    """A resampler for OpenSpiel's ISMCTS bot (``bot.set_resampler``): our ``determinize``."""
    rng = random.Random(seed)

    def resample(state: CampfireState, player: int) -> CampfireState:
        return state.resample(player, rng)

    return resample


def ismcts_bot(
    game: Any,
    *,
    simulations: int = 100,
    rollout_length: int | None = 30,
    uct_c: float = 2.0,
    seed: int = 0,
) -> Any:
    """OpenSpiel's Python ISMCTS bot with our resampler, ready for ``evaluate_bots``.

    The bot searches from determinisations drawn by :func:`make_resampler` and scores leaves
    with random rollouts of at most ``rollout_length`` moves (``None``: to the end). It keeps no
    state between moves, so ``restart_at`` and ``inform_action`` do nothing (the stock bot does
    not implement them, which ``evaluate_bots`` needs).
    """
    from open_spiel.python.algorithms import ismcts, mcts

    class _Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed), max_length=rollout_length
    )
    bot = _Bot(
        game,
        evaluator,
        uct_c=uct_c,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    bot.set_resampler(make_resampler(seed + 2))
    return bot


_REGISTERED: set[str] = set()


def register() -> None:
    """Register every Campfire game with OpenSpiel (done on import; safe to repeat)."""
    for game in campfire.all_games():
        short = f"campfire_{game.name}"
        if short in _REGISTERED:
            continue
        cls = type(
            f"Campfire{game.name.title()}Game", (CampfireGame,), {"campfire_name": game.name}
        )
        globals()[cls.__name__] = cls  # so that pickles can find the class
        pyspiel.register_game(_game_type(game.name), cls)
        _REGISTERED.add(short)


def load(name: str, players: int = 2, max_moves: int = 0, **options: Any) -> Any:
    """Load ``campfire_<name>`` with ``players`` and the game's ``options``.

    >>> spec = campfire.all_games()[-1]
    >>> load(spec.name, spec.max_players).num_players() == spec.max_players
    True
    """
    return pyspiel.load_game(
        f"campfire_{name}",
        {"players": players, "options": json.dumps(options), "max_moves": max_moves},
    )


register()
