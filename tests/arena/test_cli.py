"""The ``campfire sim`` and ``campfire rate`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campfire.arena.cli import split_agents
from campfire.cli import main
from campfire.core import Record, replay


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_sim_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "sim", "manitou", "--players", "3", "--agents", "heuristic,random",
        "--games", "6", "--seed", "7", "--jobs", "1",
    )  # fmt: skip
    assert code == 0, err
    assert "Big Manitou, 3 players, 6 games, seed 7" in out
    assert "lineup: heuristic, random, heuristic" in out
    assert "heuristic      2" in out and "95% interval" in out
    assert "6 games (6 completed, 0 failed)" in out and "1 job, process backend" in out
    assert err == ""  # no progress bar when standard error is not a terminal


def test_sim_writes_json_plot_and_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "sim", "dudab", "--players", "3", "--agents", "random", "--games", "4",
        "--seed", "3", "--jobs", "2", "--option", "use_baby=true",
        "--json", str(tmp_path / "sim.json"), "--plot", str(tmp_path / "sim.png"),
        "--records", str(tmp_path / "recs"),
    )  # fmt: skip
    assert code == 0, err
    data = json.loads((tmp_path / "sim.json").read_text())
    assert data["format"] == "campfire-sim" and data["options"] == {"use_baby": True}
    assert data["completed"] == 4 and data["throughput"]["jobs"] == 2
    assert (tmp_path / "sim.png").read_bytes()[:4] == b"\x89PNG"
    files = sorted((tmp_path / "recs").glob("*.json"))
    assert len(files) == 4
    rec = Record.load(files[2])
    assert rec.options == {"use_baby": True} and rec.seed == data["results"][2]["seed"]
    assert replay(rec).state.outcome().scores == tuple(data["results"][2]["scores"])
    # the same run on one job gives the same statistics
    code, out, _ = run(
        capsys, "sim", "dudab", "--players", "3", "--agents", "random", "--games", "4",
        "--seed", "3", "--jobs", "1", "--option", "use_baby=true", "--json", "-",
    )  # fmt: skip
    assert code == 0
    again = json.loads(out)  # only the JSON on standard output
    for doc in (data, again):
        doc.pop("throughput")
    assert again == data


def test_sim_without_seed_prints_the_seed_it_drew(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "sim", "tracker", "--players", "2", "--agents", "random", "--games", "2",
        "--jobs", "1",
    )  # fmt: skip
    assert code == 0
    seed = int(out.splitlines()[0].rpartition("seed ")[2])
    code, again, _ = run(
        capsys, "sim", "tracker", "--players", "2", "--agents", "random", "--games", "2",
        "--jobs", "1", "--seed", str(seed),
    )  # fmt: skip

    def results(text: str) -> list[str]:
        """The summary without its timings (the run's time and the thinking-time table)."""
        lines = text.split("\nthinking time")[0].splitlines()
        return [line for line in lines if " in " not in line]

    assert "thinking time" in out
    assert results(again) == results(out)


@pytest.mark.usefixtures("broken_agents")
def test_sim_reports_failures_with_seed_and_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "sim", "tracker", "--players", "2", "--agents", "raising,random", "--games", "2",
        "--seed", "1", "--jobs", "1", "--records", str(tmp_path),
    )  # fmt: skip
    assert code == 1
    assert "2 games (0 completed, 2 failed)" in out
    assert "failed: game 0 (seed " in out and "RuntimeError: deliberately broken" in out
    assert f"partial records are in {tmp_path}" in err
    partial = Record.load(tmp_path / "game-000000-failed.json")
    assert partial.outcome is None and replay(partial).state.is_terminal() is False


