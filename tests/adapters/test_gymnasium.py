import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from campfire.adapters.gymnasium import CampfireEnv
from campfire.core import OptionError

from .conftest import GAMES


@pytest.mark.parametrize("game", GAMES)
def test_check_env_passes(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the unbounded Box and the seeded-reset notes
        check_env(CampfireEnv(game, players=3, seat=1, opponents="heuristic"))


@pytest.mark.parametrize("game", GAMES)
def test_an_episode_ends_with_the_learners_win_share(game: str) -> None:
    env = CampfireEnv(game, players=2, opponents="easy")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    total, done = 0.0, False
    while not done:
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
    assert env.session is not None
    assert total == pytest.approx(env.session.returns()[0])
    assert total in (-1.0, 0.0, 1.0)


def test_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = CampfireEnv("tracker", players=2)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal": True})


def test_bad_arguments_say_what_is_allowed() -> None:
    with pytest.raises(OptionError, match="seat must be 0–1"):
        CampfireEnv("tracker", players=2, seat=2)
    with pytest.raises(OptionError, match="one per other seat"):
        CampfireEnv("tracker", players=3, opponents=["random"])
    with pytest.raises(OptionError, match="unknown agent"):
        CampfireEnv("tracker", players=2, opponents="grandmaster")
