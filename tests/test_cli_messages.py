"""The command line's small courtesies (issue 13, item 9): errors that point where help is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campfire.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "records" / "tracker-explicit-setup.json"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "helped"),
    [
        (
            ["sim", "tracker", "--players", "2", "--agents", "random", "--games", "1", "--bogus"],
            "campfire sim --help",
        ),
        (["replay", "x.json", "--bogus"], "campfire replay --help"),
        (["games", "--bogus"], "campfire games --help"),
    ],
)
def test_an_unknown_flag_points_to_the_subcommands_help(
    capsys: pytest.CaptureFixture[str], argv: list[str], helped: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and "unrecognized arguments: --bogus" in err and helped in err


def test_plot_refuses_a_file_name_that_is_not_an_image(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "stats.txt"
    code, out, err = run(
        capsys,
        "sim",
        "tracker",
        "--players",
        "2",
        "--agents",
        "random",
        "--games",
        "2",
        "--jobs",
        "1",
        "--plot",
        str(target),
    )
    assert code == 2 and ".png, .svg, .pdf" in err and not target.exists() and out == ""


def test_plot_writes_svg_by_its_suffix(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "stats.svg"
    code, _, _ = run(
        capsys,
        "sim",
        "tracker",
        "--players",
        "2",
        "--agents",
        "random",
        "--games",
        "2",
        "--jobs",
        "1",
        "--seed",
        "1",
        "--plot",
        str(target),
    )
    assert code == 0 and target.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_replay_of_json_that_is_not_a_record_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "dark", "volume": 3}', encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "not a Campfire game record" in err and "'theme'" in err


def test_a_disagreeing_outcome_is_one_readable_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["outcome"]["scores"] = [s + 7 for s in data["outcome"]["scores"]]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1
    assert "recorded outcome differs" in lines[0] and "seat 0" in lines[0] and "{" not in lines[0]


@pytest.mark.parametrize("argv", [["play", "tracker", "--protect-me"], ["play", "--protect-me"]])
def test_protect_me_is_refused_outside_apache(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--protect-me is for Apache only" in err


@pytest.mark.parametrize("argv", [["play", "dudab", "--learning"], ["play", "--learning"]])
def test_learning_is_refused_in_a_game_that_does_not_offer_it(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # the games that offer it are read from their declarations (Game.assists)
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--learning is for Tracker only" in err
    assert "'campfire play tracker --learning'" in err


def test_games_says_which_plugin_could_not_be_loaded(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from campfire.core import registry

    failure = registry.PluginFailure("cards", "cards_game:GAME", "ImportError: no deck")
    monkeypatch.setattr(registry, "_PROBLEMS", {"cards": failure})
    code, out, err = run(capsys, "games")
    assert code == 0 and "tracker" in out  # the other games are listed as usual
    assert err.strip() == (
        "campfire: warning: the game plugin 'cards' (entry point cards_game:GAME in group "
        "campfire.games) could not be loaded: ImportError: no deck"
    )
