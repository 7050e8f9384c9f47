"""``campfire play`` and ``campfire replay --watch`` on the command line (no terminal taken)."""

from __future__ import annotations

from pathlib import Path

import pytest

from campfire.cli import main
from campfire.core import Match, get
from campfire.tui import launch
from campfire.tui.app import PlayConfig, WatchApp


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []

    def run_play(config: PlayConfig) -> int:
        calls.append(config)
        return 0

    monkeypatch.setattr(launch, "run_play", run_play)
    monkeypatch.setattr(WatchApp, "run", lambda self: calls.append(self.record))  # launch's class
    return calls


def test_play_builds_the_configuration(launched: list[object], tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["play", "dudab", "--players", "3", "--opponents", "hard", "--seed", "5"]
    assert main([*args, "--save", str(save), "--option", "use_jungle=true"]) == 0
    (config,) = launched
    assert isinstance(config, PlayConfig)
    assert config.game == "dudab" and config.seed == 5 and config.save == save
    assert [s.agent for s in config.seats] == [None, "hard", "hard"]
    assert config.options == {"use_jungle": True}


def test_play_without_a_game_opens_the_start_screen(launched: list[object]) -> None:
    assert main(["play", "--seed", "3"]) == 0
    (config,) = launched
    assert isinstance(config, PlayConfig) and config.seats == [] and config.seed == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "tracker", "--players", "7"], "2–6 players"),
        (["play", "tracker", "--opponents", "genius"], "unknown agent 'genius'"),
        (["play", "tracker", "--resume"], "--resume continues a saved game as it was"),
        (["play", "tracker", "--option", "peek_count=9"], "peek_count"),
        (["replay", "missing.json", "--watch"], "cannot read missing.json"),
        (["replay", "-", "--watch"], "--watch needs a record FILE"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], message: str, launched: list[object], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert launched == []


def test_replay_watch_verifies_then_opens(launched: list[object], tmp_path: Path) -> None:
    match = Match(get("tracker"), 2, seed=1)
    match.play(match.state.current_seat(), "peek 0")
    path = tmp_path / "r.json"
    match.record().save(path)
    assert main(["replay", str(path), "--watch"]) == 0
    assert len(launched) == 1
    text = path.read_text().replace('"peek 0"', '"peek 99"')
    path.write_text(text)
    assert main(["replay", str(path), "--watch"]) == 2
    assert len(launched) == 1


def test_resume_continues_the_newest_unfinished_game(
    launched: list[object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAMPFIRE_DATA_DIR", str(tmp_path))
    assert main(["play", "--resume"]) == 2  # none yet: one line
    from campfire.tui.session import PlaySession, SeatSpec

    session = PlaySession(get("tracker"), [SeatSpec("Ann"), SeatSpec("Bot", "easy")], seed=2)
    while session.human_to_act() is None:
        session.bot_step()
    session.play(0, session.legal_actions(0)[0])
    session.save(tmp_path / "unfinished" / "tracker-1.json")
    assert main(["play", "--resume"]) == 0
    (config,) = launched
    assert isinstance(config, PlayConfig) and config.resume is not None
    assert config.resume.players[0].name == "Ann"
