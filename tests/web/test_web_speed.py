"""The browser speed benchmark (``benchmarks/web_speed.py``) at a tiny size, so it keeps working.

Its figures are measured by hand (``benchmarks/README.md``); here only that each measurement
produces sensible numbers: no duration is asserted.
"""

from __future__ import annotations

from typing import Any

from tests.benchmark_scripts import load_script


def test_first_paint_and_clicks_are_measured(server: Any, browser: Any) -> None:
    script = load_script("web_speed")
    loads = script.first_paint(browser, server.base, 1)
    assert len(loads) == 1
    assert loads[0]["fcp"] > 0 and loads[0]["drawn"] > 0
    measured = script.clicks(browser, server.base, 3, seconds=120)
    assert len(measured["effects"]) == 3
    assert all(effect > 0 for effect in measured["effects"])
    assert len(measured["round_trips"]) == 9 and all(t >= 0 for t in measured["round_trips"])
