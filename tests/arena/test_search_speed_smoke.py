"""Smoke test of ``benchmarks/search_speed.py`` at a tiny size (no timing is asserted)."""

from __future__ import annotations

import pytest

from tests.benchmark_scripts import load_script


@pytest.mark.parametrize("players", [2, 3])
def test_search_speed_measures_a_search_at_its_player_count(players: int) -> None:
    speed = load_script("search_speed")
    points = speed.positions("manitou", 2, 1, players)
    assert len(points) == 2
    assert all(state.num_players == players for state, _ in points)
    row = speed.measure("manitou", "ismcts:iterations=3", points)
    assert row["decisions"] == 2 and row["searched"] == 2
    assert row["agent"] == "ismcts:iterations=3"  # not a level name: the spec itself
    heuristic = speed.measure("manitou", "medium", points)  # the level that is the heuristic
    assert heuristic["agent"] == "heuristic" and heuristic["searched"] == 0
