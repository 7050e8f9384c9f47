"""CPU time of a presenter's display models: every seat and the spectator at every step.

The server builds one display model per seat and language at every step of a table
(``benchmarks/README.md``, "Server load"). This plays ``--games`` random games of ``--game``
at ``--players`` (seeded: the same games every run) and, at every step, times
``presenter.display`` for every seat and the spectator, in English, Hungarian and Czech in
turn, as the server would; the states, views and legal actions are made outside the timing.
It reports the mean process CPU time per display. Run it on the code before and after a change
(``PYTHONPATH=other/src`` runs another checkout's package), alternating, on the same machine.

    .venv/bin/python benchmarks/present_speed.py --game manitou --players 4 --games 6
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from campfire.core import get
from campfire.server.protocol import speaking


def run(game_name: str, players: int, games: int, seed: int, max_steps: int) -> dict[str, Any]:
    """Play the games; the displays made and the mean CPU microseconds per display."""
    game = get(game_name)
    presenter = game.presenter()
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    cpu = 0.0
    made = 0
    for g in range(games):
        state = game.new_game(players, seed=seed + g)
        steps = 0
        while not state.is_terminal() and steps < max_steps:
            language = ("en", "hu", "cs")[steps % 3]
            items = []
            for seat in [*range(players), None]:
                acting = seat is not None and seat in state.seats_to_act()
                items.append((state.view(seat), state.legal_actions(seat) if acting else []))
            with speaking(language):
                start = time.process_time()
                for view, legal in items:
                    presenter.display(view, legal, names)
                cpu += time.process_time() - start
            made += len(items)
            mover = rng.choice(list(state.seats_to_act()))
            state.apply(mover, rng.choice(state.legal_actions(mover)))
            steps += 1
    return {
        "game": game_name,
        "players": players,
        "games": games,
        "displays": made,
        "us_per_display": 1e6 * cpu / max(1, made),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="tracker", help="the game (tracker)")
    p.add_argument("--players", type=int, default=4, help="seats (4)")
    p.add_argument("--games", type=int, default=6, help="random games (6)")
    p.add_argument("--seed", type=int, default=100, help="seed of the games and moves (100)")
    p.add_argument("--max-steps", type=int, default=400, help="steps per game at most (400)")
    args = p.parse_args(argv)
    r = run(args.game, args.players, args.games, args.seed, args.max_steps)
    print(
        f"{r['game']}, {r['players']} players, {r['games']} games: {r['displays']} displays, "
        f"{r['us_per_display']:.0f} µs CPU per display"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
