from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campfire import get_game
from campfire.core import Match, Record, RecordError, replay


def _finished_record() -> dict[str, Any]:
    match = Match(get_game("tracker"), 2, seed=5, names=["Ann", "Bob"])
    state = match.state
    while not state.is_terminal():
        seat = state.current_seat()
        legal = state.legal_actions(seat)
        match.play(seat, legal[-1] if len(match.actions) % 3 == 0 else legal[0])
    return match.record().to_json()


def test_record_round_trip_and_replay(tmp_path: Path) -> None:
    data = _finished_record()
    assert data["format"] == "campfire-record" and data["version"] == 1
    assert data["players"] == [{"name": "Ann"}, {"name": "Bob"}]
    path = tmp_path / "game.json"
    Record.from_json(data).save(path)
    record = Record.load(path)
    assert record.to_json() == data
    match = replay(record)
    assert match.state.outcome() == record.outcome


@pytest.mark.parametrize(
    ("mutate", "message", "index"),
    [
        (lambda d: d.update(version=99), "unsupported record version 99", None),
        (lambda d: d.update(game="chess"), "unknown game 'chess'", None),
        (lambda d: d.pop("seed"), 'needs a "seed" or an explicit "setup"', None),
        (lambda d: d.update(players="Ann"), '"players" must be', None),
        (lambda d: d.update(options={"peek_count": 9}), "must be one of 2, 3, 4", None),
        (lambda d: d["actions"].__setitem__(3, [0, "fly away"]), "cannot read 'fly away'", 3),
        (lambda d: d["actions"].__setitem__(2, "peek 1"), "expected [seat", 2),
        (lambda d: d["actions"].__setitem__(1, [7, "peek 1"]), "seat 7 does not exist", 1),
        (
            lambda d: d["actions"].insert(0, [1 - d["actions"][0][0], "peek 1"]),
            "may not act now",
            0,
        ),
        (lambda d: d["outcome"].update(scores=[100, 100]), "differs from the replayed", None),
        (lambda d: d.update(actions=d["actions"][:5]), "do not end the game", None),
    ],
)
def test_bad_records_are_rejected_with_index_and_reason(
    mutate: Any, message: str, index: int | None
) -> None:
    data = _finished_record()
    mutate(data)
    with pytest.raises(RecordError) as info:
        replay(Record.from_json(data))
    assert message in str(info.value)
    assert info.value.index == index


def test_unfinished_record_without_outcome_replays() -> None:
    data = _finished_record()
    data["actions"] = data["actions"][:5]
    data["outcome"] = None
    match = replay(Record.from_json(data))
    assert not match.state.is_terminal()


def test_load_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.load(bad)
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        Record.from_json([1, 2])


def test_dumps_is_json_with_one_action_per_line() -> None:
    record = Record.from_json(_finished_record())
    text = record.dumps()
    assert json.loads(text) == record.to_json()
    assert text.count("\n") > len(record.actions)
