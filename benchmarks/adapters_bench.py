"""Adapter throughput: raw engine, Session, PettingZoo environments, PettingZoo's card games.

    .venv/bin/python benchmarks/adapters_bench.py [--steps 20000] [--runs 3] [--players 2,4]
        [--games tracker,dudab] [--before REV] [--floor] [--classic-wrappers] [--pz-benchmark]
        [--json]

Every figure is random play in one process, measured side by side in one run; each figure is
the best of ``--runs`` rounds (the rounds of a game's engine, Session and environment
alternate, so a burst of other work on the machine does not favour one of them), timed in CPU
seconds of this process (``time.process_time``). Every measure makes exactly ``--steps``
actions (the game in progress is cut there) over the same games: game ``k`` has the engine
seed that ``env.reset(seed=k)`` gives, and every loop picks uniformly among the legal actions
with ``random.Random(0).choice`` (the same policy; the engine lists the legal actions in its
order, the environment by index, so the games differ move by move but not in distribution):

* ``engine``: ``legal_actions`` + ``apply`` of a uniformly random action (like ``campfire
  bench``, seat = the adapter's seat to act);
* ``session``: the same through :class:`campfire.adapters.session.Session` (action indices,
  memories told the events), no observation;
* ``pettingzoo``: our AEC environment, stepped like ``pettingzoo.test.performance_benchmark``:
  ``env.last()`` (observation and mask) and a random legal action from the mask, every step;
* ``free observation`` (``--floor``): the same environment with an observation that costs
  nothing (``Session.new_observation`` hands out a copy of a constant vector of the right
  size; masks, memories, the loop unchanged): what the environment would cost with a perfect
  encoder, so ``engine ÷`` it is the floor of every encoder-side improvement;
* ``classic wrappers`` (``--classic-wrappers``): our ``raw_env`` wrapped the way PettingZoo's
  classic environments' ``env()`` wrap theirs (``TerminateIllegalWrapper``,
  ``AssertOutOfBoundsWrapper`` and the stock ``OrderEnforcingWrapper``), instead of our one
  order-enforcing wrapper;
* ``null``: an AEC environment whose game does nothing (a fixed observation and mask, 100
  steps a game) with the same loop, through PettingZoo's stock ``OrderEnforcingWrapper`` and
  through ours: the cost of the loop itself (``agent_iter``, ``last``, ``step``, the random
  choice from the mask), which no environment can go below;
* PettingZoo's classic card environments (``texas_holdem_v4``, ``texas_holdem_no_limit_v6``,
  ``leduc_holdem_v4``; they need ``rlcard`` and ``pygame``) with the same loop, when installed.

``--before REV`` adds a before/after comparison: the adapters of git revision ``REV``
(``src/campfire/adapters`` at that commit, copied out of git into a temporary package) are
loaded next to the current ones in the same process and stepped with the same loop over the
same games; the engine is the current one for both.

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
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import campfire
from campfire.adapters.pettingzoo import OrderEnforcingWrapper, raw_env
from campfire.adapters.pettingzoo import env as campfire_env
from campfire.adapters.session import Session


def _timed(run: Callable[[int], None], steps: int) -> float:
    """Time ``run(steps)`` (which makes ``steps`` actions) in CPU seconds; actions/s."""
    clock = time.process_time
    start = clock()
    run(steps)
    return steps / (clock() - start)


def engine_seed(k: int) -> int:
    """The engine seed of game ``k``: what ``env.reset(seed=k)`` gives its game."""
    return random.Random(k).getrandbits(63)


class NullEnv(AECEnv):  # type: ignore[misc]
    """Two agents, a fixed observation and mask, 100 steps a game: the loop's own cost.

    Its step does what our environments' step does besides the game (the rewards are touched
    only at the end), so with our wrapper it is the floor of PettingZoo's loop.
    """

    metadata: dict[str, Any] = {"render_modes": [], "name": "null", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, size: int = 829, actions: int = 245, legal: int = 30) -> None:
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        self._obs = np.zeros(size, dtype=np.float32)
        self._mask = np.zeros(actions, dtype=np.int8)
        self._mask[:legal] = 1
        self._moves = 0

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._moves = 0

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._moves += 1
        if self._moves >= 100:
            self._clear_rewards()
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            self._deads_step_first()
        else:  # every reward is 0 until the end (as in our environments): none to clear or add
            self.agent_selection = self.possible_agents[self._moves % 2]


class _FreeObservationSession(Session):
    """A session whose observation costs nothing: a copy of a constant vector."""

    # no attribute of its own: a session's class can then be switched to it (``__class__``)
    # in the compiled build as well, where Session keeps its attributes in slots
    __slots__ = ()
    _constant: dict[int, npt.NDArray[np.float32]] = {}  # noqa: RUF012 (one per size)

    def new_observation(self, seat: int) -> npt.NDArray[np.float32]:
        size = self.encoder.size
        constant = self._constant.get(size)
        if constant is None:
            constant = self._constant[size] = np.zeros(size, dtype=np.float32)
        return constant.copy()


class _FreeObservationEnv(raw_env):
    """Our environment with :class:`_FreeObservationSession` (everything else unchanged)."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed, options)
        self.session.__class__ = _FreeObservationSession


