"""What ``campfire serve`` sets for its process before serving."""

from __future__ import annotations

import gc

from campfire.server.cli import GC_THRESHOLDS, tune_gc


def test_the_collector_runs_less_often_and_start_up_objects_are_frozen() -> None:
    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert GC_THRESHOLDS[0] > before[0]
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
