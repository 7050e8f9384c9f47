"""The optional compiled build and the switch back to pure Python (``docs/compiled.md``).

``make compiled`` compiles the modules listed in ``pyproject.toml``
(``[tool.campfire.compiled]``) to C extensions with mypyc, from the very ``.py`` files the pure
build runs; each extension file lies beside its source, and Python imports an extension before
a source of the same name. ``CAMPFIRE_PURE_PYTHON=1`` in the environment turns that round for
this package: :func:`install`, run when this module is imported (which ``campfire/__init__.py``
does before anything else), puts a finder in front of :data:`sys.meta_path` that loads every
``campfire`` module from its ``.py`` file, so one checkout can run (and measure) both builds.

This module imports nothing of Campfire's and is never compiled itself.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["PURE_ENV", "PureFinder", "install", "pure_requested"]

#: the environment variable that forces the pure-Python modules (any value but "" and "0")
PURE_ENV = "CAMPFIRE_PURE_PYTHON"

_SOURCE = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)


def pure_requested() -> bool:
    """Whether the environment asks for the pure-Python modules (``CAMPFIRE_PURE_PYTHON=1``)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


class PureFinder(importlib.abc.MetaPathFinder):
    """Finds every ``campfire`` submodule as source, never as a compiled extension."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The source spec of ``fullname`` (``None``: not ours, left to the other finders)."""
        if not fullname.startswith("campfire.") or path is None:
            return None
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, _SOURCE).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def install() -> None:
    """Put :class:`PureFinder` first on :data:`sys.meta_path` when pure Python is asked for."""
    if pure_requested() and not any(isinstance(f, PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, PureFinder())


install()
