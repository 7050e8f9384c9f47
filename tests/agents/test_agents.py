"""The agent protocol, the generic agents and the registry, on every registered game."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import campfire
from campfire.agents import LEVELS, ISMCTSAgent, make_agent, parse_agent_spec, reward_vector
from campfire.core import Agent, Game, Observation, OptionError, Outcome
from campfire.core.table import Table
from tests.games.tracker.helpers import new_state
from tests.games.tracker.helpers import play as play_steps

GAMES = campfire.all_games()


def play(game: Game[Any], agents: list[Agent], seed: int) -> Any:
    table = Table(game, len(agents), seed=seed, agents=list(agents))
    outcome = table.run()
    return outcome, [(seat, str(action)) for seat, action in table.match.actions]


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=2,max_rollout=10"])
def test_agents_play_legal_and_deterministic_games(game: Game[Any], spec: str) -> None:
    if spec == "heuristic" and "heuristic" not in game.agents():
        pytest.skip(f"{game.name} has no heuristic bot yet")
    players = game.min_players
    results = []
    for _ in range(2):
        agents = [make_agent(spec, game, s, players, seed=10 + s) for s in range(players)]
        results.append(play(game, agents, seed=3))
    assert results[0] == results[1]


def test_observation_hides_the_true_state() -> None:
    game = campfire.get_game("tracker")
    state = game.new_game(2, seed=1)
    obs = Observation(state, state.current_seat())
    sample = obs.sample(random.Random(0))
    assert sample is not state
    assert sample.view(obs.seat) == state.view(obs.seat)
    assert not hasattr(obs, "state")


def test_parse_agent_spec_and_errors() -> None:
    assert parse_agent_spec(" ISMCTS:iterations=5, rollout=heuristic ") == (
        "ismcts",
        {"iterations": "5", "rollout": "heuristic"},
    )
    game = campfire.get_game("tracker")
    with pytest.raises(OptionError, match="key=value"):
        parse_agent_spec("ismcts:iterations")
    with pytest.raises(OptionError, match="agent 'ismcts': unknown option 'depth'"):
        make_agent("ismcts:depth=3", game, 0, 2)
    with pytest.raises(OptionError, match="must be one of auto, random, policy, heuristic"):
        make_agent("ismcts:rollout=smart", game, 0, 2)
    with pytest.raises(OptionError, match="'iterations' must be an integer from 1"):
        make_agent("ismcts:iterations=0", game, 0, 2)
    with pytest.raises(OptionError, match="takes no parameters"):
        make_agent("hard:x=1", game, 0, 2)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_difficulty_levels_make_agents(game: Game[Any]) -> None:
    for players in range(game.min_players, game.max_players + 1):
        levels = game.difficulty_levels(players)
        assert set(levels) == set(LEVELS)
        for level in LEVELS:
            agent = make_agent(level, game, 0, players)
            assert isinstance(agent, Agent)
            # the level is its spec at this player count
            assert agent.spec() == make_agent(levels[level], game, 0, players).spec()


def test_reward_vector() -> None:
    outcome = Outcome.from_scores([1, 5, 5, 0])
    assert reward_vector(outcome, "win") == [0.0, 0.5, 0.5, 0.0]
    assert reward_vector(outcome, "rank") == [1 / 3, 1.0, 1.0, 0.0]
    assert reward_vector(outcome, "margin") == pytest.approx([0.1, 0.5, 0.5, 0.0])
    assert reward_vector(outcome, "mixed") == pytest.approx([1 / 12 + 0.025, 0.625, 0.625, 0.0])
    low = Outcome.from_scores([10, 4, 7], lower_is_better=True)
    assert reward_vector(low, "margin") == [0.0, 0.75, 0.25]


def test_reward_vector_with_a_margin_scale() -> None:
    """With a scale the margin keeps growing with the lead (two players: not just 0 or 1)."""
    close = reward_vector(Outcome.from_scores([10, 9]), "margin", scale=20)
    far = reward_vector(Outcome.from_scores([30, 9]), "margin", scale=20)
    assert 0.5 < close[0] < far[0] < 1.0
    assert close[0] + close[1] == pytest.approx(1.0)
    assert reward_vector(Outcome.from_scores([10, 9]), "margin") == [1.0, 0.0]
    low = reward_vector(Outcome.from_scores([10, 4], lower_is_better=True), "margin", scale=6)
    assert low[1] == pytest.approx(0.5 + 0.5 * math.tanh(1.0))
    assert reward_vector(Outcome.from_scores([3, 3]), "margin", scale=6) == [0.5, 0.5]


def test_ismcts_takes_an_obvious_win() -> None:
    """Tracker: with the last capture pending and remembered enemy scouts, it takes them."""
    game = campfire.get_game("tracker")
    state = new_state(("T0", "T1"), placements={0: "S-T1-1", 1: "S-T2-1"})
    play_steps(state, 0, "track 3", "done")  # A is out; B gets the final turns
    play_steps(state, 1, "decline", "track 3")
    agent = make_agent("ismcts:iterations=300", game, 1, 2, seed=1)
    assert isinstance(agent, ISMCTSAgent)
    agent.belief.remember(1, state.board[1])  # type: ignore[attr-defined]
    agent.belief.remember(0, state.board[0])  # type: ignore[attr-defined]
    action = agent.act(Observation(state, 1, agent.belief))
    assert str(action) == "take 1"  # the enemy scout S-T2-1, not its own S-T1-1


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=99999999999999999999999",
        "ismcts:iterations=0",
        "ismcts:seconds=1e9",
        "ismcts:max_rollout=0",
        "ismcts:exploration=-1",
    ],
)
def test_search_budgets_a_user_gives_are_bounded(spec: str) -> None:
    # issue 11: a huge budget from the command line must be refused, not run for ever
    with pytest.raises(OptionError, match="from"):
        make_agent(spec, campfire.get_game("tracker"), 0, 2)
