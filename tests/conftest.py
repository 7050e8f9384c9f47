"""The test environment: the test plugins installed, and every test in English.

**The game plugins under ``tests/plugins``** (each a distribution of its own, with its
``pyproject.toml``: Sparks, the fifth game of ``docs/writing-a-game.md``) are installed into
the test environment before anything asks Campfire for its games: each gets the metadata an
installer writes (``<name>-<version>.dist-info`` with its ``METADATA`` and its
``entry_points.txt``, in the git-ignored folder ``.test-plugins``), and that folder and the
plugin's own folder go on ``sys.path`` and on ``PYTHONPATH`` (which the servers and command
lines the tests start inherit). Campfire then finds the plugin through its entry point like any
installed game, with no line of it named anywhere in ``src``; and the project's virtual
environment stays as ``make run`` wants it, with Campfire's own games only.

**Every test starts in English**, whatever the machine's locale or CAMPFIRE_LANG say. Tests
compare English output; the language tests (tests/i18n) choose other languages explicitly.
"""

from __future__ import annotations

import os
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: where the test plugins' metadata is written (git-ignored)
TEST_PLUGINS = ROOT / ".test-plugins"


def _dist_info(project: dict[str, object]) -> tuple[str, dict[str, str]]:
    """The ``.dist-info`` folder's name and files for a plugin's ``[project]`` table."""
    name, version = str(project["name"]), str(project["version"])
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", ""]
    groups = project.get("entry-points", {})
    assert isinstance(groups, dict)
    entry = "".join(
        f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items()) + "\n"
        for group, points in groups.items()
    )
    folder = f"{re.sub(r'[-_.]+', '_', name)}-{version}.dist-info"
    return folder, {"METADATA": "\n".join(lines), "entry_points.txt": entry}


def install_test_plugins() -> list[Path]:
    """Install every plugin of ``tests/plugins`` into this test environment; their folders."""
    installed: list[Path] = []
    for file in sorted((ROOT / "tests" / "plugins").glob("*/pyproject.toml")):
        project = tomllib.loads(file.read_text(encoding="utf-8"))["project"]
        folder, files = _dist_info(project)
        for name, text in files.items():
            path = TEST_PLUGINS / folder / name
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                path.parent.mkdir(parents=True, exist_ok=True)
                partial = path.with_name(f".{name}.{os.getpid()}")  # xdist workers write at once
                partial.write_text(text, encoding="utf-8")
                partial.replace(path)
        installed.append(file.parent)
    paths = [str(TEST_PLUGINS), *(str(folder) for folder in installed)]
    for entry in reversed(paths):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    known = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [*(p for p in paths if p not in known), *(p for p in known if p)]
    )
    return installed


install_test_plugins()  # before anything asks the registry for the games

from campfire.i18n import LOCALE_VARS, use_language  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--all-option-combinations``: the conformance suite's and the type checks' full size."""
    parser.addoption(
        "--all-option-combinations",
        action="store_true",
        help="run the conformance suite's step-level checks and each game's view and event "
        "type checks (test_types.py) for every option combination of every game (by "
        "default: every pair of option values)",
    )


@pytest.fixture
def every_option_combination(request: pytest.FixtureRequest) -> bool:
    """Whether ``--all-option-combinations`` was given (the checks that sweep options then
    run every combination, not only the covering ones)."""
    return bool(request.config.getoption("all_option_combinations"))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the ``slow`` tests first, each group keeping its (random) order.

    With pytest-xdist, long tests then start beside the short ones instead of being left
    for one worker at the end while the others wait.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in (*LOCALE_VARS, "CAMPFIRE_LANG"):
        monkeypatch.delenv(var, raising=False)
    with use_language("en"):
        yield
