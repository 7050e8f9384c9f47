"""The Big Manitou heuristic bot: legal, deterministic, and sensible in simple spots."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

import pytest

from campfire.agents import make_agent
from campfire.core import Agent, Observation, OptionError
from campfire.core.table import Table
from campfire.games.manitou import GAME
from campfire.games.manitou.actions import ManitouAction
from campfire.games.manitou.bots import (
    HeuristicRules,
    ManitouHeuristic,
    _owned_counts,
    _view_grounds,
)
from campfire.games.manitou.cards import beat_table
from campfire.games.manitou.options import ManitouOptions
from campfire.games.manitou.types import ManitouView

from .helpers import evaluate, play_state, up


def _bot(seat: int, players: int, **options: object) -> ManitouHeuristic:
    return ManitouHeuristic(GAME, seat, players, GAME.options(options), seed=seat)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_plays_whole_games_deterministically(players: int) -> None:
    logs = []
    for _ in range(2):
        bots: list[Agent | None] = [_bot(s, players) for s in range(players)]
        table = Table(GAME, players, seed=players, agents=bots)
        outcome = table.run()
        logs.append(([str(a) for _, a in table.match.actions], outcome))
    assert logs[0] == logs[1]


def _play(
    specs: list[str], seed: int, agent_seeds: list[int] | None = None, **options: Any
) -> list[str]:
    """A whole game between agents named by ``specs``; its actions as ``seat:action``."""
    players = len(specs)
    seeds = agent_seeds if agent_seeds is not None else [seed * 10 + s for s in range(players)]
    agents: list[Agent | None] = [
        make_agent(spec, GAME, s, players, options, seed=seeds[s]) for s, spec in enumerate(specs)
    ]
    table = Table(GAME, players, options, seed=seed, agents=agents)
    table.run()
    return [f"{seat}:{action}" for seat, action in table.match.actions]


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {"hero_chart": "manitou_1997"}), (4, {}), (5, {})]
)
def test_noise_zero_decides_exactly_as_the_rules_of_thumb(
    players: int, options: dict[str, Any]
) -> None:
    """At every decision of whole seeded games ``noise=0`` plays the plain rule of thumb.

    The reference is :class:`HeuristicRules` read from the seat's view, as the bot played
    before it had the ``noise`` option; the agents' seeds do not matter.
    """
    opts = GAME.options(options)
    chart = beat_table(cast(ManitouOptions, opts).hero_chart)
    for game_seed in (players, 100 + players):
        bots = [
            make_agent("heuristic:noise=0", GAME, s, players, opts, seed=7 * s + 1)
            for s in range(players)
        ]
        rules = [HeuristicRules(s, chart) for s in range(players)]
        table = Table(GAME, players, opts, seed=game_seed, agents=list(bots))
        decisions = 0
        while not table.state.is_terminal():
            seat = table.agent_to_act()
            assert seat is not None
            obs = table.observation(seat)
            action = bots[seat].act(obs)
            legal = [a for a in obs.legal_actions if isinstance(a, ManitouAction)]
            if len(legal) > 1:
                view = cast(ManitouView, obs.view)
                owned = [_owned_counts(names) for names in view["tiles_owned"]]
                grounds = partial(_view_grounds, view)
                assert action == rules[seat].choose(legal, owned, grounds)
                decisions += 1
            table.play(seat, action)
        assert decisions > 20
        other_seeds = [1000 + s for s in range(players)]
        assert _play(["heuristic:noise=0"] * players, game_seed, other_seeds, **options) == _play(
            ["heuristic"] * players, game_seed, **options
        )


def test_noise_is_deterministic_given_the_seed_and_plays_differently() -> None:
    specs = ["heuristic:noise=0.3", "heuristic"]
    first = _play(specs, seed=11)
    assert first == _play(specs, seed=11)  # same seeds, same game
    assert first != _play(["heuristic", "heuristic"], seed=11)
    assert first != _play(specs, seed=11, agent_seeds=[5, 6])  # the agent's seed draws the slips
    assert _play(["heuristic:noise=1", "random"], seed=3) != _play(["heuristic", "random"], seed=3)


@pytest.mark.parametrize("noise", ["1.5", "-0.1"])
def test_noise_outside_zero_to_one_is_a_clear_error(noise: str) -> None:
    with pytest.raises(OptionError, match="noise is a probability from 0 to 1"):
        make_agent(f"heuristic:noise={noise}", GAME, 0, 2)


def test_difficulty_levels() -> None:
    for players in range(GAME.min_players, GAME.max_players + 1):  # the same at every count
        assert GAME.difficulty_levels(players) == {
            "easy": "heuristic:noise=0.3",
            "medium": "heuristic",
            "hard": "ismcts:iterations=250",
        }
    assert make_agent("easy", GAME, 0, 2).spec() == "heuristic:noise=0.3"
    assert make_agent("medium", GAME, 0, 2).spec() == "heuristic"
    assert make_agent("hard", GAME, 0, 2).spec() == "ismcts:iterations=250"


def test_heuristic_gives_the_thief_the_tile_that_costs_no_pair() -> None:
    owned = {0: ["tipi1", "tipi3", "buffalo1"]}
    state, _ = evaluate(2, [[up(0, "h9")], [], []], [[], [], []], owned=owned, holder=1)
    assert state.phase_name == "thief"
    action = _bot(0, 2).act(Observation(state, 0))
    assert str(action) == "lose tipi1"  # 3 tipis still pair the single buffalo


def test_heuristic_takes_the_tile_that_completes_pairs() -> None:
    table = [[up(0, "spy")], [], []]
    state, _ = evaluate(2, table, [["totem", "tipi2"], [], []], owned={0: ["buffalo2"]}, holder=1)
    assert state.phase_name == "take"
    assert str(_bot(0, 2).act(Observation(state, 0))) == "take tipi2"


def test_heuristic_plays_a_hero_that_wins_the_contest() -> None:
    state = play_state(
        2,
        1,
        {1: ["spy", "shaman", "h1"]},
        table=[[up(0, "chief")], [], []],
        grounds=[["tipi3"], [], []],
    )
    assert str(_bot(1, 2).act(Observation(state, 1))) == "play spy g1"