def free_observation_env(game: str, players: int) -> Any:
    """Our environment, wrapped as ``env()`` does, with an observation that costs nothing."""
    return OrderEnforcingWrapper(_FreeObservationEnv(game, players))


def classic_wrapped_env(game: str, players: int) -> Any:
    """Our ``raw_env`` in the wrappers of PettingZoo's classic environments' ``env()``."""
    inner = wrappers.TerminateIllegalWrapper(raw_env(game, players), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(inner))


def _stock_null() -> Any:
    return wrappers.OrderEnforcingWrapper(NullEnv())


def _campfire_null() -> Any:
    return OrderEnforcingWrapper(NullEnv())


def engine_rate(game: str, players: int, steps: int) -> float:
    """Actions per second of the raw engine: ``legal_actions`` and ``apply``."""
    spec = campfire.get_game(game)

    def run(steps: int) -> None:
        rng = random.Random(0)
        done = k = 0
        while done < steps:
            state = spec.new_game(players, seed=engine_seed(k))
            k += 1
            while not state.is_terminal() and done < steps:
                seat = min(state.seats_to_act())
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                done += 1

    return _timed(run, steps)


def session_rate(game: str, players: int, steps: int) -> float:
    """Actions per second through a :class:`Session` (indices, memories; no observation)."""

    def run(steps: int) -> None:
        rng = random.Random(0)
        done = k = 0
        while done < steps:
            session = Session(game, players, seed=engine_seed(k))
            k += 1
            while (seat := session.current_seat()) is not None and done < steps:
                session.apply(seat, rng.choice(session.legal(seat)))
                done += 1

    return _timed(run, steps)


def aec_rate(make: Callable[[], Any], steps: int) -> float:
    """Actions per second of an AEC environment, stepped like PettingZoo's benchmark."""
    env = make()

    def run(steps: int) -> None:
        rng = random.Random(0)
        done = k = 0
        while done < steps:
            env.reset(seed=k)
            k += 1
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    action = None
                elif done < steps:
                    action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
                    done += 1
                else:
                    break
                env.step(action)

    return _timed(run, steps)


def vector_rate(game: str, players: int, steps: int, num_envs: int) -> float:
    """Actions per second of :class:`campfire.adapters.vector.VectorGames` with ``num_envs``
    games, each call one random legal action per game (drawn from the masks for the whole
    batch at once, ``campfire.adapters.vector.random_actions``)."""
    from campfire.adapters.vector import VectorGames, random_actions

    def run(steps: int) -> None:
        games = VectorGames(game, num_envs, players, seed=0)
        batch = games.reset()
        draw = np.random.default_rng(0)
        done = 0
        while done < steps:
            batch = games.step(random_actions(batch.action_masks, draw))
            done += num_envs

    return _timed(run, steps)


def adapters_at(rev: str) -> Any:
    """The PettingZoo adapter module of git revision ``rev``, loaded next to the current one.

    ``src/campfire/adapters`` at ``rev`` is copied into a temporary package (its relative
    imports stay inside it; ``campfire`` itself is the current one).
    """

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout

    package = "campfire_adapters_before"
    folder = Path(tempfile.mkdtemp(prefix="adapters_before_"))
    (folder / package).mkdir()
    for name in git("ls-tree", "--name-only", f"{rev}:src/campfire/adapters").split():
        if name.endswith(".py"):
            text = git("show", f"{rev}:src/campfire/adapters/{name}")
            (folder / package / name).write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder))
    return importlib.import_module(f"{package}.pettingzoo")


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


