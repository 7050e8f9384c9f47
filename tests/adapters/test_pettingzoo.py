from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import campfire
from campfire.adapters.pettingzoo import env, raw_env
from campfire.core import IllegalActionError, OptionError

from .conftest import GAMES


def _player_counts(game: str) -> list[int]:
    spec = campfire.get_game(game)
    return sorted({spec.min_players, spec.max_players})


@pytest.mark.parametrize("game", GAMES)
def test_api_test_passes(game: str) -> None:
    for players in _player_counts(game):
        api_test(env(game, players=players), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_seed_test_passes(game: str) -> None:
    seed_test(lambda **kw: env(game, players=3, **kw), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_render_test_passes(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(game, players=2, render_mode=render_mode))
    assert "to act: player_" in capsys.readouterr().out  # human mode prints


def _play(e: Any, seed: int, rng: np.random.Generator) -> dict[str, float]:
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("game", GAMES)
def test_rewards_are_the_win_shares_at_the_end(game: str) -> None:
    e = env(game, players=3)
    totals = _play(e, 4, np.random.default_rng(0))
    session = e.unwrapped.session
    assert [totals[a] for a in e.possible_agents] == pytest.approx(session.returns())


def test_shaping_adds_the_final_score_lead() -> None:
    shaped = env("apache", players=2, shaping=0.1)
    plain = env("apache", players=2)
    a = _play(shaped, 9, np.random.default_rng(1))
    b = _play(plain, 9, np.random.default_rng(1))
    lead = shaped.unwrapped.session.score_potential()
    for s, agent in enumerate(shaped.possible_agents):
        assert a[agent] == pytest.approx(b[agent] + 0.1 * lead[s])


def test_move_cap_truncates_every_agent() -> None:
    e = env("tracker", players=3, max_moves=10)
    e.reset(seed=0)
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.unwrapped.session.moves == 10


def test_mask_is_empty_for_agents_not_to_act() -> None:
    e = env("dudab", players=4)
    e.reset(seed=2)
    acting = e.agent_selection
    for agent in e.possible_agents:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == acting)


def test_illegal_action_is_refused() -> None:
    e = env("tracker", players=2)
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        e.step(int(np.flatnonzero(mask == 0)[0]))


def test_bad_render_mode_says_what_is_allowed() -> None:
    with pytest.raises(OptionError, match="ansi, human"):
        raw_env("tracker", 2, render_mode="rgb_array")
