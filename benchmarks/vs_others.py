"""Random playouts side by side: Campfire (compiled and pure) beside OpenSpiel and RLCard.

Each row is a game's random playouts in **actions per CPU second** (``time.process_time``), the
best of ``--rounds`` interleaved rounds (each round runs every row once, in order), on the same
kind of loop everywhere: at each decision a uniformly random legal action, from
``random.Random(0)``, applied; the deal is part of the time, not of the count.

- Campfire: ``benchmarks/playouts_cpu.py --python-loop`` in a subprocess (``campfire bench``'s
  loop written out in Python, as for the others: ``campfire bench`` itself runs a compiled
  loop in the compiled build), once with the compiled extensions where ``make compiled``
  built them and once with ``CAMPFIRE_PURE_PYTHON=1``;
- OpenSpiel's C++ card games through ``pyspiel`` (the ``rl`` extra installs it): chance nodes
  (the deal) are sampled by their probabilities and not counted;
- RLCard's Uno: its game engine without the environment's observations (``Game.step`` with a
  random legal action), and its environment (``env.step``, which also encodes the next
  player's observation), where RLCard is importable (``pip install rlcard``, or ``pip install
  --no-deps --target DIR rlcard termcolor`` and ``PYTHONPATH=DIR``); skipped otherwise.

    .venv/bin/python benchmarks/vs_others.py [--rounds 3] [--games 60] [--players 4]
        [--openspiel hearts,gin_rummy,crazy_eights,euchre] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import campfire

HERE = Path(__file__).resolve().parent
#: OpenSpiel's card games measured by default (C++, each at its default number of players)
OPENSPIEL_GAMES = ("hearts", "gin_rummy", "crazy_eights", "euchre")


def campfire_rate(game: str, games: int, players: int, pure: bool) -> float:
    """Campfire's random playouts of ``game`` in a subprocess: actions per CPU second."""
    env = dict(os.environ, CAMPFIRE_PURE_PYTHON="1" if pure else "0")
    command = [sys.executable, str(HERE / "playouts_cpu.py"), game]
    command += ["--games", str(games), "--repeat", "1", "--players", str(players)]
    command += ["--python-loop"]  # the same interpreted loop as every other engine's
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    found = re.search(r": ([0-9,]+) actions per CPU second", out)
    if found is None:
        raise RuntimeError(f"unexpected output of playouts_cpu.py: {out!r}")
    return float(found.group(1).replace(",", ""))


def openspiel_rate(name: str, games: int) -> tuple[float, int]:
    """OpenSpiel's ``name`` (C++): player actions per CPU second, and its number of players."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    spent = time.process_time() - start
    return actions / spent if spent > 0 else 0.0, int(game.num_players())


def rlcard_rate(games: int, players: int) -> float | None:
    """RLCard's Uno engine: actions per CPU second (``None``: RLCard is not installed)."""
    try:
        module = importlib.import_module("rlcard.games.uno.game")
    except ImportError:
        return None
    game = module.UnoGame(num_players=players)
    game.np_random.seed(0)
    rng = random.Random(0)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            actions += 1
    spent = time.process_time() - start
    return actions / spent if spent > 0 else 0.0


def rlcard_env_rate(games: int, players: int) -> float | None:
    """RLCard's Uno environment (each step builds the next player's observation): actions per
    CPU second (``None``: RLCard is not installed)."""
    try:
        rlcard = importlib.import_module("rlcard")
    except ImportError:
        return None
    env = rlcard.make("uno", config={"game_num_players": players, "seed": 0})
    rng = random.Random(0)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        state, _player = env.reset()
        while not env.is_over():
            state, _player = env.step(rng.choice(sorted(state["legal_actions"])))
            actions += 1
    spent = time.process_time() - start
    return actions / spent if spent > 0 else 0.0


def measure(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every row's best rate over the rounds (``args`` as :func:`main` reads them)."""
    names = [g.name for g in campfire.all_games()]
    jobs: list[tuple[str, str, Callable[[], tuple[float | None, int]]]] = []
    for game in names:
        for pure in (False, True):
            build = "Campfire, pure Python" if pure else "Campfire, compiled"

            def ours(game: str = game, pure: bool = pure) -> tuple[float | None, int]:
                return campfire_rate(game, args.games, args.players, pure), args.players

            jobs.append((game, build, ours))
    for name in args.openspiel.split(",") if args.openspiel else ():

        def theirs(name: str = name) -> tuple[float | None, int]:
            return openspiel_rate(name, args.games)

        jobs.append((name, "OpenSpiel (C++)", theirs))
    jobs.append(("uno", "RLCard (Python), the game", lambda: (rlcard_rate(args.games, 4), 4)))
    jobs.append(
        ("uno", "RLCard (Python), the environment", lambda: (rlcard_env_rate(args.games, 4), 4))
    )
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for round_ in range(args.rounds):
        for game, engine, run in jobs:
            rate, players = run()
            row = best.setdefault(
                (game, engine), {"game": game, "engine": engine, "players": players, "rate": None}
            )
            if rate is not None and (row["rate"] is None or rate > row["rate"]):
                row["rate"] = rate
            print(f"round {round_ + 1}: {game} ({engine}): {rate}", file=sys.stderr, flush=True)
    return list(best.values())


def main() -> int:
    """Measure and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (3)")
    parser.add_argument("--games", type=int, default=60, help="seeded games a run (60)")
    parser.add_argument("--players", type=int, default=4, help="Campfire's players (4)")
    parser.add_argument(
        "--openspiel",
        default=",".join(OPENSPIEL_GAMES),
        help="OpenSpiel games, comma-separated ('' for none)",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games are at least 1")
    rows = measure(args)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| game | engine | players | actions per CPU s |")
    print("|---|---|---|---|")
    for row in rows:
        rate = "not installed" if row["rate"] is None else f"{row['rate']:,.0f}"
        print(f"| {row['game']} | {row['engine']} | {row['players']} | {rate} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
