"""Do the review's blunders lose games? The seat with more marked blunders should lose more often.

For each game, ``--games`` two-player games between ``easy`` bots (the games' heuristic bots with
noise: a rule of thumb that sometimes slips) are played from the declared evaluation seeds
(``--seed``, ``--seed + 1``, …), and each is reviewed in full (both seats) at ``--iterations``
per decision (default: the review's own, the hard level's). Among the games in which the two
seats made a different number of blunders and did not tie, the share in which **the seat with
more blunders lost** is counted, with its Wilson 95 % interval. The review's marks mean
something when the interval lies above one half ("clearly more often"); the same is printed for
blunders and inaccuracies counted together (marks).

    .venv/bin/python benchmarks/review_validity.py [GAME ...] [--games 200] [--seed 9000]
        [--iterations N] [--json FILE]

A line on stderr after each game says how far it is (a full run takes hours: docs/strength.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from review_speed import played

import campfire
from campfire.agents.review import review
from campfire.arena.stats import wilson_interval


def one_game(game: str, seed: int, iterations: int | None) -> dict[str, Any]:
    """Play and review one seeded game; each seat's blunders, inaccuracies and result."""
    table = played(game, 2, seed, bot_seed=seed * 2)
    outcome = table.match.state.outcome()
    result = review(table.match.record(), iterations=iterations, seed=seed)
    summary = result.summary()
    return {
        "seed": seed,
        "blunders": [s.blunders for s in summary],
        "inaccuracies": [s.inaccuracies for s in summary],
        "wins": list(outcome.win_shares()),
        "iterations": result.iterations,
    }


def tally(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    """Among games with different counts and no tie: how often the seat with more lost."""
    lost = counted = 0
    for row in rows:
        counts = (
            row[key]
            if key != "marks"
            else [b + i for b, i in zip(row["blunders"], row["inaccuracies"], strict=True)]
        )
        wins = row["wins"]
        if counts[0] == counts[1] or wins[0] == wins[1]:
            continue
        worse = 0 if counts[0] > counts[1] else 1
        counted += 1
        lost += wins[worse] < wins[1 - worse]
    low, high = wilson_interval(lost / counted if counted else 0.0, counted)
    return {
        "games": counted,
        "lost": lost,
        "share": round(lost / counted, 3) if counted else None,
        "interval": [round(low, 3), round(high, 3)],
        "clearly": low > 0.5,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement; print one line per game and kind of mark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (default: all)")
    parser.add_argument("--games", dest="count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=9000, help="the first evaluation seed")
    parser.add_argument("--iterations", type=int, default=None, help="per decision")
    parser.add_argument("--json", default=None, help="also write every game's counts here")
    args = parser.parse_args(argv)
    names = args.games or [g.name for g in campfire.all_games()]
    out: dict[str, Any] = {}
    for game in names:
        started = time.process_time()
        rows, spent = [], 0.0
        for i in range(args.count):
            rows.append(one_game(game, args.seed + i, args.iterations))
            spent = time.process_time() - started
            print(f"{game}: {i + 1} of {args.count} games, {spent:.0f} s CPU", file=sys.stderr)
        out[game] = {"rows": rows}
        for key in ("blunders", "marks"):
            found = tally(rows, key)
            out[game][key] = found
            low, high = found["interval"]
            print(
                f"{game:8} {key:9}: the seat with more lost {found['lost']} of {found['games']} "
                f"games ({found['share']}), 95 % interval {low:.3f}–{high:.3f}: "
                f"{'clearly more often' if found['clearly'] else 'not clear'} "
                f"[{args.count} games, {rows[0]['iterations']} iterations, {spent:.0f} s CPU]",
                flush=True,
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(out, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
