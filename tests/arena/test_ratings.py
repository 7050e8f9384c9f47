"""Ratings from saved records (openskill)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campfire.arena import load_records, prepare, rate_records, run
from campfire.core import CampfireError, Outcome, Player, Record, RecordError


def record(players: list[str], scores: list[float], game: str = "tracker") -> Record:
    return Record(
        game=game,
        players=[Player(f"{p} #{i}", p) for i, p in enumerate(players)],
        seed=1,
        outcome=Outcome.from_scores(scores),
    )


def test_known_records_give_the_expected_order() -> None:
    records = [record(["strong", "weak"], [5, 1]) for _ in range(5)]
    records += [record(["weak", "strong"], [0, 3]) for _ in range(5)]
    records.append(record(["weak", "strong"], [4, 4]))  # a shared win
    (board,) = rate_records(records)
    assert board.game == "tracker" and board.games == 11
    strong, weak = board.rows
    assert (strong.player, weak.player) == ("strong", "weak")
    assert strong.ordinal > weak.ordinal and strong.mu > 25 > weak.mu
    assert strong.games == weak.games == 11
    assert strong.win_share == pytest.approx(10.5 / 11)
    assert "1  strong" in board.to_text()


def test_an_agent_on_several_seats_is_one_player() -> None:
    records = [record(["a", "b", "a"], [3, 2, 1]) for _ in range(3)]
    (board,) = rate_records(records)
    assert {r.player: r.games for r in board.rows} == {"a": 3, "b": 3}
    assert {r.player: r.win_share for r in board.rows} == {"a": 0.5, "b": 0.0}


def test_games_get_separate_leaderboards() -> None:
    boards = rate_records(
        [record(["x", "y"], [1, 0], "tracker"), record(["x", "y"], [0, 1], "dudab")]
    )
    assert [b.game for b in boards] == ["dudab", "tracker"]
    assert boards[0].rows[0].player == "y" and boards[1].rows[0].player == "x"


def test_ratings_from_a_simulation_folder(tmp_path: Path) -> None:
    config = prepare("manitou", 2, ["heuristic", "random"], 12, seed=4)
    run(config, jobs=1, records_dir=tmp_path)
    (tmp_path / "summary.json").write_text(json.dumps({"format": "campfire-sim"}))
    (tmp_path / "notes.json").write_text("not json")
    records, skipped = load_records(tmp_path)
    assert len(records) == 12
    assert skipped == {"not_a_record": 2, "unfinished": 0}
    (board,) = rate_records(records, verify=True)
    assert [r.player for r in board.rows] == ["heuristic", "random"]
    assert board.to_json()["rows"][0]["games"] == 12


def test_load_records_errors(tmp_path: Path) -> None:
    with pytest.raises(CampfireError, match="is not a folder"):
        load_records(tmp_path / "missing")
    (tmp_path / "bad.json").write_text(json.dumps({"format": "campfire-record", "version": 9}))
    with pytest.raises(RecordError, match=r"bad\.json: unsupported record version 9"):
        load_records(tmp_path)


def test_verify_finds_a_record_that_does_not_replay(tmp_path: Path) -> None:
    bad = record(["a", "b"], [1, 0])
    bad.actions = [(0, "nonsense")]
    with pytest.raises(RecordError, match="action 0"):
        rate_records([bad], verify=True)
