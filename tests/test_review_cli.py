"""``campfire review FILE``: the terminal review of a recorded game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campfire import all_games
from campfire.agents import make_agent
from campfire.cli import main
from campfire.core.table import Table

ROOT = Path(__file__).resolve().parent.parent


def _record(tmp_path: Path, finished: bool = True) -> Path:
    game = all_games()[2]
    agents = [make_agent("easy", game, s, 2, seed=s) for s in range(2)]
    table = Table(game, 2, seed=11, agents=agents, names=["Ann", "Bob"])
    if finished:
        table.run()
    else:
        for _ in range(5):
            table.step()
    path = tmp_path / "game.json"
    table.match.record().save(path)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_review_prints_each_decision_and_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path)
    code, out, err = run(capsys, "review", str(path), "--iterations", "4", "--lang", "en")
    assert code == 0, err
    lines = out.splitlines()
    assert "decisions reviewed at 4 search iterations each" in lines[0]
    assert "an inaccuracy loses at least 0.10, a blunder at least 0.25" in lines[1]
    moves = [line for line in lines if line.startswith("#")]
    assert moves and all(": played " in line for line in moves)
    assert any("[blunder]" in line or "[inaccuracy]" in line for line in moves)
    summary = lines[lines.index("Summary:") + 1 :]
    assert [line.split(" (seat")[0].strip() for line in summary] == ["Ann", "Bob"]
    assert all("decisions" in line and "mean loss" in line for line in summary)


def test_review_json_and_out_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record(tmp_path)
    out_file = tmp_path / "review.json"
    code, out, err = run(
        capsys,
        "review",
        str(path),
        "--iterations",
        "3",
        "--seat",
        "1",
        "--json",
        "--out",
        str(out_file),
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["format"] == "campfire-review" and data["seats"] == [1]
    assert data["players"] == ["Ann", "Bob"] and data["iterations"] == 3
    assert data["decisions"] and {d["seat"] for d in data["decisions"]} == {1}
    assert json.loads(out_file.read_text(encoding="utf-8")) == data


def test_review_speaks_the_chosen_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path)
    code, out, _ = run(capsys, "review", str(path), "--iterations", "2", "--lang", "hu")
    assert code == 0
    assert "Összegzés:" in out and "Summary:" not in out


def test_review_of_a_bad_file_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, out, err = run(capsys, "review", str(bad), "--lang", "en")
    assert code == 2 and out == ""
    assert err.startswith("campfire: error:") and "Traceback" not in err
    code, _, err = run(capsys, "review", str(tmp_path / "missing.json"), "--lang", "en")
    assert code == 2 and "campfire: error:" in err


def test_review_refuses_an_unfinished_game_and_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _record(tmp_path, finished=False)
    code, _, err = run(capsys, "review", str(path), "--lang", "en")
    assert code == 2 and "not finished" in err
    done = _record(tmp_path)
    code, _, err = run(capsys, "review", str(done), "--iterations", "0", "--lang", "en")
    assert code == 2 and "iterations" in err
    code, _, err = run(capsys, "review", str(done), "--seat", "5", "--iterations", "1")
    assert code == 2 and "seat 5" in err
