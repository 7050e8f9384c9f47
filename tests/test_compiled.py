"""The compiled build plays exactly as pure Python does (issue 32, docs/compiled.md).

Each game is played from a seed at every difficulty level (the searches' budgets cut down to a
few iterations, the players' decisions still being the searches'), once in a process that loads
the compiled modules and once in one run with ``CAMPFIRE_PURE_PYTHON=1``: the records, every
action and every search decision in them, must be identical. Without a compiled build (``make
compiled`` was not run, or fell back to pure Python) the comparison is skipped; the switch
itself, and the fall-back of a build that fails, are tested either way.
"""

from __future__ import annotations

import abc
import ast
import hashlib
import importlib.machinery
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import campfire
from campfire import _compiled
from campfire.agents import make_agent
from campfire.agents.ismcts import ISMCTSAgent
from campfire.core import Agent, Match, State
from campfire.core.table import Table
from campfire.games.dudab.state import DudabState
from tests.built_in import built_in_names

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
LEVELS = ("easy", "medium", "hard")


def compiled_present() -> list[str]:
    """The modules of ``[tool.campfire.compiled]`` built here (an extension beside the source).

    None while the build is stale (a source changed since): it would not be loaded.
    """
    if _compiled.build_state(SRC / "campfire") != "fresh":
        return []
    return [
        module.removesuffix(".py").replace("/", ".")
        for module in _compiled.listed_modules(ROOT)
        if _compiled.extension_beside(SRC / module)
    ]


def _small(spec: str) -> str:
    """A level's agent spec with its search budget cut to 3 iterations."""
    return re.sub(r"iterations=\d+", "iterations=3", spec)


def play(game: str, level: str, seed: int = 7) -> dict[str, Any]:
    """The record of a seeded 2-player game of ``level`` agents (as the arena plays it)."""
    spec = campfire.get_game(game)
    agent = _small(spec.difficulty_levels(2)[level])
    match = Match(spec, 2, seed=seed, agents=[agent, agent])
    agents = [make_agent(agent, spec, s, 2, match.options, seed + s) for s in range(2)]
    table = Table(spec, match=match, agents=list(agents), observation_rng=random.Random(seed))
    table.run(max_actions=spec.playout_bound * 4)
    record = match.record({}).to_json()
    record["meta"].pop("date")  # when it was played: the one thing that may differ
    return record


def batches(game: str, steps: int = 300) -> str:
    """A digest of every array of ``steps`` calls of a seeded batch of 8 games of ``game``.

    Random legal actions, drawn from the masks by a seeded NumPy generator; the observations,
    masks, seats, rewards and flags of every batch (``campfire.adapters.vector``) are hashed.
    """
    import numpy as np

    from campfire.adapters.vector import VectorGames

    games = VectorGames(game, 8, players=2, seed=5)
    batch = games.reset()
    draw = np.random.default_rng(5)
    digest = hashlib.sha256()
    for _ in range(steps):
        for array in (
            batch.observations,
            batch.action_masks,
            batch.seats,
            batch.rewards,
            batch.terminated,
            batch.truncated,
        ):
            digest.update(array.tobytes())
        batch = games.step((draw.random(batch.action_masks.shape) * batch.action_masks).argmax(1))
    return f"{digest.hexdigest()} ({games.games_finished} games finished)"


def _is_float(node: ast.expr) -> bool:
    """Whether ``node`` is a float literal, or arithmetic that makes a float (``1 / 3``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, float)
    if isinstance(node, ast.UnaryOp):
        return _is_float(node.operand)
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.Div) or _is_float(node.left) or _is_float(node.right)
    return False


def final_float_tuples(source: str) -> list[int]:
    """The lines of ``source`` where a module-level ``Final`` is a tuple of floats only.

    mypyc (2.4) never sets such a constant: every compiled function that reads it raises
    ``NameError: value for final name ... was not set`` (a tuple with an int in it, a
    ``Final[tuple[float, ...]]`` or a list is fine). docs/compiled.md, change 23.
    """
    return [
        node.lineno
        for node in ast.parse(source).body
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.value, ast.Tuple)
        and node.value.elts
        and all(_is_float(e) for e in node.value.elts)
        and ast.unparse(node.annotation).split("[")[0].endswith("Final")
        and "..." not in ast.unparse(node.annotation)
    ]


def test_no_compiled_module_has_a_final_tuple_of_floats() -> None:
    """The one mypyc pitfall no pure-Python test can see, checked in the sources (a compiled
    Tracker batch failed at its first interest value from stop 43 on, until 2026-12-06)."""
    assert final_float_tuples("from typing import Final\nA: Final = (0.0, 1 / 3, 2 / 3)\n") == [2]
    assert final_float_tuples("B: Final = (1, 0.5)\nC: Final[tuple[float, ...]] = (0.5,)\n") == []
    found = {
        module: lines
        for module in _compiled.listed_modules(ROOT)
        if (lines := final_float_tuples((SRC / module).read_text(encoding="utf-8")))
    }
    assert found == {}, f"a Final tuple of floats, never set where compiled: {found}"


def loaded_extensions() -> list[str]:
    """The ``campfire`` modules of this process that were loaded from a compiled extension."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("campfire")
        and isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)
    )


