"""Smoke test of ``benchmarks/playouts_cpu.py`` at a tiny size (no timing is asserted)."""

from __future__ import annotations

import pytest

import campfire
from tests.benchmark_scripts import load_script


@pytest.mark.parametrize("game", [g.name for g in campfire.all_games()])
def test_playouts_play_the_same_seeded_games_each_run(game: str) -> None:
    script = load_script("playouts_cpu")
    first, _ = script.playouts(game, 2, 2)
    again, _ = script.playouts(game, 2, 2)
    assert first > 0 and first == again  # the same seeds, the same games
