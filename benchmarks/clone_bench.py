"""Clone micro-benchmark: microseconds per ``state.clone()`` on a mid-game state of each game.

ISMCTS clones a state for every determinisation and rollout, so the speed of ``clone`` matters
as much as that of ``apply``. Each game is played with seeded random actions to about half of a
typical game (4 players), then ``state.clone()`` is timed with :mod:`timeit` in CPU time; the
figure is the best of ``--repeat`` repeats.

    .venv/bin/python benchmarks/clone_bench.py [GAME ...] [--number 20000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

import campfire
from campfire.core import State


def mid_game(name: str, players: int = 4, seed: int = 1) -> State:
    """A state about half-way through a seeded random game of ``name``."""
    game = campfire.get_game(name)
    rng = random.Random(seed)
    full = game.new_game(players, seed=seed)
    length = 0
    while not full.is_terminal():
        seat = rng.choice(full.seats_to_act())
        full.apply(seat, rng.choice(full.legal_actions(seat)))
        length += 1
    rng = random.Random(seed)
    state: State = game.new_game(players, seed=seed)
    for _ in range(length // 2):
        seat = rng.choice(state.seats_to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def main() -> None:
    """Print µs per clone for each game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=[g.name for g in campfire.all_games()])
    parser.add_argument("--number", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    for name in args.games:
        state = mid_game(name)
        timer = timeit.Timer(state.clone, timer=time.process_time)
        best = min(timer.repeat(repeat=args.repeat, number=args.number)) / args.number
        print(f"{name:8} {best * 1e6:6.2f} µs per clone")


if __name__ == "__main__":
    main()
