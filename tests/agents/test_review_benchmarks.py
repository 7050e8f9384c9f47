"""The review's benchmarks (benchmarks/review_speed.py, review_validity.py) at a tiny size.

Their figures are measured by hand (benchmarks/README.md, docs/strength.md); here the scripts'
own code runs on a game or two at one iteration, so they keep working.
"""

from __future__ import annotations

import pytest

from tests.benchmark_scripts import load_script


def test_review_speed_reports_a_review_and_hints() -> None:
    speed = load_script("review_speed")
    row = speed.time_review("tracker", 2, seed=5, iterations=1)
    assert row["iterations"] == 1 and row["decisions"] > 0 and row["budget_s"] == 120.0
    hints = speed.time_hints("dudab", 2, seed=5, count=2)
    assert hints["hints"] == 2 and 0 < hints["mean_s"] <= hints["max_s"]


def test_review_validity_counts_the_games_with_more_blunders() -> None:
    validity = load_script("review_validity")
    rows = [
        {"blunders": [3, 1], "inaccuracies": [0, 0], "wins": [0.0, 1.0]},  # more, lost
        {"blunders": [0, 2], "inaccuracies": [0, 0], "wins": [0.0, 1.0]},  # more, won
        {"blunders": [1, 1], "inaccuracies": [2, 0], "wins": [0.0, 1.0]},  # equal blunders
        {"blunders": [2, 0], "inaccuracies": [0, 0], "wins": [0.5, 0.5]},  # a tie
    ]
    found = validity.tally(rows, "blunders")
    assert (found["games"], found["lost"], found["share"]) == (2, 1, 0.5)
    assert found["interval"][0] < 0.5 < found["interval"][1] and not found["clearly"]
    marks = validity.tally(rows, "marks")
    assert (marks["games"], marks["lost"]) == (3, 2)
    game = validity.one_game("tracker", seed=1, iterations=1)
    assert len(game["blunders"]) == 2 and sum(game["wins"]) == pytest.approx(1.0)
