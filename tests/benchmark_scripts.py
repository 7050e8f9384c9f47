"""Loading a script of ``benchmarks/`` in a test (the scripts are not a package).

The smoke tests run a benchmark's own code at a tiny size, so the script keeps working.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_script(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as a module (``campfire_bench_<name>``), loaded once.

    The folder goes on ``sys.path`` as when the script is run, so that a script may import
    another (``from review_speed import played``).
    """
    if str(BENCHMARKS) not in sys.path:
        sys.path.append(str(BENCHMARKS))
    module_name = f"campfire_bench_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses look their module up while a class is made
    spec.loader.exec_module(module)
    return module
