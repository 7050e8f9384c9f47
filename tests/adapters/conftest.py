import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import campfire

GAMES = [g.name for g in campfire.all_games()]
GAME_PLAYERS = [
    (g.name, n) for g in campfire.all_games() for n in range(g.min_players, g.max_players + 1)
]
