"""Regression tests for issue 11 items 1, 2 and 5: every input boundary turns bad input into the
project's errors, bounds what the input controls, and checks a record's actions as they stream."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campfire import get_game
from campfire.core import (
    ErrorText,
    GameRng,
    Match,
    NotationError,
    OptionError,
    PositionError,
    Record,
    RecordError,
    SetupError,
)
from campfire.core.records import replay_file, replay_text
from campfire.core.validate import (
    MAX_INT_DIGITS,
    MAX_JSON_BYTES,
    MAX_JSON_DEPTH,
    check_seed,
    loads_json,
    parse_int,
)
from campfire.games.manitou import ManitouOptions
from campfire.games.manitou.cards import MAX_BAG_TILES

TRACKER = get_game("tracker")


def _record(actions: int = 6) -> dict[str, Any]:
    match = Match(TRACKER, 2, seed=3, names=["Ann", "Bob"])
    for _ in range(actions):
        seat = match.state.current_seat()
        match.play(seat, match.state.legal_actions(seat)[0])
    return match.record().to_json()


# ----- item 1: exceptions escaping the readers ------------------------------------------------


def test_record_that_is_not_utf8_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "u.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="is not UTF-8 text"):
        Record.load(path)
    with pytest.raises(RecordError, match="is not UTF-8 text"):
        replay_file(path)


def test_deeply_nested_json_is_a_record_error() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(RecordError, match=f"nested more than {MAX_JSON_DEPTH} levels"):
        Record.loads(deep)
    with pytest.raises(RecordError, match="nested more than"):
        replay_text(deep)
    data = _record()
    data["meta"] = {"x": json.loads("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))}
    with pytest.raises(RecordError, match="nested more than"):
        replay_text(json.dumps(data))


def test_integer_of_5000_digits_is_a_record_error() -> None:
    text = '{"version": 1, "game": "tracker", "players": ["a", "b"], "seed": ' + "9" * 5000 + "}"
    with pytest.raises(RecordError, match=f"integer of 5000 digits; at most {MAX_INT_DIGITS}"):
        Record.loads(text)
    with pytest.raises(RecordError, match="integer of 5000 digits"):
        replay_text(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[NaN]", "holds NaN"),
        ("[1e999]", "out of range"),
        ('{"a": 1, "a": 2}', "the key 'a' twice"),
        ('["\\ud800"]', "lone surrogate"),
        ("[1] [2]", "extra data"),
        ("", "not valid JSON"),
    ],
)
def test_strict_json_reader_refuses_what_json_loads_lets_through(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        loads_json(text, "the record")


def test_emoji_and_byte_order_mark_are_fine() -> None:
    assert loads_json('"\\ud83d\\ude00"', "x") == "\U0001f600"
    assert loads_json(b"\xef\xbb\xbf[1]", "x") == [1]


def test_tile_mix_with_superscript_digit_is_an_option_error() -> None:
    manitou = get_game("manitou")
    with pytest.raises(OptionError, match="count written 0-9"):
        manitou.options({"tile_mix": "tipi1:²"})
    with pytest.raises(OptionError, match="count written 0-9"):
        manitou.options({"tile_mix": "tipi1:٣"})


def test_integer_options_read_only_ascii_digits() -> None:
    with pytest.raises(OptionError, match="digits 0-9"):
        TRACKER.options({"peek_count": "٣"})
    with pytest.raises(OptionError, match="digits 0-9"):
        TRACKER.options({"peek_count": "1_0"})
    assert TRACKER.options({"peek_count": " 3 "}).to_dict()["peek_count"] == 3


def test_parse_int_bounds_and_digits() -> None:
    assert parse_int("-5", "x", minimum=-9) == -5
    with pytest.raises(OptionError, match="must be 1–6"):
        parse_int("7", "x", minimum=1, maximum=6)
    with pytest.raises(OptionError, match="digits 0-9"):
        parse_int("9" * 5000, "x")


# ----- item 2: bounded resources, streaming ---------------------------------------------------


def test_huge_tile_mix_count_is_refused_before_allocating() -> None:
    manitou = get_game("manitou")
    with pytest.raises(OptionError, match=f"at most {MAX_BAG_TILES} tiles"):
        manitou.options({"tile_mix": "tipi1:100000000000"})
    with pytest.raises(OptionError, match=f"at most {MAX_BAG_TILES} tiles"):
        manitou.options({"tile_mix": "tipi1:600,tipi2:600"})
    options = manitou.options({"tile_mix": f"tipi1:{MAX_BAG_TILES}"})
    assert isinstance(options, ManitouOptions)
    assert sum(options.tile_counts()) == 1000


def test_explicit_manitou_bag_is_bounded() -> None:
    manitou = get_game("manitou")
    with pytest.raises(SetupError, match=f"at most {MAX_BAG_TILES} tiles"):
        manitou.new_game(2, setup={"dealer": 0, "tiles": ["totem"] * (MAX_BAG_TILES + 1)})


def test_text_options_are_bounded() -> None:
    with pytest.raises(OptionError, match="at most 1000 characters"):
        get_game("manitou").options({"tile_mix": "totem:1," * 200})


def test_record_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:  # a sparse file: no data is written
        f.truncate(MAX_JSON_BYTES + 1)
    with pytest.raises(RecordError, match="larger than 16,777,216 bytes"):
        replay_file(path)
    with pytest.raises(RecordError, match="larger than"):
        Record.load(path)


def test_replay_stops_at_the_first_bad_action_without_reading_the_rest() -> None:
    data = _record()
    data["actions"][2] = [0, "fly away"]
    text = json.dumps(data)
    # everything after the bad action is garbage: the reader never gets there
    cut = text.index("fly away") + len('fly away"]')
    with pytest.raises(RecordError) as info:
        replay_text(text[:cut] + ", {{{ not json at all")
    assert info.value.index == 2 and "cannot read 'fly away'" in str(info.value)


def test_streamed_replay_equals_replay_of_the_parsed_record() -> None:
    text = Record.from_json(_record(40)).dumps()
    record, match = replay_text(text)
    parsed = Record.loads(text)
    assert record.to_json() == parsed.to_json()
    assert len(match.actions) == 40


def test_record_with_actions_before_its_header_is_read_whole_then_replayed() -> None:
    text = json.dumps(_record(), sort_keys=True)  # "actions" comes first
    record, match = replay_text(text)
    assert len(record.actions) == len(match.actions) == 6


def test_header_field_after_applied_actions_is_refused() -> None:
    data = _record()
    options = data.pop("options")
    text = json.dumps(data)[:-1] + ', "options": ' + json.dumps(options) + "}"
    with pytest.raises(RecordError, match="'options' comes after the actions"):
        replay_text(text)


def test_record_that_is_not_an_object_says_so() -> None:
    with pytest.raises(RecordError, match="a record is a JSON object"):
        replay_text("[1, 2]")


# ----- item 5: seeds, versions, options, positions --------------------------------------------


@pytest.mark.parametrize("seed", ["x", 1.5, True, -1, 2**63, None])
def test_bad_seeds_are_refused_by_new_game_and_records(seed: Any) -> None:
    if seed is not None:
        with pytest.raises(OptionError, match="a seed is a whole number 0"):
            TRACKER.new_game(2, seed=seed)
        with pytest.raises(OptionError, match="a seed is a whole number 0"):
            Match(TRACKER, 2, seed=seed)
    data = _record(0)
    data["seed"] = seed
    with pytest.raises(RecordError, match='"seed"'):
        Record.from_json(data)


def test_negative_seed_is_not_an_alias_of_the_positive_one() -> None:
    assert check_seed(0) == 0 and check_seed(2**63 - 1) == 2**63 - 1
    with pytest.raises(OptionError):
        check_seed(-5)


def test_every_seed_new_game_accepts_replays() -> None:
    for seed in (0, 1, 2**63 - 1):
        match = Match(TRACKER, 2, seed=seed)
        assert replay(Record.loads(match.record().dumps())).state.position_equal(match.state)


@pytest.mark.parametrize("version", [True, 1.0, "1", None, 2])
def test_record_version_must_be_the_integer_1(version: Any) -> None:
    data = _record(0)
    data["version"] = version
    with pytest.raises(RecordError, match="unsupported record version"):
        Record.from_json(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": True}, "unsupported position version True"),
        ({"version": 1.0}, "unsupported position version 1.0"),
        ({"options": ["peek_count", 3]}, "'options' is a JSON object"),
        ({"options": {"peek_count": "٣"}}, "digits 0-9"),
        ({"options": {7: 3}}, "option names are strings"),
        ({"players": True}, "number of players must be an integer"),
    ],
)
def test_position_header_errors_are_position_errors(change: dict[str, Any], message: str) -> None:
    position = TRACKER.new_game(2, seed=1).to_position()
    position.update(change)
    with pytest.raises(PositionError, match=message):
        TRACKER.state_from_position(position)


def test_position_without_players_is_a_position_error() -> None:
    position = TRACKER.new_game(2, seed=1).to_position()
    del position["players"]
    with pytest.raises(PositionError, match="'players'"):
        TRACKER.state_from_position(position)


def test_non_mapping_options_are_option_errors() -> None:
    with pytest.raises(OptionError, match="mapping of option names"):
        TRACKER.new_game(2, [("peek_count", 3)], seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "state",
    [
        None,
        [3, [-1] * 625, None],
        [3, [1.5] * 625, None],
        [3, [0] * 624 + [0], "x"],
        [3, [0] * 10, None],
        [True, [0] * 625, None],
    ],
)
def test_malformed_generator_state_is_a_position_error(state: Any) -> None:
    with pytest.raises(PositionError, match="malformed random generator state"):
        GameRng.from_json(state)


@pytest.mark.parametrize(
    "outcome",
    [
        {"scores": [1, 2], "ranks": [1, 2], "winners": []},
        {"scores": [1, 2], "ranks": [1, 2], "winners": [5]},
        {"scores": [1], "ranks": [1], "winners": [0]},
        {"scores": ["a", 2], "ranks": [1, 2], "winners": [0]},
        {"scores": [1, 2], "ranks": [True, 2], "winners": [0]},
        [1, 2],
    ],
)
def test_malformed_outcome_is_a_record_error(outcome: Any) -> None:
    data = _record(0)
    data["outcome"] = outcome
    with pytest.raises(RecordError, match='"outcome" must hold'):
        Record.from_json(data)


def replay(record: Record) -> Match:
    from campfire.core import replay as core_replay

    return core_replay(record)


@pytest.mark.parametrize("name", ["apache", "dudab", "manitou", "tracker"])
def test_every_game_reads_a_position_s_top_level_fields_the_same_way(name: str) -> None:
    game = get_game(name)
    position = game.new_game(2, seed=1).to_position()
    assert game.state_from_position(position).position_equal(game.new_game(2, seed=1))
    with pytest.raises(PositionError, match=r"unknown position field 'rng'; a position has"):
        game.state_from_position({**position, "rng": 1})
    with pytest.raises(PositionError, match=rf"^a position of {game.title} needs a 'state'"):
        game.state_from_position({**position, "state": [1, 2]})


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (KeyError("hand"), "malformed Tracker position: KeyError('hand')"),
        (IndexError("list index out of range"), "malformed Tracker position: IndexError("),
        (NotationError(ErrorText("no such card")), "malformed Tracker position: no such card"),
        (PositionError(ErrorText("seat 7 is no seat")), "seat 7 is no seat"),
    ],
)
def test_what_a_game_s_state_reader_raises_becomes_a_position_error(
    raised: Exception, said: str
) -> None:
    def read_state(players: int, options: Any, state: Any) -> Any:
        raise raised

    position = TRACKER.new_game(2, seed=1).to_position()
    with pytest.raises(PositionError) as caught:
        TRACKER._read_position(position, read_state)
    assert str(caught.value).startswith(said)


@pytest.mark.parametrize(("language", "said"), [("hu", "Nyomkereső-állás"), ("cs", "hry Stopař")])
def test_a_position_error_names_the_game_in_the_language(language: str, said: str) -> None:
    from campfire.i18n import translator

    position = TRACKER.new_game(2, seed=1).to_position()
    with pytest.raises(PositionError) as caught:
        TRACKER.state_from_position({**position, "state": None})
    assert said in translator(language).error(caught.value)

    def read_state(players: int, options: Any, state: Any) -> Any:
        raise KeyError("hand")

    with pytest.raises(PositionError) as caught:
        TRACKER._read_position(position, read_state)
    assert said in translator(language).error(caught.value)


@pytest.mark.parametrize("name", ["apache", "dudab", "manitou", "tracker"])
def test_every_game_refuses_an_unknown_setup_field_the_same_way(name: str) -> None:
    from campfire.i18n import translator

    game = get_game(name)
    with pytest.raises(SetupError) as caught:
        game.new_game(2, setup={"shuffle": True})
    assert str(caught.value).startswith(f"unknown setup field 'shuffle'; a setup of {game.title}")
    hungarian = translator("hu").error(caught.value)
    assert hungarian.startswith("ismeretlen kezdőállás-mező: 'shuffle'"), hungarian
