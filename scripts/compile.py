"""Build the compiled build when it is missing or older than its sources (``make run``).

``make run`` calls this before it starts the server, so the server and its bots run compiled
(``docs/compiled.md``). It does nothing when the build is fresh (the stamp of the last build
matches the sources and the module list of ``pyproject.toml``) or when
``CAMPFIRE_PURE_PYTHON=1`` asks for pure Python. Otherwise it installs mypy into the running
interpreter's environment if it is missing (mypyc comes with it), compiles, and says how long
it took. It never fails: a build that cannot be made leaves pure Python, in one line
(``setup.py``'s), with the compiler's output kept in ``build/compile.log``.

    python scripts/compile.py            # build if needed
    python scripts/compile.py --check    # exit 0 when fresh, 1 when a build is needed
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "campfire"
LOG = ROOT / "build" / "compile.log"


def _stamps() -> ModuleType:
    """``campfire/_compiled.py`` loaded by its path (the package itself is not imported)."""
    spec = importlib.util.spec_from_file_location("campfire_stamps", PACKAGE / "_compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def is_fresh() -> bool:
    """Whether the build here was made from the listed modules' current sources."""
    stamps = _stamps()
    built: list[str] | None = stamps.read_stamp(PACKAGE)
    listed: list[str] = stamps.listed_modules(ROOT)
    return built == listed


def _have_mypyc() -> bool:
    return importlib.util.find_spec("mypyc") is not None


def build() -> int:
    """Install mypy if needed and compile; 0 (pure Python stays usable whatever happens)."""
    if not _have_mypyc():
        print("campfire: installing mypy, whose mypyc compiles the engines", flush=True)
        pip = [sys.executable, "-m", "pip", "install", "--quiet", "mypy>=1.10"]
        if subprocess.run(pip, check=False).returncode != 0 or not _have_mypyc():
            print("campfire: compiled build skipped, pure Python is used (mypy did not install)")
            return 0
    print(
        "campfire: compiling the engines and bots with mypyc "
        "(once after each change, 1–3 minutes; docs/compiled.md)",
        flush=True,
    )
    started = time.monotonic()
    LOG.parent.mkdir(exist_ok=True)
    env = {**os.environ, "CAMPFIRE_COMPILE": "1"}
    command = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    with LOG.open("w", encoding="utf-8") as log:
        done = subprocess.run(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, check=False
        )
    said = [
        line
        for line in LOG.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.startswith("campfire:")
    ]
    for line in said:
        print(line)
    if done.returncode != 0 and not said:
        print(f"campfire: compiled build skipped, pure Python is used (see {LOG})")
    elif is_fresh():
        print(f"campfire: compiled in {time.monotonic() - started:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's text)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether a build is needed")
    args = parser.parse_args(argv)
    stamps = _stamps()
    if args.check:
        return 0 if is_fresh() else 1
    if stamps.pure_requested() or is_fresh():
        return 0
    return build()


if __name__ == "__main__":
    sys.exit(main())
