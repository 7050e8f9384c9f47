from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from campfire import __version__
from campfire.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "records" / "tracker-explicit-setup.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_no_arguments_shows_help_and_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    assert "usage: campfire" in out and "tracker" in out and "2–6" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"campfire {__version__}"


def test_games_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and "peek_count=2" in out and "max_relocations=3" in out
    code, out, _ = run(capsys, "games", "--json")
    data = json.loads(out)
    tracker = next(g for g in data if g["name"] == "tracker")
    assert tracker["min_players"] == 2 and tracker["max_players"] == 6
    assert {o["name"]: o["default"] for o in tracker["options"]} == {
        "peek_count": 2,
        "max_relocations": 3,
    }


def test_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "Tracker")
    assert code == 0
    assert "Peek" in out and "peek_count=2" in out and "(2/3/4)" in out


def test_replay_example_record(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(EXAMPLE))
    assert code == 0
    assert "144 actions verified" in out and "winner" in out
    code, out, _ = run(capsys, "replay", str(EXAMPLE), "--json")
    data = json.loads(out)
    record = json.loads(EXAMPLE.read_text())
    assert data["outcome"] == record["outcome"]
    assert data["view"]["phase"] == "game_over" and data["view"]["seat"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "chess"], "unknown game 'chess'; known games: "),
        (["replay", "/no/such/file.json"], "cannot read /no/such/file.json"),
        (["bench", "tracker", "--seconds", "0"], "a number of seconds above 0"),
        (["bench", "tracker", "--players", "9"], "Tracker is played by 2–6 players"),
    ],
)
def test_bad_input_is_one_line_and_nonzero(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_bad_records_are_rejected(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = json.loads(EXAMPLE.read_text())
    record["actions"][10] = [record["actions"][10][0], "take 99"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "action 10:" in err and "cannot read 'take 99'" in err
    path.write_text("[1, 2")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "is not valid JSON" in err


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice" in err


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "tracker", "--seconds", "0.2", "--runs", "2", "--json")
    assert code == 0
    (result,) = json.loads(out)
    assert result["game"] == "tracker" and result["players"] == 4
    assert result["actions"] > 0 and result["games"] >= 2
    assert result["actions_per_second"] > 0


def test_console_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "campfire", "replay", str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and "actions verified" in result.stdout


def test_replay_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.read_bytes())))
    code, out, _ = run(capsys, "replay", "-")
    assert code == 0 and "actions verified" in out
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xff{")))
    code, _, err = run(capsys, "replay", "-")
    assert code == 2 and "standard input is not UTF-8 text" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("[1"))
    code, _, err = run(capsys, "replay", "-")
    assert code == 2 and "standard input is not valid JSON" in err
