"""pytest's hooks for the whole checkout: the compiled build's modules (``docs/compiled.md``).

``--doctest-modules`` imports each source file's module to find its examples; a module loaded
from its compiled extension is not the ``.py`` file pytest asked for ("import file mismatch"),
and a compiled function's examples are not visible the way a source's are. So while the
compiled build is in use (``make run`` or ``make compiled`` built it, and pure Python is not
asked for), the doctests of the compiled modules are left out, and the report's header says
so; ``CAMPFIRE_PURE_PYTHON=1 make test`` (or CI, which builds nothing) runs them.
"""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

import pytest

from campfire import _compiled

_SKIPPED: list[Path] = []


def _compiled_in_use(path: Path) -> bool:
    """Whether ``path`` is a source that runs as its compiled extension in this process."""
    if path.suffix != ".py" or _compiled.pure_requested():
        return False
    stem = path.with_suffix("")
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return any(stem.with_name(stem.name + suffix).exists() for suffix in suffixes)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out a compiled module's source (its doctests) while its extension is in use."""
    if _compiled_in_use(collection_path):
        _SKIPPED.append(collection_path)
        return True
    return None


def pytest_report_header(config: pytest.Config) -> str:
    """Say which build the tests run against."""
    if _compiled.pure_requested():
        return "campfire: pure Python (CAMPFIRE_PURE_PYTHON=1 or a stale build)"
    if _compiled.build_state() == "fresh":
        return (
            "campfire: the compiled build; the compiled modules' doctests are left out "
            "(CAMPFIRE_PURE_PYTHON=1 runs them)"
        )
    return "campfire: pure Python (no compiled build)"
