"""The adapter benchmark (benchmarks/adapters_bench.py) at a tiny size.

Its figures are measured by hand (``docs/adapters.md``, "Speed"); here: the free-observation
environment that gives the benchmark's floor plays exactly the games of the real one (same
masks, same agents, same rewards; only the observation is a constant), PettingZoo's classic
wrapper stack around our ``raw_env`` steps the same games too, and a run prints both tables.
"""

import contextlib
import importlib.util
import io
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from campfire.adapters.pettingzoo import env
from tests.benchmark_scripts import load_script

from .conftest import GAMES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "campfire_adapters_bench", ROOT / "benchmarks" / "adapters_bench.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _play(e: Any, seed: int) -> list[tuple[str, list[int], float, bool, bool]]:
    """Every turn of a game with a seeded random policy: agent, legal indices, reward, flags."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    turns = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        turns.append((agent, legal, reward, terminated, truncated))
        e.step(None if terminated or truncated else rng.choice(legal))
    return turns


@pytest.mark.parametrize("game", GAMES)
def test_the_floor_and_classic_environments_play_the_same_games(
    bench: ModuleType, game: str
) -> None:
    real = _play(env(game, players=2), seed=4)
    assert real and real[-1][3] != real[-1][4]  # the game ended (terminated or truncated)
    assert _play(bench.free_observation_env(game, 2), seed=4) == real
    assert _play(bench.classic_wrapped_env(game, 2), seed=4) == real
    free = bench.free_observation_env(game, 2)
    free.reset(seed=4)
    obs = free.last()[0]["observation"]
    assert obs.shape == env(game, players=2).observation_space("player_0")["observation"].shape
    assert not obs.any()


def test_a_tiny_run_prints_both_tables(bench: ModuleType, monkeypatch: Any) -> None:
    argv = ["adapters_bench.py", "--steps", "40", "--runs", "1", "--games", "tracker"]
    monkeypatch.setattr(sys, "argv", [*argv, "--floor", "--classic-wrappers"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench.main()
    lines = out.getvalue().splitlines()
    tracker = [line for line in lines if line.startswith("| campfire tracker | 2 |")]
    assert len(tracker) == 2  # a row of rates, a row of µs per action
    rates, parts = (row.strip("|").split("|") for row in tracker)
    assert len(rates) == 10  # env, players, engine, Session, AEC, ratio, free ×2, classic ×2
    engine, session, loop, observation, aec, past = (float(x) for x in parts[2:])
    assert aec == pytest.approx(engine + session + loop + observation, abs=0.05)
    assert past == pytest.approx((aec - engine) / engine, abs=0.01)


def test_vector_rate_script_measures_and_refuses_what_the_batch_refuses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location(
        "campfire_vector_rate", ROOT / "benchmarks" / "vector_rate.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setattr(sys, "argv", ["vector_rate.py", GAMES[0], "--steps", "16", "--envs", "4"])
    script.main()
    assert f"{GAMES[0]} 2p N=4: " in capsys.readouterr().out
    monkeypatch.setattr(sys, "argv", ["vector_rate.py", "no-such-game", "--steps", "16"])
    with pytest.raises(SystemExit) as stopped:
        script.main()
    assert stopped.value.code == 2 and "unknown game" in capsys.readouterr().err


def test_vector_vs_engine_script_reports_each_tree_and_refuses_a_wrong_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """benchmarks/vector_vs_engine.py at a tiny size: the engine, this tree and one more."""
    script = load_script("vector_vs_engine")
    src = str(ROOT / "src")
    argv = ["vector_vs_engine.py", GAMES[0], "--rounds", "1", "--steps", "32", "--envs", "4"]
    monkeypatch.setattr(sys, "argv", [*argv, "--tree", f"again={src}"])
    script.main()
    report = capsys.readouterr().out.splitlines()
    assert report[0].startswith(f"{GAMES[0]}, 2 players, N = 4, 32 steps a run")
    names = [line.split()[0] for line in report[1:]]
    assert names == ["engine", "this", "again"]
    assert all("batch ÷ engine (best): " in line for line in report[2:])
    monkeypatch.setattr(sys, "argv", [*argv, "--tree", "nothing-here"])
    with pytest.raises(SystemExit) as stopped:
        script.main()
    assert stopped.value.code == 2 and "--tree takes NAME=SRC" in capsys.readouterr().err
