"""The load benchmark (benchmarks/server_load.py) at a tiny size, so that the script keeps working.

Its figures are measured by hand (benchmarks/README.md); here only the report's shape is checked:
actions were played and their latencies measured. No duration is asserted.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_benchmark() -> ModuleType:
    path = ROOT / "benchmarks" / "server_load.py"
    spec = importlib.util.spec_from_file_location("campfire_server_load", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


def test_load_benchmark_plays_two_tables_and_reports_actions_and_latencies() -> None:
    bench = load_benchmark()
    report = bench.run_benchmark(tables=2, seconds=3, think_ms=20, players=3, max_actions=400)
    assert report["tables"] == 2
    assert report["connections"] == 2 * (3 + 1)
    assert report["actions"] > 0
    assert report["actions_per_s"] > 0
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"]
    assert report["failures"] == []