@pytest.mark.usefixtures("broken_agents")
def test_sim_keeps_failed_records_without_records_dir(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(
        capsys, "sim", "tracker", "--players", "2", "--agents", "raising", "--games", "1",
        "--seed", "1", "--jobs", "1",
    )  # fmt: skip
    assert code == 1
    folder = Path(err.split("partial records are in ")[1].split(" (")[0])
    assert [p.name for p in folder.iterdir()] == ["game-000000-failed.json"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess", "--players", "2", "--agents", "random", "--games", "1"], "unknown game 'chess'"),
        (
            ["tracker", "--players", "2", "--agents", "genius", "--games", "1"],
            "unknown agent 'genius' for Tracker; agents: ",
        ),
        (
            ["tracker", "--players", "2", "--agents", "ismcts:depth=2", "--games", "1"],
            "agent 'ismcts': unknown option 'depth'; this game's options are: iterations",
        ),
        (
            ["tracker", "--players", "2", "--agents", "random,random,random", "--games", "1"],
            "3 agents given for 2 players; give 1 to 2 agents",
        ),
        (
            ["tracker", "--players", "2", "--agents", "random", "--games", "1", "--option", "x=1"],
            "unknown option 'x'; this game's options are: peek_count",
        ),
        (
            ["tracker", "--players", "2", "--agents", "random", "--games", "1", "--option", "x"],
            "an option is written key=value",
        ),
        (["tracker", "--players", "9", "--agents", "random", "--games", "1"], "2–6 players"),
        (
            ["tracker", "--players", "2", "--agents", "random", "--games", "0"],
            "the number of games must be 1–10000000 (got 0)",
        ),
        (
            ["tracker", "--players", "2", "--agents", "random", "--games", "1", "--jobs", "0"],
            "the number of jobs must be 1–1024 (got 0)",
        ),
        (
            ["tracker", "--players", "2", "--agents", "random", "--games", "1", "--address", "x"],
            "--address is for the Ray backend",
        ),
        (
            ["tracker", "--players", "2", "--agents", "random", "--games", "1", "--backend", "mpi"],
            "invalid choice: 'mpi'",
        ),
        (["tracker", "--players", "2", "--agents", "random"], "required: --games"),
    ],
)
def test_sim_bad_input_is_one_line_with_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    try:
        code, out, err = run(capsys, "sim", *args)
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
        out, err = capsys.readouterr()
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and out == ""


def test_sim_unwritable_outputs_are_clean_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    base = ["sim", "tracker", "--players", "2", "--agents", "random", "--games", "1", "--jobs", "1"]
    for extra, message in [
        (["--json", str(blocker / "x.json")], "cannot write"),
        (["--records", str(blocker / "dir")], "cannot create the records folder"),
        (["--plot", str(blocker / "x.png")], "cannot write the plot"),
    ]:
        code, _, err = run(capsys, *base, *extra)
        assert code == 2 and message in err and "Traceback" not in err


def test_rate_prints_a_leaderboard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(
        capsys, "sim", "manitou", "--players", "2", "--agents", "heuristic,random",
        "--games", "8", "--seed", "2", "--jobs", "1", "--records", str(tmp_path),
    )  # fmt: skip
    assert code == 0
    code, out, err = run(capsys, "rate", str(tmp_path))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Big Manitou: 8 games rated (openskill")
    assert "heuristic" in lines[2] and "random" in lines[3]
    code, out, _ = run(capsys, "rate", str(tmp_path), "--json", "--verify")
    assert code == 0
    (board,) = json.loads(out)
    assert [r["player"] for r in board["rows"]] == ["heuristic", "random"]


def test_rate_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rate", str(tmp_path / "nowhere"))
    assert code == 2 and "is not a folder" in err
    code, _, err = run(capsys, "rate", str(tmp_path))
    assert code == 2 and "no finished game records" in err


def test_split_agents() -> None:
    assert split_agents(["ismcts:iterations=5,rollout=random,random"]) == [
        "ismcts:iterations=5,rollout=random",
        "random",
    ]
    assert split_agents(["a", "b,c", ""]) == ["a", "b", "c"]
