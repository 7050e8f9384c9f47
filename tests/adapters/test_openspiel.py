import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots

from campfire.adapters import openspiel as cs
from campfire.core import OptionError

from .conftest import GAME_PLAYERS, GAMES


@pytest.mark.parametrize(("game", "players"), GAME_PLAYERS)
def test_random_sim_test_passes(game: str, players: int) -> None:
    spiel_game = cs.load(game, players)
    sims = 2 if players <= 3 else 1
    pyspiel.random_sim_test(spiel_game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_games_are_registered_with_their_info(game: str) -> None:
    assert f"campfire_{game}" in pyspiel.registered_names()
    spiel_game = pyspiel.load_game(f"campfire_{game}", {"players": 3})
    gtype = spiel_game.get_type()
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert spiel_game.num_players() == 3
    assert spiel_game.min_utility() == -0.5 and spiel_game.max_utility() == 1.0
    assert spiel_game.max_chance_outcomes() == 1024


@pytest.mark.parametrize("game", GAMES)
def test_ismcts_bot_plays_a_full_game_with_evaluate_bots(game: str) -> None:
    spiel_game = cs.load(game, 2)
    bots = [
        cs.ismcts_bot(spiel_game, simulations=4, rollout_length=8, seed=1),
        pyspiel.make_uniform_random_bot(1, 2),
    ]
    returns = evaluate_bots.evaluate_bots(
        spiel_game.new_initial_state(), bots, np.random.RandomState(3)
    )
    assert len(returns) == 2 and abs(sum(returns)) < 1e-9


def test_serialised_state_continues_identically() -> None:
    spiel_game = cs.load("manitou", 3)
    state = spiel_game.new_initial_state()
    state.apply_action(11)
    rng = np.random.RandomState(0)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(spiel_game, state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy) == str(state)
    for _ in range(30):
        action = rng.choice(state.legal_actions())
        assert copy.legal_actions() == state.legal_actions()
        state.apply_action(action)
        copy.apply_action(action)
    assert str(copy) == str(state)
    for p in range(3):
        assert copy.observation_tensor(p) == state.observation_tensor(p)


def test_resampled_state_has_the_same_information_state() -> None:
    spiel_game = cs.load("tracker", 3)
    state = spiel_game.new_initial_state()
    state.apply_action(2)
    rng = np.random.RandomState(1)
    for _ in range(25):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    resample = cs.make_resampler(4)
    for _ in range(3):
        other = resample(state, player)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)


def test_the_information_state_string_has_perfect_recall() -> None:
    """OpenSpiel's information state: the seat's view and its history, not the observation."""
    state = cs.load("tracker", 2).new_initial_state()
    state.apply_action(0)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    for p in range(2):
        info = json.loads(state.information_state_string(p))
        assert info["history"] == [json.loads(e) for e in state.session.history(p)] != []
        assert info["view"] == json.loads(state.observation_string(p))["view"]


def test_options_reach_the_engine() -> None:
    spiel_game = cs.load("dudab", 4, use_jungle=True)
    state = spiel_game.new_initial_state()
    state.apply_action(0)
    view = json.loads(state.observation_string(0))["view"]
    assert view["use_jungle"] is True


def test_bad_options_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(OptionError, match="JSON object"):
        cs._config("tracker", {"options": "[1]"})
    with pytest.raises(ValueError, match="peek_count"):
        cs.load("tracker", 2, peek_count=99)
