"""Every record in examples/records/ replays, with an explicit setup, to its recorded outcome."""

from __future__ import annotations

from pathlib import Path

import pytest

from campfire.cli import main
from campfire.core import Record, replay
from tests.built_in import built_in_names

RECORDS = sorted((Path(__file__).resolve().parent.parent / "examples" / "records").glob("*.json"))


def test_every_game_has_an_example_record() -> None:
    games = {Record.load(path).game for path in RECORDS}
    assert games == set(built_in_names())  # examples/records: Campfire's own games


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_example_record_replays(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Record.load(path)
    assert record.setup is not None, "example records show an explicit (typed-in) setup"
    match = replay(record)
    assert match.state.is_terminal() and match.state.outcome() == record.outcome
    assert main(["replay", str(path)]) == 0
    assert f"{len(record.actions)} actions verified" in capsys.readouterr().out
