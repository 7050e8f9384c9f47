"""Search speed: CPU seconds per decision of every level, and ISMCTS iterations per second.

For each game a seeded game between heuristic bots (``--players``, two by default) is played,
and at ``--positions`` of its decisions with a choice (spread over the game) each level's agent
is asked to decide from the same observation. The time is *CPU time* of this process
(``time.process_time``), which depends far less than wall-clock time on what else the machine
runs (though not only on this code: compare figures side by side); a level is within the
budget of ``docs/strength.md`` when its mean is at most 0.5 s. For an ISMCTS level the
iterations it ran (its fixed budget), for Apache's search bot its samples
(``last_iterations``: 0 at a decision it did not search), divided by that time give the
iterations per second. The decisions that ran a search (``last_iterations`` above 0: every
ISMCTS decision, only some of Apache's) get their own mean and longest CPU time.

    .venv/bin/python benchmarks/search_speed.py [GAME ...] [--positions 12] [--seed 1]
        [--levels easy,medium,hard] [--players 2]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from typing import Any

import campfire
from campfire.agents import make_agent
from campfire.core import Agent, Observation, State


def positions(game: str, count: int, seed: int, players: int = 2) -> list[tuple[State, int]]:
    """``count`` decisions with a choice of a seeded heuristic game: (state copy, seat)."""
    spec = campfire.get_game(game)
    state = spec.new_game(players, seed=seed)
    bots = [make_agent("heuristic", spec, s, players, seed=seed + s) for s in range(players)]
    found: list[tuple[State, int]] = []
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        bot = bots[seat]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            found.append((state.clone(), seat))
        obs = Observation.of(state, seat, bot.belief, rng)
        events = state.apply(seat, bot.act(obs))
        for s, other in enumerate(bots):
            other.observe([e for e in events if e.to is None or s in e.to])
    if len(found) <= count:
        return found
    step = len(found) / count
    return [found[int(i * step)] for i in range(count)]


def measure(game: str, level: str, points: Sequence[tuple[State, int]]) -> dict[str, Any]:
    """Mean CPU seconds per decision of ``level`` at ``points`` (and its iterations per second)."""
    spec = campfire.get_game(game)
    players = points[0][0].num_players if points else 2
    cpu = 0.0
    iterations = 0
    searched: list[float] = []  # CPU seconds of the decisions that ran a search
    rng = random.Random(0)
    for i, (state, seat) in enumerate(points):
        agent: Agent = make_agent(level, spec, seat, state.num_players, seed=i)
        obs = Observation.of(state, seat, agent.belief, rng)
        start = time.process_time()
        agent.act(obs)
        spent = time.process_time() - start
        cpu += spent
        ran = getattr(agent, "last_iterations", 0)
        iterations += ran
        if ran:
            searched.append(spent)
    mean = cpu / max(1, len(points))
    return {
        "game": game,
        "level": level,
        "agent": spec.difficulty_levels(players).get(level, level),
        "decisions": len(points),
        "cpu_s_per_decision": mean,
        "iterations_per_s": iterations / cpu if iterations and cpu > 0 else None,
        "searched": len(searched),
        "cpu_s_per_search": sum(searched) / len(searched) if searched else None,
        "longest_search_s": max(searched, default=None),
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Print one line per game and level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=[g.name for g in campfire.all_games()])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--players", type=int, default=2, help="players of the seeded games")
    args = parser.parse_args(argv)
    print(
        "| game | level | agent | decisions | CPU s/decision | iterations/s "
        "| searched | CPU s/search (longest) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for game in args.games:
        points = positions(game, args.positions, args.seed, args.players)
        for level in args.levels.split(","):
            row = measure(game, level.strip(), points)
            ips = row["iterations_per_s"]
            per_search = row["cpu_s_per_search"]
            search = (
                "" if per_search is None else f"{per_search:.3f} ({row['longest_search_s']:.3f})"
            )
            print(
                f"| {game} | {row['level']} | `{row['agent']}` | {row['decisions']} | "
                f"{row['cpu_s_per_decision']:.3f} | {'' if ips is None else f'{ips:,.0f}'} | "
                f"{row['searched']} | {search} |"
            )


if __name__ == "__main__":
    main()
