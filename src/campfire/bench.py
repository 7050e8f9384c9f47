"""Throughput benchmark: random games played in one process (``campfire bench``).

>>> from campfire import all_games
>>> game = all_games()[0]
>>> result = bench_game(game, seconds=0.05, runs=1)
>>> result.game == game.name, result.actions > 0
(True, True)
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import asdict, dataclass
from typing import Any

from .core import Game
from .core.playout import random_playout

__all__ = ["BenchResult", "bench_game", "default_players"]


@dataclass(frozen=True)
class BenchResult:
    """Figures of one game's benchmark: medians over the runs."""

    game: str
    players: int
    runs: int
    seconds: float
    actions: int
    games: int
    actions_per_second: float
    games_per_second: float
    actions_per_game: float

    def to_json(self) -> dict[str, Any]:
        """Return the figures as a JSON-ready dict."""
        return asdict(self)


def default_players(game: Game[Any]) -> int:
    """The player count benchmarked by default: 4, or the nearest count the game allows."""
    return min(max(4, game.min_players), game.max_players)


def bench_game(
    game: Game[Any],
    seconds: float = 2.0,
    *,
    players: int | None = None,
    runs: int = 5,
    seed: int = 0,
) -> BenchResult:
    """Play random games for ``seconds`` in total, split into ``runs`` runs; report medians.

    Each run plays whole games (the last one is finished even if the run's time is up) with a
    uniformly random legal action for a random seat to act
    (:func:`~campfire.core.playout.random_playout`).
    """
    n = players if players is not None else default_players(game)
    game.check_players(n)
    per_run = seconds / runs
    rng = random.Random(seed)
    rates: list[float] = []
    game_rates: list[float] = []
    total_actions = total_games = 0
    game_seed = seed
    for _ in range(runs):
        actions = games = 0
        start = time.perf_counter()
        deadline = start + per_run
        while True:
            actions += random_playout(game.new_game(n, seed=game_seed), rng)
            game_seed += 1
            games += 1
            if time.perf_counter() >= deadline:
                break
        elapsed = time.perf_counter() - start
        rates.append(actions / elapsed)
        game_rates.append(games / elapsed)
        total_actions += actions
        total_games += games
    return BenchResult(
        game=game.name,
        players=n,
        runs=runs,
        seconds=seconds,
        actions=total_actions,
        games=total_games,
        actions_per_second=statistics.median(rates),
        games_per_second=statistics.median(game_rates),
        actions_per_game=total_actions / total_games,
    )
