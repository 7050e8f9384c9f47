"""Game.random_state makes the very state of from_setup(random_setup(...)), in every game.

A game may build its random initial state directly (without writing the setup out and reading
it back); this compares each game's with the default's, generators included: the positions
are equal, and the same random actions from both give equal positions again.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from campfire import all_games
from campfire.core import Game, State
from campfire.core.playout import random_playout
from campfire.core.rng import GameRng

#: per game, option sets beside the defaults (the ones that change what the setup draws)
_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "apache": [{"claim_order": "arrival"}, {"claim_order": "reaction"}],
    "dudab": [{"use_jungle": True, "use_baby": True}, {"start_player": 1}],
    "manitou": [{"leftover_tiles": "bag", "tiles_per_ground": 3}, {"draw_cards": True}],
}


def _cases() -> list[tuple[Game[Any], int, dict[str, Any]]]:
    cases = []
    for game in all_games():
        for players in range(game.min_players, game.max_players + 1):
            for options in [{}, *_OPTIONS.get(game.name, [])]:
                cases.append((game, players, options))
    return cases


def _default(game: Game[Any], players: int, opts: Any, seed: int) -> State:
    setup = game.random_setup(players, opts, GameRng(seed))
    state: State = game.from_setup(players, opts, setup, game.play_rng(seed))
    return state


@pytest.mark.parametrize(
    ("game", "players", "options"),
    _cases(),
    ids=lambda v: getattr(v, "name", None) or (str(v) if v != {} else "defaults"),
)
def test_random_state_is_the_setups_state(
    game: Game[Any], players: int, options: dict[str, Any]
) -> None:
    opts = game.options(options)
    for seed in range(8):
        direct = game.random_state(players, opts, GameRng(seed), game.play_rng(seed))
        default = _default(game, players, opts, seed)
        assert direct.position_equal(default), (game.name, players, options, seed)
        assert game.new_game(players, options, seed=seed).position_equal(default)
    # the generators too: the same random game follows from both (a few seeds, whole games)
    for seed in range(2):
        direct = game.random_state(players, opts, GameRng(seed), game.play_rng(seed))
        default = _default(game, players, opts, seed)
        assert random_playout(direct, random.Random(seed)) == random_playout(
            default, random.Random(seed)
        )
        assert direct.position_equal(default)
