"""Review and hint speed: CPU seconds of a full post-game review, and of one hint.

For each game and player count (2 and 4 by default) a seeded game between ``easy`` bots is
played, then reviewed in full (every seat, every decision with a choice) by
:func:`campfire.agents.review.review` at the game's review iterations (those of its ``hard``
level, or ``--iterations``). The time is CPU time of this process (``time.process_time``),
which depends far less than wall-clock time on what else the machine runs; the wall time is
printed too. The budget (``docs/learn.md``): a 2-player review within 120 s, a 4-player one
within 300 s.

Hints: at ``--hints`` decisions with a choice of each game (spread over it), one hint
(:func:`campfire.agents.review.hint`, the hard level's search at its own iterations, no time
cap) is timed, from the record of the game so far, so the time includes rebuilding the seat's
memory. The budget is 1 s; the server caps a hint's search at 0.8 s besides.

    .venv/bin/python benchmarks/review_speed.py [GAME ...] [--players 2,4] [--seed 7]
        [--iterations N] [--hints 5] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

import campfire
from campfire.agents import make_agent
from campfire.agents.review import hint, review, review_iterations
from campfire.core.records import Record
from campfire.core.table import Table

#: the budget of a full review, in CPU seconds, by player count (docs/learn.md)
BUDGET = {2: 120.0, 4: 300.0}
#: the budget of a hint, in seconds
HINT_BUDGET = 1.0


def played(game: str, players: int, seed: int, bot_seed: int | None = None) -> Table:
    """A finished seeded game between ``easy`` bots (seat ``s``'s bot seeded ``bot_seed + s``).

    ``bot_seed`` defaults to the game's ``seed``; ``review_validity.py`` plays the same way.
    """
    spec = campfire.get_game(game)
    first = seed if bot_seed is None else bot_seed
    bots = [make_agent("easy", spec, s, players, seed=first + s) for s in range(players)]
    table = Table(spec, players, seed=seed, agents=bots)
    table.run()
    return table


def time_review(game: str, players: int, seed: int, iterations: int | None) -> dict[str, Any]:
    """Review one seeded game in full; its figures."""
    record = played(game, players, seed).match.record()
    spec = campfire.get_game(game)
    its = iterations if iterations is not None else review_iterations(spec, players)
    cpu, wall = time.process_time(), time.perf_counter()
    result = review(record, iterations=its, seed=seed)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {
        "game": game,
        "players": players,
        "iterations": its,
        "actions": len(record.actions),
        "decisions": len(result.decisions),
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
        "budget_s": BUDGET.get(players, 300.0),
        "within": cpu <= BUDGET.get(players, 300.0),
    }


def time_hints(game: str, players: int, seed: int, count: int) -> dict[str, Any]:
    """Time ``count`` hints spread over a seeded game; mean and longest CPU seconds."""
    table = played(game, players, seed)
    full = table.match.record()
    spec = campfire.get_game(game)
    state = spec.new_game(players, full.options, seed=full.seed)
    points: list[tuple[int, int]] = []
    for index, (seat, text) in enumerate(full.actions):
        if len(state.legal_actions(seat)) > 1:
            points.append((index, seat))
        state.apply(seat, spec.canonical_action(text))
    if len(points) > count:
        step = len(points) / count
        points = [points[int(i * step)] for i in range(count)]
    times = []
    for index, seat in points:
        prefix = Record(
            full.game, full.players, full.options, full.seed, full.setup, full.actions[:index]
        )
        cpu = time.process_time()
        hint(prefix, seat, seed=seed)
        times.append(time.process_time() - cpu)
    return {
        "game": game,
        "players": players,
        "hints": len(times),
        "mean_s": round(sum(times) / len(times), 3) if times else 0.0,
        "max_s": round(max(times), 3) if times else 0.0,
        "within": bool(times) and max(times) <= HINT_BUDGET,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print one line per game and player count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=None, help="per decision")
    parser.add_argument("--hints", type=int, default=5, help="hints timed per game (0: none)")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    games = args.games or [g.name for g in campfire.all_games()]
    counts = [int(p) for p in args.players.split(",")]
    rows: list[dict[str, Any]] = []
    for game in games:
        for players in counts:
            row = time_review(game, players, args.seed, args.iterations)
            rows.append(row)
            print(
                f"review {game:8} {players}p: {row['decisions']:4} decisions at "
                f"{row['iterations']:5} iterations, {row['cpu_s']:7.1f} s CPU "
                f"({row['wall_s']:.1f} s wall), budget {row['budget_s']:.0f} s: "
                f"{'ok' if row['within'] else 'OVER'}",
                flush=True,
            )
        if args.hints:
            row = time_hints(game, counts[0], args.seed, args.hints)
            rows.append(row)
            print(
                f"hint   {game:8} {row['players']}p: {row['hints']} hints, mean "
                f"{row['mean_s']:.3f} s, longest {row['max_s']:.3f} s CPU: "
                f"{'ok' if row['within'] else 'OVER'}",
                flush=True,
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
