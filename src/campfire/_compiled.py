"""The optional compiled build and the switch back to pure Python (``docs/compiled.md``).

``make compiled`` (and ``make run``, through ``scripts/compile.py``) compiles the modules listed
in ``pyproject.toml`` (``[tool.campfire.compiled]``) to C extensions with mypyc, from the very
``.py`` files the pure build runs; each extension file lies beside its source, and Python
imports an extension before a source of the same name. ``CAMPFIRE_PURE_PYTHON=1`` in the
environment turns that round for this package: :func:`install`, run when this module is
imported (which ``campfire/__init__.py`` does before anything else), puts a finder in front of
:data:`sys.meta_path` that loads every ``campfire`` module from its ``.py`` file, so one
checkout can run (and measure) both builds.

An extension is a copy of its source as it was when it was built. A successful build writes a
stamp beside this module (:data:`STAMP`: the modules compiled and a digest of their sources);
:func:`install` compares it with the sources and, when one changed since (or extensions lie
there without a stamp), uses pure Python as if ``CAMPFIRE_PURE_PYTHON=1`` were set, says so in
one line on stderr and sets the variable for the processes this one starts. So an edited
source is never shadowed by its stale extension.

This module imports nothing of Campfire's and is never compiled itself (``setup.py`` and
``scripts/compile.py`` load it by its path, without importing the package).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     package = Path(folder) / "campfire"
...     (package / "core").mkdir(parents=True)
...     _ = (package / "core" / "state.py").write_text("X = 1")
...     before = build_state(package)
...     write_stamp(package, ["campfire/core/state.py"])
...     fresh = build_state(package)
...     _ = (package / "core" / "state.py").write_text("X = 2")
...     (before, fresh, build_state(package))
('none', 'fresh', 'stale')
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Literal

__all__ = [
    "PURE_ENV",
    "STAMP",
    "PureFinder",
    "build_state",
    "extension_beside",
    "install",
    "listed_modules",
    "pure_requested",
    "source_digest",
    "write_stamp",
]

#: the environment variable that forces the pure-Python modules (any value but "" and "0")
PURE_ENV = "CAMPFIRE_PURE_PYTHON"
#: the build's stamp, in the package folder: ``{"modules": [...], "digest": "..."}``
STAMP = "_compiled.json"
#: a module every compiled build holds: its extension without a stamp means an unknown build
_SENTINEL = "core/state.py"
#: the one line said when a stale build is set aside
STALE_LINE = (
    "campfire: the compiled build is older than its sources, so pure Python is used "
    "(make compiled rebuilds it; docs/compiled.md)"
)

_SOURCE = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
_PACKAGE = Path(__file__).resolve().parent


def pure_requested() -> bool:
    """Whether the environment asks for the pure-Python modules (``CAMPFIRE_PURE_PYTHON=1``)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def listed_modules(project: Path) -> list[str]:
    """The modules ``[tool.campfire.compiled]`` of ``project``'s ``pyproject.toml`` lists.

    Paths under ``src/`` such as ``campfire/core/state.py`` (what ``setup.py`` compiles).
    """
    data = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    modules: list[str] = data["tool"]["campfire"]["compiled"]["modules"]
    return modules


def extension_beside(source: Path) -> bool:
    """Whether a compiled extension of the module ``source`` (a ``.py`` path) lies beside it."""
    stem = source.with_suffix("")
    return any(
        stem.with_name(stem.name + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def source_digest(package: Path, modules: Sequence[str]) -> str:
    """A digest of the sources of ``modules`` (paths such as ``campfire/core/state.py``).

    ``package`` is the ``campfire`` folder; each path is read relative to its parent. A
    missing source digests as missing (so it never matches a build that had it).
    """
    digest = hashlib.sha256()
    root = package.parent
    for module in modules:
        digest.update(module.encode() + b"\0")
        try:
            data = (root / module).read_bytes()
        except OSError:
            data = b"\0missing\0"
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def write_stamp(package: Path, modules: Sequence[str]) -> None:
    """Record that ``modules`` were compiled from their sources as they are now."""
    stamp = {"modules": list(modules), "digest": source_digest(package, modules)}
    (package / STAMP).write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")


def read_stamp(package: Path) -> list[str] | None:
    """The modules of the build stamped in ``package`` if its sources are unchanged, else None."""
    try:
        stamp = json.loads((package / STAMP).read_text(encoding="utf-8"))
        modules = [str(m) for m in stamp["modules"]]
        digest = str(stamp["digest"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return modules if digest == source_digest(package, modules) else None


def build_state(package: Path = _PACKAGE) -> Literal["none", "fresh", "stale"]:
    """Whether ``package`` holds a compiled build, and whether it matches its sources.

    ``none``: no stamp and no extension; ``fresh``: a stamp whose sources are unchanged;
    ``stale``: a source changed since the build, or extensions lie there without a stamp.
    """
    if (package / STAMP).exists():
        return "fresh" if read_stamp(package) is not None else "stale"
    if extension_beside(package / _SENTINEL):
        return "stale"
    return "none"


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
    """Put :class:`PureFinder` first on :data:`sys.meta_path` when pure Python is asked for.

    A stale build (:func:`build_state`) asks for it too: the one line on stderr, and
    ``CAMPFIRE_PURE_PYTHON=1`` set for the processes this one starts.
    """
    if not pure_requested():
        if build_state() != "stale":
            return
        print(STALE_LINE, file=sys.stderr)
        os.environ[PURE_ENV] = "1"
    if not any(isinstance(f, PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, PureFinder())


if __name__ == "campfire._compiled":  # not when setup.py or scripts/compile.py load the file
    install()
