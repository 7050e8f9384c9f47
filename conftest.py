"""pytest's hooks for the whole checkout: which build the tests run (``docs/compiled.md``).

The tests run the pure-Python modules, the one source, even where ``make run`` or ``make
compiled`` left a compiled build beside them: ``CAMPFIRE_PURE_PYTHON`` is set to 1 before
anything imports Campfire, unless it is set already. ``tests/test_compiled.py`` runs the
compiled build in processes of its own and compares it with pure Python.

``CAMPFIRE_PURE_PYTHON=0`` runs the tests against the compiled build instead. Then the tests
that give the pure-Python API values of the wrong type on purpose fail as ``docs/compiled.md``
says the compiled build does (a ``TypeError`` where the engine's own error was expected), and
the compiled modules' doctests are left out: ``--doctest-modules`` imports each source file's
module, and one loaded from its extension is not the file pytest asked for ("import file
mismatch"). The report's header says which build runs.
"""

from __future__ import annotations

import os

os.environ.setdefault("CAMPFIRE_PURE_PYTHON", "1")  # before Campfire is imported (see above)

from pathlib import Path

import pytest

from campfire import _compiled


def _compiled_in_use(path: Path) -> bool:
    """Whether ``path`` is a source that runs as its compiled extension in this process."""
    return (
        path.suffix == ".py" and not _compiled.pure_requested() and _compiled.extension_beside(path)
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out a compiled module's source (its doctests) while its extension is in use."""
    return True if _compiled_in_use(collection_path) else None


def pytest_report_header(config: pytest.Config) -> str:
    """Say which build the tests run against."""
    if _compiled.pure_requested():
        return "campfire: pure Python (CAMPFIRE_PURE_PYTHON=0 tests a compiled build)"
    if _compiled.build_state() == "fresh":
        return (
            "campfire: the compiled build; the compiled modules' doctests are left out "
            "(CAMPFIRE_PURE_PYTHON=1 runs them)"
        )
    return "campfire: pure Python (no compiled build)"
