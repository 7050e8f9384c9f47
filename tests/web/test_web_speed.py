"""The browser speed benchmark (``benchmarks/web_speed.py``) at a tiny size, so it keeps working.

Its figures are measured by hand (``benchmarks/README.md``); here only that each measurement
produces sensible numbers: no duration is asserted.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _script() -> Any:
    path = ROOT / "benchmarks" / "web_speed.py"
    spec = importlib.util.spec_from_file_location("campfire_web_speed", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_first_paint_and_clicks_are_measured(server: Any, browser: Any) -> None:
    script = _script()
    loads = script.first_paint(browser, server.base, 1)
    assert len(loads) == 1
    assert loads[0]["fcp"] > 0 and loads[0]["drawn"] > 0
    measured = script.clicks(browser, server.base, 3, seconds=120)
    assert len(measured["effects"]) == 3
    assert all(effect > 0 for effect in measured["effects"])
    assert len(measured["round_trips"]) == 9 and all(t >= 0 for t in measured["round_trips"])
