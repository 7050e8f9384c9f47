"""The Big Manitou heuristic bot: legal, deterministic, and sensible in simple spots."""

from __future__ import annotations

import pytest

from campfire.core import Agent, Observation
from campfire.core.table import Table
from campfire.games.manitou import GAME
from campfire.games.manitou.bots import ManitouHeuristic

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
