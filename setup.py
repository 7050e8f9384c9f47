"""The optional compiled build (issue 32, ``docs/compiled.md``); everything else is pyproject.toml.

With ``CAMPFIRE_COMPILE=1`` in the environment (``make compiled``), the modules listed in
``pyproject.toml`` (``[tool.campfire.compiled]``) are compiled with mypyc from their ``.py`` files,
which stay the one source. Without it, or when mypyc is missing, refuses the code or the C
compiler fails, the package is pure Python: one line on stderr says why, and no extension is
left behind (a half-built set would break imports). A build that succeeds writes its stamp
(``campfire/_compiled.json``: the modules and a digest of their sources), by which
``campfire._compiled`` tells a fresh build from one older than its sources.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup  # type: ignore[import-untyped, unused-ignore]
from setuptools.command.build_ext import (  # type: ignore[import-untyped, unused-ignore]
    build_ext,
)

HERE = Path(__file__).resolve().parent


def _stamps() -> ModuleType:
    """``campfire/_compiled.py``, loaded by its path (the package itself is not imported)."""
    spec = importlib.util.spec_from_file_location(
        "campfire_compiled_stamps", HERE / "src" / "campfire" / "_compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _warn(why: object) -> None:
    print(f"campfire: compiled build skipped, pure Python is used ({why})", file=sys.stderr)


class OptionalBuildExt(build_ext):  # type: ignore[misc, unused-ignore]
    """``build_ext`` that falls back to pure Python instead of failing the install."""

    def run(self) -> None:
        """Build the extensions; on a failure remove them all and say so in one line.

        The stamp goes first (a build half done has none) and is written after a success.
        """
        package = (HERE / "src" if self.inplace else Path(self.build_lib)) / "campfire"
        stamps = _stamps()
        (package / stamps.STAMP).unlink(missing_ok=True)
        try:
            super().run()
        except Exception as exc:  # the C compiler or the linker failed: no extension at all
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            _warn(f"{type(exc).__name__}: {exc}".splitlines()[0])
            return
        if self.extensions:
            package.mkdir(parents=True, exist_ok=True)
            stamps.write_stamp(package, stamps.listed_modules(HERE))

    def copy_file(self, infile: str, outfile: str, *args: Any, **kwargs: Any) -> Any:
        """Copy a built extension beside its source as a new file, the old one unlinked first.

        Copied over in place, an extension a running process has loaded (a server, a
        simulation) would change under it and crash it; unlinked, that process keeps its copy.
        """
        Path(outfile).unlink(missing_ok=True)
        return super().copy_file(infile, outfile, *args, **kwargs)


def compiled_extensions() -> list[Any]:
    """The mypyc extensions of the listed modules, or ``[]`` (with the warning) if none."""
    if os.environ.get("CAMPFIRE_COMPILE", "") in ("", "0"):
        return []
    modules = _stamps().listed_modules(HERE)
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed: pip install mypy")
        return []
    cwd = Path.cwd()
    os.chdir(HERE)  # mypyc names the modules from the paths, relative to the project
    try:
        return list(mypycify([f"src/{m}" for m in modules], opt_level="3"))
    except BaseException as exc:  # mypyc exits (SystemExit) on a type error
        _warn(f"mypyc refused the code: {type(exc).__name__} {exc}".splitlines()[0])
        return []
    finally:
        os.chdir(cwd)


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