def _best(rates: dict[str, list[Callable[[], float]]], runs: int) -> dict[str, float]:
    """Run every measure ``runs`` times, the measures alternating; the best rate of each."""
    best = dict.fromkeys(rates, 0.0)
    for _ in range(runs):
        for key, measures in rates.items():
            for measure in measures:
                best[key] = max(best[key], measure())
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description="adapter throughput, side by side")
    parser.add_argument("--steps", type=int, default=20_000, help="actions per measure")
    parser.add_argument("--runs", type=int, default=3, help="rounds; the best counts")
    parser.add_argument("--players", default="2", help="player counts, comma-separated")
    parser.add_argument("--games", default="", help="comma-separated games (default: all)")
    parser.add_argument(
        "--before", default="", help="git revision whose adapters to compare with (optional)"
    )
    parser.add_argument(
        "--floor", action="store_true", help="also measure with an observation that costs nothing"
    )
    parser.add_argument(
        "--classic-wrappers",
        action="store_true",
        help="also measure raw_env in the wrappers of PettingZoo's classic environments",
    )
    parser.add_argument(
        "--vector",
        type=int,
        default=0,
        help="also measure campfire.adapters.vector with this many games per batch (e.g. 64)",
    )
    parser.add_argument("--pz-benchmark", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    steps = args.steps
    counts = [int(x) for x in args.players.split(",")]
    games = args.games.split(",") if args.games else [g.name for g in campfire.all_games()]
    before_env = adapters_at(args.before).env if args.before else None

    rows: list[dict[str, Any]] = []
    for n in counts:
        for game in games:
            row: dict[str, Any] = {"env": f"campfire {game}", "players": n}
            make = partial(campfire_env, game, players=n)
            measures: dict[str, list[Callable[[], float]]] = {
                "engine": [partial(engine_rate, game, n, steps)],
                "session": [partial(session_rate, game, n, steps)],
                "pettingzoo": [partial(aec_rate, make, steps)],
            }
            if before_env is not None:
                measures["before"] = [
                    partial(aec_rate, partial(before_env, game, players=n), steps)
                ]
            if args.floor:
                measures["free"] = [
                    partial(aec_rate, partial(free_observation_env, game, n), steps)
                ]
            if args.classic_wrappers:
                measures["classic"] = [
                    partial(aec_rate, partial(classic_wrapped_env, game, n), steps)
                ]
            if args.vector:
                measures["vector"] = [partial(vector_rate, game, n, steps, args.vector)]
            row.update(_best(measures, args.runs))
            row["overhead"] = row["engine"] / row["pettingzoo"]
            if before_env is not None:
                row["before_overhead"] = row["engine"] / row["before"]
            if args.floor:
                row["free_overhead"] = row["engine"] / row["free"]
            if args.classic_wrappers:
                row["classic_overhead"] = row["engine"] / row["classic"]
            if args.vector:
                row["vector_overhead"] = row["engine"] / row["vector"]
            if args.pz_benchmark:
                row["performance_benchmark"] = pz_benchmark(make)
            rows.append(row)
    others: dict[str, Callable[[], Any]] = {
        "null (stock OrderEnforcingWrapper)": _stock_null,
        "null (campfire OrderEnforcingWrapper)": _campfire_null,
    }
    others.update((f"pettingzoo {name}", make_env) for name, make_env in classic_envs().items())
    for name, make_env in others.items():
        row = {
            "env": name,
            "players": 2,
            **_best({"pettingzoo": [partial(aec_rate, make_env, steps)]}, args.runs),
        }
        if args.pz_benchmark and name.startswith("pettingzoo"):
            row["performance_benchmark"] = pz_benchmark(make_env)
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    header = (
        "| environment | players | engine steps/s | Session steps/s | AEC steps/s | engine ÷ AEC |"
    )
    if before_env is not None:
        header += f" before ({args.before}): AEC steps/s | before: engine ÷ AEC |"
    if args.floor:
        header += " free observation: AEC steps/s | engine ÷ it |"
    if args.classic_wrappers:
        header += " classic wrappers: AEC steps/s | engine ÷ it |"
    if args.vector:
        header += f" vector (N = {args.vector}) steps/s | engine ÷ it |"
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
        if before_env is not None:
            cells.append(f"{r['before']:,.0f}" if "before" in r else "")
            cells.append(f"{r['before_overhead']:.2f}" if "before_overhead" in r else "")
        shown_keys = (
            ("free", args.floor),
            ("classic", args.classic_wrappers),
            ("vector", bool(args.vector)),
        )
        for key, shown in shown_keys:
            if shown:
                cells.append(f"{r[key]:,.0f}" if key in r else "")
                cells.append(f"{r[key + '_overhead']:.2f}" if key in r else "")
        if args.pz_benchmark:
            pz = r.get("performance_benchmark")
            cells.append("" if pz is None else f"{pz:,.0f}")
        print("| " + " | ".join(cells) + " |")
    if args.floor:
        print()
        print_breakdown(rows)


def print_breakdown(rows: list[dict[str, Any]]) -> None:
    """Per action, in µs: where an environment step's time goes (rows with ``free``).

    The engine; what the Session adds (action indices, memories); what the environment adds
    with an observation that costs nothing (PettingZoo's loop, ``last``/``step``, the mask,
    the random choice from it, less the Session loop's choice); the observation. The target,
    engine ÷ AEC ≤ 2, is: everything past the engine ≤ one engine step.
    """
    print(
        "| environment | players | engine µs | + Session µs | + loop and mask µs "
        "| + observation µs | AEC µs | past the engine ÷ engine |"
    )
    print("|---" * 8 + "|")
    for r in rows:
        if "free" not in r:
            continue
        engine, session = 1e6 / r["engine"], 1e6 / r["session"]
        free, aec = 1e6 / r["free"], 1e6 / r["pettingzoo"]
        cells = [r["env"], str(r["players"])]
        cells += [f"{x:.2f}" for x in (engine, session - engine, free - session, aec - free, aec)]
        cells.append(f"{(aec - engine) / engine:.2f}")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
