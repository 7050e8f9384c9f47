"""The ladder benchmark (benchmarks/ladder.py) at a tiny size, so that the script keeps working.

Its figures are measured by hand (docs/strength.md); here the round robin, the ratings and the
section it writes into a Markdown file are checked on a few quick games.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.benchmark_scripts import load_script


def test_round_robin_is_rated_and_written_between_the_markers(tmp_path: Path) -> None:
    ladder = load_script("ladder")
    # Big Manitou's easy level is its heuristic bot: the heuristic is left out there
    assert ladder.levels_for("manitou", ladder.LEVELS) == (
        ["random", "easy", "medium", "hard"],
        ["heuristic"],
    )
    (entry,) = ladder.run_ladder(["tracker"], ["random", "easy", "heuristic"], 2, seed=3)
    assert entry["levels"] == ["random", "easy", "heuristic"]
    pairs = {(p["a"], p["b"]): p for p in entry["pairs"]}
    # the stronger side first: the later level, or a level against the heuristic
    assert set(pairs) == {("easy", "random"), ("random", "heuristic"), ("easy", "heuristic")}
    for p in pairs.values():
        assert p["games"] == 2 and p["failed"] == 0
        assert p["interval"][0] <= p["win_share"] <= p["interval"][1]
    rows = entry["ratings"]
    assert sorted(r["player"] for r in rows) == sorted(entry["levels"])
    assert all(r["games"] == 4 for r in rows)
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    specs = {r["player"]: r["spec"] for r in rows}
    assert specs["easy"] == "heuristic:memory=6/0.05"  # a level's row names its agent
    doc = tmp_path / "strength.md"
    doc.write_text(f"intro\n{ladder.BEGIN}\nold table\n{ladder.END}\nafter\n", encoding="utf-8")
    markdown = ladder.to_markdown([entry], "ladder.py tracker")
    ladder.write_section(doc, markdown)
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith("after\n")
    assert "old table" not in text and "| easy vs random | 2 |" in text
    assert "Command: `ladder.py tracker`" in text
    # a ladder played one game at a time is joined from its JSON reports, each with its command
    report = tmp_path / "tracker.json"
    report.write_text(json.dumps([{**entry, "command": "ladder.py tracker --games 2"}]))
    ladder.main(["--combine", str(report), "--write", str(doc)])
    text = doc.read_text(encoding="utf-8")
    assert "Command: `ladder.py tracker --games 2`" in text and "| easy vs random | 2 |" in text


def test_pairs_with_a_searching_level_play_their_own_number_of_games() -> None:
    ladder = load_script("ladder")
    assert ladder.searches("apache", "hard") and ladder.searches("manitou", "hard")
    assert not ladder.searches("manitou", "medium") and not ladder.searches("dudab", "random")
    small = "search:iterations=20"  # a searching level as cheap as the test needs
    assert ladder.searches("apache", small)
    (entry,) = ladder.run_ladder(["apache"], ["random", "easy", small], 2, seed=3, search_games=1)
    games = {(p["a"], p["b"]): p["games"] for p in entry["pairs"]}
    assert games == {("easy", "random"): 2, (small, "random"): 1, (small, "easy"): 1}
    assert entry["games_per_pair"] == 2 and entry["search_games"] == 1
    assert "2 games per pair, 1 per pair with a searching level" in ladder.to_markdown([entry])
