"""The batch's time per step beside the engine's, interleaved, best of several rounds.

Issue 32's item 4 asks for ``VectorGames`` at 0.5× the raw engine's steps per second with 64
games per call. On a noisy shared machine one run of each says little (the same run scatters
by a third), so this runs, round after round, one process each for the engine's own
random-playout loop (``adapters_bench.engine_rate``: ``legal_actions``, a random choice,
``apply``) and for the batch's loop (``vector_rate.rate``: ``random_actions`` on the masks,
``step``) of every source tree given, and keeps each one's best and median time per step. A
tree is a ``src`` folder (``PYTHONPATH``), so a worktree of an older commit, compiled there,
is compared with this one in the same rounds::

    .venv/bin/python benchmarks/vector_vs_engine.py dudab --rounds 12
    .venv/bin/python benchmarks/vector_vs_engine.py dudab --rounds 12 --tree old=/tmp/base/src

Each process says whether it ran compiled or pure Python; a tree whose compiled build is
stale runs pure Python (``docs/compiled.md``), which the report shows.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_BENCHMARKS = Path(__file__).resolve().parent
_SRC = _BENCHMARKS.parent / "src"

#: what one process runs: ``GAME WHAT STEPS PLAYERS ENVS BENCHMARKS`` → its µs per step and
#: whether it ran compiled; the loops are this tree's (``adapters_bench.engine_rate``,
#: ``vector_rate.rate``), the campfire they measure the one on ``PYTHONPATH``
_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[6])
import campfire.adapters.batch
from adapters_bench import engine_rate
from vector_rate import rate
game, what, steps, players, envs = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
if what == "engine":
    per_second = engine_rate(game, players, steps)
else:
    per_second = rate(game, steps, envs, players)
print(json.dumps([1e6 / per_second, campfire.adapters.batch.__file__.endswith(".so")]))
"""


def one_run(
    src: str, game: str, what: str, steps: int, players: int, envs: int
) -> tuple[float, bool]:
    """µs per step of one process (``what``: ``engine`` or ``vector``) on tree ``src``."""
    env = dict(os.environ, PYTHONPATH=src)
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, game, what, *map(str, (steps, players, envs)), _BENCHMARKS],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} on {src} failed:\n{done.stderr.strip()}")
    micros, compiled = json.loads(done.stdout.splitlines()[-1])
    return float(micros), bool(compiled)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--rounds", type=int, default=12, help="rounds (default 12)")
    parser.add_argument("--steps", type=int, default=96_000, help="steps a run (default 96000)")
    parser.add_argument("--players", type=int, default=2, help="players (default 2)")
    parser.add_argument("--envs", type=int, default=64, help="games per batch (default 64)")
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="NAME=SRC",
        help="another source tree's batch, run in the same rounds (repeatable)",
    )
    args = parser.parse_args()
    if args.rounds < 1 or args.steps < 1 or args.envs < 1:
        parser.error("--rounds, --steps and --envs must be at least 1")
    trees = {"this": str(_SRC)}
    for item in args.tree:
        name, sep, src = item.partition("=")
        if not sep or not name or not Path(src, "campfire").is_dir():
            parser.error(f"--tree takes NAME=SRC, SRC a folder holding campfire (got {item!r})")
        trees[name] = src
    runs: dict[str, list[float]] = {name: [] for name in ("engine", *trees)}
    builds: dict[str, set[bool]] = {name: set() for name in runs}
    for done in range(args.rounds):
        for name, src in [("engine", str(_SRC)), *trees.items()]:
            what = "engine" if name == "engine" else "vector"
            micros, compiled = one_run(src, args.game, what, args.steps, args.players, args.envs)
            runs[name].append(micros)
            builds[name].add(compiled)
        print(f"round {done + 1} of {args.rounds}", file=sys.stderr, flush=True)
    engine = min(runs["engine"])
    print(
        f"{args.game}, {args.players} players, N = {args.envs}, {args.steps:,} steps a run, "
        f"best and median of {args.rounds} interleaved rounds (µs per step)"
    )
    for name, values in runs.items():
        build = "/".join(sorted("compiled" if c else "pure" for c in builds[name]))
        line = (
            f"  {name:8s} best {min(values):6.2f}  median {statistics.median(values):6.2f}  {build}"
        )
        if name != "engine":
            line += f"  batch ÷ engine (best): {engine / min(values):.3f}"
        print(line)


if __name__ == "__main__":
    main()
