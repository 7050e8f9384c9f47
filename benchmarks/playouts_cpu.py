"""Random playouts in CPU time: the steadier twin of ``campfire bench`` on a loaded machine.

Plays ``--games`` seeded games as ``campfire bench`` does (``campfire.core.playout``'s
``random_playout``: at each step a random seat among those to act picks a uniformly random
legal action), ``--repeat`` times, and prints the best rate in actions per *CPU* second
(``time.process_time``) of this process. The same seeds give the same games every time, so two
builds of the code (pure Python and compiled, issue 32) can be compared on exactly the same
work. ``--python-loop`` plays the same games with the loop written out here, interpreted in
either build: the engine's share of the speed-up without the loop's.

    .venv/bin/python benchmarks/playouts_cpu.py GAME [--games 200] [--repeat 3] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import time

import campfire
from campfire.core.playout import random_playout


def playouts(game: str, games: int, players: int, python_loop: bool = False) -> tuple[int, float]:
    """Play ``games`` seeded random games; return (actions, CPU seconds)."""
    spec = campfire.get_game(game)
    rng = random.Random(0)
    actions = 0
    start = time.process_time()
    for seed in range(games):
        state = spec.new_game(players, seed=seed)
        if not python_loop:
            actions += random_playout(state, rng)
            continue
        while not state.is_terminal():  # random_playout's loop, interpreted
            seats = state.seats_to_act()
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            actions += 1
    return actions, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--python-loop",
        action="store_true",
        help="the playout loop interpreted here, not campfire.core.playout's (compiled)",
    )
    args = parser.parse_args()
    best = 0.0
    actions = 0
    for _ in range(args.repeat):
        actions, cpu = playouts(args.game, args.games, args.players, args.python_loop)
        best = max(best, actions / cpu if cpu > 0 else 0.0)
    print(f"{args.game}: {best:,.0f} actions per CPU second ({actions} actions a run)")


if __name__ == "__main__":
    main()
