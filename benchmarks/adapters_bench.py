"""Adapter throughput: raw engine, Session, PettingZoo environments, PettingZoo's card games.

    .venv/bin/python benchmarks/adapters_bench.py [--seconds 3] [--players 2] [--pz-benchmark]

Every figure is random play in one process, measured side by side in one run:

* ``engine``: ``legal_actions`` + ``apply`` of a uniformly random action (like ``campfire
  bench``, seat = the adapter's seat to act);
* ``session``: the same through :class:`campfire.adapters.session.Session` (action indices,
  memories told the events), no observation;
* ``pettingzoo``: our AEC environment, stepped like ``pettingzoo.test.performance_benchmark``:
  ``env.last()`` (observation and mask) and a random legal action from the mask, every step;
* PettingZoo's classic card environments (``texas_holdem_v4``, ``texas_holdem_no_limit_v6``,
  ``leduc_holdem_v4``; they need ``rlcard`` and ``pygame``) with the same loop, when installed.

``--pz-benchmark`` also runs PettingZoo's own ``performance_benchmark`` (5 s per environment)
and reports its turns per second.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import campfire
from campfire.adapters.pettingzoo import env as campfire_env
from campfire.adapters.session import Session


def _timed(step: Callable[[], int], seconds: float) -> float:
    """Call ``step`` (which returns how many actions it made) for ``seconds``; actions/s."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += step()
    return done / elapsed


def engine_rate(game: str, players: int, seconds: float) -> float:
    spec = campfire.get_game(game)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one_game() -> int:
        state = spec.new_game(players, seed=next(seeds))
        n = 0
        while not state.is_terminal():
            seat = min(state.seats_to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            n += 1
        return n

    return _timed(one_game, seconds)


def session_rate(game: str, players: int, seconds: float) -> float:
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one_game() -> int:
        session = Session(game, players, seed=next(seeds))
        while (seat := session.current_seat()) is not None:
            session.apply(seat, rng.choice(session.legal(seat)))
        return session.moves

    return _timed(one_game, seconds)


def aec_rate(make: Callable[[], Any], seconds: float) -> float:
    """Steps per second of an AEC environment, stepped like PettingZoo's benchmark."""
    env = make()
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def one_game() -> int:
        env.reset(seed=next(seeds))
        n = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
                n += 1
            env.step(action)
        return n

    return _timed(one_game, seconds)


def pz_benchmark(make: Callable[[], Any]) -> float:
    from pettingzoo.test import performance_benchmark

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(make())
    match = re.search(r"([\d.]+) turns per second", out.getvalue())
    return float(match.group(1)) if match else float("nan")


def classic_envs() -> dict[str, Callable[[], Any]]:
    found: dict[str, Callable[[], Any]] = {}
    for name in ("texas_holdem_v4", "texas_holdem_no_limit_v6", "leduc_holdem_v4"):
        try:
            module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError as exc:  # rlcard or pygame missing
            print(f"# {name} skipped: {exc}")
            continue
        found[name] = module.env
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description="adapter throughput, side by side")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--pz-benchmark", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rows: list[dict[str, Any]] = []
    for game in (g.name for g in campfire.all_games()):
        n = args.players
        row: dict[str, Any] = {
            "env": f"campfire {game}",
            "players": n,
            "engine": engine_rate(game, n, args.seconds),
            "session": session_rate(game, n, args.seconds),
            "pettingzoo": aec_rate(lambda g=game, n=n: campfire_env(g, players=n), args.seconds),
        }
        row["overhead"] = row["engine"] / row["pettingzoo"]
        if args.pz_benchmark:
            row["performance_benchmark"] = pz_benchmark(
                lambda g=game, n=n: campfire_env(g, players=n)
            )
        rows.append(row)
    for name, make in classic_envs().items():
        row = {
            "env": f"pettingzoo {name}",
            "players": 2,
            "pettingzoo": aec_rate(make, args.seconds),
        }
        if args.pz_benchmark:
            row["performance_benchmark"] = pz_benchmark(make)
        rows.append(row)

    if args.json:
        print(json.dumps(rows, indent=1))
        return
    header = (
        "| environment | players | engine steps/s | Session steps/s | AEC steps/s | engine ÷ AEC |"
    )
    if args.pz_benchmark:
        header += " performance_benchmark turns/s |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    for r in rows:
        cells = [
            r["env"],
            str(r["players"]),
            f"{r['engine']:,.0f}" if "engine" in r else "",
            f"{r['session']:,.0f}" if "session" in r else "",
            f"{r['pettingzoo']:,.0f}",
            f"{r['overhead']:.2f}" if "overhead" in r else "",
        ]
        if args.pz_benchmark:
            cells.append(f"{r['performance_benchmark']:,.0f}")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
