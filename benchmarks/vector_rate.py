"""The batch's steps per CPU second, alone: one game, one batch size, one number.

For interleaved comparisons of two source trees (``PYTHONPATH=<tree>/src``), compiled or pure
(``CAMPFIRE_PURE_PYTHON``), where ``adapters_bench.py --vector`` would also measure the engine,
the Session and the AEC environment. The loop is ``adapters_bench.vector_rate``'s (a random
legal action per game drawn from the masks with ``campfire.adapters.vector.random_actions``;
until 2026-12-06 a uniform ``float64`` score per action, masked, its argmax, which the figures
of ``benchmarks/README.md`` before "Memories compiled, counted parts" used), timed with
``time.process_time``::

    .venv/bin/python benchmarks/vector_rate.py tracker --steps 192000 --envs 64 --players 2
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from campfire.adapters.vector import VectorGames, random_actions
from campfire.core.errors import CampfireError


def rate(game: str, steps: int, envs: int, players: int) -> float:
    """Steps per CPU second of ``VectorGames(game, envs, players, seed=0)`` over ``steps``."""
    games = VectorGames(game, envs, players, seed=0)
    batch = games.reset()
    draw = np.random.default_rng(0)
    done = 0
    started = time.process_time()
    while done < steps:
        batch = games.step(random_actions(batch.action_masks, draw))
        done += envs
    return done / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--steps", type=int, default=192_000, help="steps in all (default 192000)")
    parser.add_argument("--envs", type=int, default=64, help="games per batch (default 64)")
    parser.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    args = parser.parse_args()
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    try:
        value = rate(args.game, args.steps, args.envs, args.players)
    except CampfireError as exc:  # an unknown game, a player count or batch size it refuses
        parser.error(str(exc))
    print(f"{args.game} {args.players}p N={args.envs}: {value:,.0f} steps per CPU second")


if __name__ == "__main__":
    main()