def main() -> None:
    """Print the records of every game and level, and the extensions loaded, as JSON."""
    records = {g.name: {lv: play(g.name, lv) for lv in LEVELS} for g in campfire.all_games()}
    vector = {name: batches(name) for name in built_in_names()}
    print(
        json.dumps(
            {"extensions": loaded_extensions(), "records": records, "batches": vector},
            sort_keys=True,
        )
    )


def _run(pure: bool) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(ROOT)])}
    env[_compiled.PURE_ENV] = "1" if pure else "0"
    out = subprocess.run(
        [sys.executable, "-c", "from tests.test_compiled import main; main()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_the_pure_switch_loads_every_module_from_its_source() -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC), _compiled.PURE_ENV: "1"}
    code = (
        "import sys, campfire.games.dudab.scoring as s, campfire.games.tracker.cards as c;"
        "print(s.__file__[-3:], c.__file__[-3:], type(sys.meta_path[0]).__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == [".py", ".py", "PureFinder"]


def _campfire_abc_classes() -> list[type]:
    """Every class of Campfire's made with ``ABCMeta`` (the built-in games' bots loaded)."""
    for name in built_in_names():
        make_agent("hard", campfire.get_game(name), 0, 2)  # imports its bots and searches
    found, todo = set(), [abc.ABC]
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return sorted(
        (c for c in found if c.__module__.startswith("campfire") and isinstance(c, abc.ABCMeta)),
        key=lambda c: f"{c.__module__}.{c.__qualname__}",
    )


def test_every_abc_class_has_its_own_isinstance_caches() -> None:
    """mypyc makes native classes without ``ABCMeta.__new__``: ``State`` and ``Agent`` give
    their subclasses their own caches (``core.abc_caches.own_abc_cache``). In pure Python
    ``ABCMeta`` always does, so the check means something only with a compiled build."""
    if not compiled_present():
        pytest.skip("no fresh compiled build here (make compiled builds one; docs/compiled.md)")
    classes = _campfire_abc_classes()
    assert any(c.__qualname__ == "State" for c in classes)
    shared = [f"{c.__module__}.{c.__qualname__}" for c in classes if "_abc_impl" not in c.__dict__]
    assert shared == []


def test_isinstance_tells_sibling_classes_apart_after_checking_their_base() -> None:
    """A class found to be an ``Agent`` (or a ``State``) is not taken for another subclass.

    With shared caches (the compiled build before ``own_abc_cache``) Apache's search agent,
    once found to be an ``Agent``, was found to be an ``ISMCTSAgent`` too, and a review took
    the wrong branch.
    """
    search = make_agent("hard", campfire.get_game("apache"), 0, 2)
    assert isinstance(search, Agent) and not isinstance(search, ISMCTSAgent)
    tracker = campfire.get_game("tracker").new_game(2, seed=1)
    assert isinstance(tracker, State) and not isinstance(tracker, DudabState)
    assert isinstance(make_agent("hard", campfire.get_game("tracker"), 0, 2), ISMCTSAgent)


@pytest.mark.slow
def test_compiled_and_pure_builds_play_the_same_games() -> None:
    if not compiled_present():
        pytest.skip("no fresh compiled build here (make compiled builds one; docs/compiled.md)")
    compiled, pure = _run(pure=False), _run(pure=True)
    assert compiled["extensions"], "the compiled run loaded no extension"
    assert pure["extensions"] == [], "the pure run loaded an extension"
    assert set(built_in_names()) <= set(pure["records"]) == set(compiled["records"])
    for game, levels in pure["records"].items():
        for level in LEVELS:
            assert compiled["records"][game][level] == levels[level], (game, level)
    # the research batches too (the adapters, Session and the encoders are compiled)
    assert compiled["batches"] == pure["batches"]


@pytest.mark.slow
def test_a_failed_compile_leaves_pure_python_and_says_so_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("mypyc.build", reason="mypyc comes with mypy, a dev dependency")
    for name in ("setup.py", "pyproject.toml", "README.md"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    ignore = shutil.ignore_patterns("__pycache__", "*.so", _compiled.STAMP)
    shutil.copytree(SRC, tmp_path / "src", ignore=ignore)
    env = {**os.environ, "CAMPFIRE_COMPILE": "1", "CC": "false"}  # a C compiler that fails
    out = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    said = [line for line in out.stderr.splitlines() if line.startswith("campfire:")]
    assert said == [said[0]] and "compiled build skipped, pure Python is used" in said[0]
    assert not list((tmp_path / "src").rglob("*.so")), "an extension was left behind"


def _copy_of_src(tmp_path: Path) -> Path:
    """A copy of ``src`` without extensions; its ``campfire`` folder."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", _compiled.STAMP)
    shutil.copytree(SRC, tmp_path / "src", ignore=ignore)
    return tmp_path / "src" / "campfire"


def _import_state(src: Path) -> subprocess.CompletedProcess[str]:
    """Import ``campfire.core.state`` from ``src`` in a new process (no switch set)."""
    env = {k: v for k, v in os.environ.items() if k != _compiled.PURE_ENV}
    env["PYTHONPATH"] = str(src)
    switch = _compiled.PURE_ENV
    code = f"import os, campfire.core.state as s; print(s.__file__, os.environ.get({switch!r}))"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )


def test_extensions_without_a_stamp_are_set_aside_for_the_sources(tmp_path: Path) -> None:
    """An extension of unknown age (here not even a real one) is never loaded: pure Python,
    the one line on stderr, and the switch set for the processes started from there."""
    package = _copy_of_src(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / "core" / f"state{suffix}").write_bytes(b"not an extension")
    assert _compiled.build_state(package) == "stale"
    out = _import_state(package.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(package / "core" / "state.py"), "1"]
    assert out.stderr.splitlines() == [_compiled.STALE_LINE]


def test_a_source_changed_after_the_build_sets_the_build_aside(tmp_path: Path) -> None:
    package = _copy_of_src(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / "core" / f"state{suffix}").write_bytes(b"not an extension")
    modules = ["campfire/core/state.py", "campfire/core/events.py"]
    _compiled.write_stamp(package, modules)
    assert _compiled.build_state(package) == "fresh"
    assert _compiled.read_stamp(package) == modules
    events = package / "core" / "events.py"
    events.write_text(events.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert _compiled.build_state(package) == "stale"
    out = _import_state(package.parent)
    assert out.stdout.split()[0].endswith("state.py") and _compiled.STALE_LINE in out.stderr


def test_no_build_is_no_build(tmp_path: Path) -> None:
    package = _copy_of_src(tmp_path)
    assert _compiled.build_state(package) == "none"
    out = _import_state(package.parent)
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.split() == [str(package / "core" / "state.py"), "None"]


def test_the_build_of_make_run_says_whether_it_is_needed(tmp_path: Path) -> None:
    """``scripts/compile.py --check`` in a copy of the project: 1 with no build, 0 once the
    stamp matches the sources and ``pyproject.toml``'s list, 1 again after a source or the list
    changed; with the pure switch set the script builds nothing and says nothing."""
    package = _copy_of_src(tmp_path)
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "compile.py", tmp_path / "scripts")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    script = [sys.executable, str(tmp_path / "scripts" / "compile.py")]

    def check() -> int:
        return subprocess.run([*script, "--check"], check=False).returncode

    assert check() == 1  # no build
    modules = _compiled.listed_modules(tmp_path)
    _compiled.write_stamp(package, modules)
    assert check() == 0
    _compiled.write_stamp(package, modules[1:])  # a build of another list
    assert check() == 1
    _compiled.write_stamp(package, modules)
    source = tmp_path / "src" / modules[0]
    source.write_text(source.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert check() == 1  # a source changed since
    env = {**os.environ, _compiled.PURE_ENV: "1"}
    quiet = subprocess.run(script, env=env, capture_output=True, text=True, check=False)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
