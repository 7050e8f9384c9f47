"""The Big Manitou rollout model: it plays as the heuristic bot does, read from the state."""

from __future__ import annotations

import random
from typing import Any

import pytest

from campfire.agents import ISMCTSAgent, make_agent
from campfire.core import Observation
from campfire.games.manitou import GAME
from campfire.games.manitou.bots import ManitouHeuristic, points_table, tile_points
from campfire.games.manitou.cards import NUM_TILE_TYPES
from campfire.games.manitou.rollout import ManitouRollout


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (4, {"hero_chart": "manitou_1997"}), (5, {})],
)
def test_rollout_policy_chooses_what_the_heuristic_bot_chooses(
    players: int, options: dict[str, Any]
) -> None:
    """At every decision of a whole game the policy, reading the state, picks the bot's action."""
    opts = GAME.options(options)
    state = GAME.new_game(players, opts, seed=40 + players)
    bots = [ManitouHeuristic(GAME, s, players, opts, seed=s) for s in range(players)]
    policy = ManitouRollout()
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        bot = bots[seat]
        action = bot.act(Observation.of(state, seat, bot.belief, rng))
        assert policy.act(state, seat, rng) == action
        decisions += len(state.legal_actions(seat)) > 1
        events = state.apply(seat, action)
        for s, other in enumerate(bots):
            other.observe([e for e in events if e.to is None or s in e.to])
    assert decisions > 50  # picks, plays, takes and (with luck) horse moves and the thief


def test_search_with_the_policy_is_the_search_with_heuristic_rollouts() -> None:
    """``rollout=auto`` (the policy) and ``rollout=heuristic`` give the same tree, move by move."""
    state = GAME.new_game(3, seed=7)
    bots = [ManitouHeuristic(GAME, s, 3, GAME.options(), seed=s) for s in range(3)]
    rng = random.Random(1)
    searched = 0
    while not state.is_terminal() and searched < 4:
        seat = state.seats_to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 2 and str(legal[0]).startswith("play"):
            chosen = []
            for spec in ("ismcts:iterations=12", "ismcts:iterations=12,rollout=heuristic"):
                agent = make_agent(spec, GAME, seat, 3, seed=searched)
                assert isinstance(agent, ISMCTSAgent)
                chosen.append(
                    agent.act(Observation.of(state, seat, agent.belief, random.Random(2)))
                )
            assert chosen[0] == chosen[1]
            searched += 1
        bot = bots[seat]
        events = state.apply(seat, bot.act(Observation.of(state, seat, bot.belief, rng)))
        for s, other in enumerate(bots):
            other.observe([e for e in events if e.to is None or s in e.to])
    assert searched == 4


def test_points_table_is_tile_points_of_every_tile() -> None:
    rng = random.Random(3)
    for _ in range(200):
        owned = [rng.randrange(4) for _ in range(NUM_TILE_TYPES)]
        assert points_table(owned) == tuple(tile_points(owned, t) for t in range(NUM_TILE_TYPES))
        assert points_table(owned) is points_table(list(owned))  # memoised


def test_the_search_level_uses_the_fast_policy() -> None:
    levels = GAME.difficulty_levels(2)
    assert levels["hard"].startswith("ismcts:") and "rollout" not in levels["hard"]
    agent = make_agent(levels["hard"], GAME, 0, 2)
    assert isinstance(agent, ISMCTSAgent) and agent.config.rollout == "auto"
    assert isinstance(GAME.rollout_policy(0, agent.belief), ManitouRollout)
