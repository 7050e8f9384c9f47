"""Regression tests for issue 26 item 7: the Python API, from an outside audit.

Each test failed on the main branch of the day: a hand-built action recorded as given rather
than as applied, ``get_game`` of a non-string, integers too long to print in error messages, an
outcome whose details were changed, and a record whose ignored ``meta`` took 53 times its size
to read.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import tracemalloc
from collections.abc import Callable
from typing import Any, cast

import pytest

import campfire
from campfire import get_game
from campfire.core import (
    Action,
    ErrorText,
    IllegalActionError,
    Match,
    NotationError,
    OptionError,
    PositionError,
    Record,
    RecordError,
    SeatError,
    SetupError,
    UnknownGameError,
    replay,
)
from campfire.core.records import MAX_META_BYTES, replay_text
from campfire.core.validate import MAX_JSON_BYTES, MAX_JSON_VALUES, loads_json
from campfire.games.apache.actions import ApacheAction, ApacheKind
from campfire.games.dudab.actions import DRAW, DudabAction, DudabKind
from campfire.games.tracker.actions import TrackerAction, TrackerKind
from tests.compiled_build import REASON, is_compiled, skip_compiled

GAMES = ("apache", "dudab", "manitou", "tracker")


def _position(match: Match) -> str:
    return json.dumps(match.state.to_position(), sort_keys=True)


# ----- Match.play records the action the engine applied ----------------------------------------


def test_a_dudab_action_whose_fields_disagree_with_its_index_is_refused() -> None:
    match = Match(get_game("dudab"), 2, seed=3)
    seat = match.state.current_seat()
    assert DRAW in match.state.legal_actions(seat)
    before = _position(match)
    # index 243 is "draw"; the other fields say "place the card of face 3 on column 1"
    built = DudabAction(243, DudabKind.PLACE, 3, 0)
    with pytest.raises(NotationError, match=r"its kind is 'p', not 'draw'"):
        match.play(seat, built)
    with pytest.raises(NotationError, match="not 'draw'"):
        match.state.apply(seat, built)
    assert not match.state.is_legal(seat, built)
    assert _position(match) == before and match.actions == []


@pytest.mark.parametrize("name", GAMES)
def test_floats_and_booleans_in_integer_fields_are_refused(name: str) -> None:
    game = get_game(name)
    match = Match(game, 2, seed=1)
    seat = match.state.seats_to_act()[0]
    before = _position(match)
    tried = 0
    for legal in match.state.legal_actions(seat):
        assert dataclasses.is_dataclass(legal) and not isinstance(legal, type)
        if is_compiled(type(legal).__module__):
            pytest.skip(REASON.format(module=type(legal).__module__))
        for f in dataclasses.fields(legal):
            value = getattr(legal, f.name)
            if type(value) is not int:
                continue
            bad: list[Any] = [float(value)]
            if value in (0, 1):
                bad.append(bool(value))
            for wrong in bad:
                built = cast(Action, dataclasses.replace(legal, **{f.name: wrong}))
                with pytest.raises(NotationError, match=re.escape(repr(wrong))):
                    match.play(seat, built)
                with pytest.raises(NotationError):
                    match.state.apply(seat, built)
                tried += 1
    assert tried > 0
    assert _position(match) == before and match.actions == []


@skip_compiled("campfire.games.tracker.actions")
def test_tracker_peek_with_a_float_position_no_longer_writes_a_record_that_does_not_replay() -> (
    None
):
    match = Match(get_game("tracker"), 2, seed=7)
    with pytest.raises(NotationError, match=r"its arg is 0\.0, not 0"):
        match.play(match.state.current_seat(), TrackerAction(TrackerKind.PEEK, 0.0, 0))  # type: ignore[arg-type]
    assert match.record().actions == []


@pytest.mark.parametrize(
    ("name", "built", "notation"),
    [
        # an Apache action built without its index (the field's default) is the same action
        ("apache", ApacheAction(ApacheKind.REVEAL), "reveal"),
        ("dudab", DudabAction(243, DudabKind.DRAW), "draw"),
        ("tracker", TrackerAction(TrackerKind.PEEK, 12, 12), "peek 12"),
    ],
)
def test_a_hand_built_copy_of_a_legal_action_is_recorded_as_the_engine_s_own(
    name: str, built: Action, notation: str
) -> None:
    game = get_game(name)
    match = Match(game, 2, seed=3)
    seat = match.state.current_seat()
    match.play(seat, built)
    assert match.actions[0][1] is game.parse_action(notation)
    record = match.record()
    assert record.actions == [(seat, notation)]
    assert replay(Record.from_json(record.to_json())).state.position_equal(match.state)


def test_canonical_action_is_the_game_s_own_action() -> None:
    tracker = get_game("tracker")
    assert tracker.canonical_action("peek 3") is tracker.parse_action("peek 3")
    assert tracker.canonical_action(TrackerAction(TrackerKind.PEEK, 3, 3)) is tracker.parse_action(
        "peek 3"
    )
    with pytest.raises(NotationError, match="its index is 999, not 3"):
        tracker.canonical_action(TrackerAction(TrackerKind.PEEK, 3, 999))
    with pytest.raises(NotationError, match="is no Tracker action"):  # in either build
        tracker.canonical_action(object())  # type: ignore[arg-type]


# ----- get_game of something that is no name ---------------------------------------------------


@pytest.mark.parametrize("name", [None, 1, ["tracker"], b"tracker", 2.5])
def test_get_game_of_a_non_string_is_an_unknown_game_error(name: Any) -> None:
    expected = r"a game is named by a string \(got .*\); known games: apache"
    with pytest.raises(UnknownGameError, match=expected):
        campfire.get_game(name)


# ----- integers too long to print --------------------------------------------------------------

HUGE = 10**5000


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("number", [HUGE, -HUGE], ids=["huge", "-huge"])
def test_player_counts_of_5000_digits_are_option_errors(name: str, number: int) -> None:
    game = get_game(name)
    with pytest.raises(OptionError, match="players"):
        game.new_game(number, seed=1)
    with pytest.raises(OptionError, match="players"):
        Match(game, number, seed=1)
    position = game.new_game(2, seed=1).to_position()
    with pytest.raises(PositionError, match="players"):
        game.state_from_position({**position, "players": number})


@pytest.mark.parametrize("name", GAMES)
def test_integer_options_of_5000_digits_are_option_errors(name: str) -> None:
    game = get_game(name)
    ints = [i.name for i in game.options_type.infos() if i.type is int]
    for option in ints:
        for number in (HUGE, -HUGE):
            with pytest.raises(OptionError, match=option):
                game.new_game(2, {option: number}, seed=1)
    if name == "tracker":
        assert ints  # peek_count


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("apache", "start_player"),
        ("dudab", "start_player"),
        ("manitou", "dealer"),
        ("tracker", "start_player"),
    ],
)
def test_setup_fields_of_5000_digits_are_setup_errors(name: str, field: str) -> None:
    game = get_game(name)
    options = game.options()
    setup = game.random_setup(2, options, random.Random(1))
    for key in [field, *setup]:
        for number in (HUGE, -HUGE, [HUGE], {"x": HUGE}):
            with pytest.raises(SetupError, match="more than 40 digits"):
                game.new_game(2, setup={**setup, key: number})
            with pytest.raises(SetupError, match="more than 40 digits"):
                Match(game, 2, setup={**setup, key: number})


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [HUGE, -HUGE], ids=["huge", "-huge"])
def test_seats_of_5000_digits_are_refused_with_the_documented_errors(name: str, seat: int) -> None:
    state = get_game(name).new_game(2, seed=1)
    action = state.legal_actions(state.seats_to_act()[0])[0]
    with pytest.raises(IllegalActionError, match="seat"):
        state.apply(seat, action)
    calls: list[Callable[[], object]] = [
        lambda: state.view(seat),
        lambda: state.render(seat),
        lambda: state.legal_actions(seat),
        lambda: state.determinize(seat, random.Random(0)),
    ]
    for call in calls:
        with pytest.raises(SeatError, match="more than 40 digits"):
            call()
    assert not state.is_legal(seat, action)


def test_an_error_text_writes_an_integer_too_long_for_python_in_words() -> None:
    text = ErrorText("there is no seat {seat}", seat=HUGE)
    assert text == "there is no seat a number of more than 40 digits"
    assert text.params == {"seat": "a number of more than 40 digits"}


# ----- the outcome must match whole ------------------------------------------------------------


def _finished_tracker() -> dict[str, Any]:
    match = Match(get_game("tracker"), 2, seed=5, names=["Ann", "Bob"])
    rng = random.Random(5)
    while not match.state.is_terminal():
        seat = match.state.current_seat()
        match.play(seat, rng.choice(match.state.legal_actions(seat)))
    return match.record().to_json()


def test_a_record_whose_outcome_details_were_changed_is_refused() -> None:
    data = _finished_tracker()
    details = data["outcome"]["details"]
    assert details and isinstance(details[1], dict)
    key = next(iter(details[1]))
    details[1][key] = "changed"
    with pytest.raises(RecordError, match=f"details of seat 1: {key!r}"):
        replay(Record.from_json(data))
    with pytest.raises(RecordError, match="details of seat 1"):
        replay_text(json.dumps(data))
    # a record may leave the details out (they are optional), but not a seat's
    data["outcome"].pop("details")
    replay(Record.from_json(data))
    data["outcome"]["details"] = details[:1]
    with pytest.raises(RecordError, match="details"):
        replay(Record.from_json(data))


# ----- reading a record takes memory in proportion to its size ---------------------------------

HEADER = (
    '{"format": "campfire-record", "version": 1, "game": "tracker", "options": {}, '
    '"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 1'
)


def _filled(head: str, element: Callable[[int], str], tail: str, count: int | None = None) -> bytes:
    """``head``, elements joined by commas, ``tail``: ``count`` elements, or as many as fit."""
    if count is not None:
        return (head + ",".join(element(i) for i in range(count)) + tail).encode()
    room = MAX_JSON_BYTES - len(head) - len(tail) - 64
    parts: list[str] = []
    size = 0
    while size + len(item := element(len(parts))) + 1 <= room:
        parts.append(item)
        size += len(item) + 1
    return (head + ",".join(parts) + tail).encode()


#: records of the shapes that cost Python the most memory per byte of JSON; the first is the
#: audit's (16 MiB, 5.5 million empty objects in "meta": 850 MB to read)
SHAPES: dict[str, Callable[[], bytes]] = {
    "meta of empty objects": lambda: _filled(
        HEADER + ', "actions": [], "outcome": null, "meta": {"x": [', lambda i: "{}", "]}}"
    ),
    "actions before the header": lambda: _filled(
        '{"actions": [', lambda i: '[0, "peek 1"]', "], " + HEADER[1:] + "}"
    ),
    "an unknown field of short strings": lambda: _filled(
        HEADER + ', "actions": [], "notes": [', lambda i: f'"{i:x}"', "]}"
    ),
    "one action of empty arrays": lambda: _filled(
        HEADER + ', "actions": [[', lambda i: "[]", "]]}"
    ),
    "outcome details of empty objects": lambda: _filled(
        HEADER + ', "actions": [], "outcome": {"scores": [0, 0], "ranks": [1, 1], '
        '"winners": [0, 1], "details": [',
        lambda i: "{}",
        "]}}",
    ),
    # the most expensive that is read: as many values as allowed, keys of wide characters
    "meta of distinct wide keys": lambda: _filled(
        HEADER + ', "actions": [], "meta": {',
        lambda i: f'"\U0001f600{i:056x}": 0',
        "}}",
        MAX_JSON_VALUES - 100,
    ),
    "meta of one long string of wide characters": lambda: (
        HEADER
        + ', "actions": [], "meta": {"note": "\U0001f600'
        + "a" * (MAX_JSON_BYTES - 400)
        + '"}}'
    ).encode(),
}


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
def test_reading_a_hostile_record_stays_within_the_documented_memory(shape: str) -> None:
    data = SHAPES[shape]()
    assert 15 * 2**20 < len(data) <= MAX_JSON_BYTES
    readers: list[Callable[[bytes], object]] = [replay_text, Record.loads]
    for read in readers:
        tracemalloc.start()
        try:
            read(data)
        except RecordError as exc:
            assert "more than 250,000 JSON values" in str(exc), exc
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        # docs/records.md, "Memory": at most 10 times the size of the text, plus 64 MiB
        assert peak < 10 * len(data) + 64 * 2**20, (read, peak / len(data))


def test_a_document_with_too_many_values_says_so() -> None:
    with pytest.raises(RecordError, match=r"more than 250,000 JSON values"):
        loads_json("[" + "0," * MAX_JSON_VALUES + "0]", "the record")
    with pytest.raises(RecordError, match=r"more than 250,000 JSON values"):
        replay_text(HEADER + ', "actions": [], "meta": [' + "[]," * MAX_JSON_VALUES + "[]]}")
    assert loads_json("[" + "0," * 1000 + "0]", "the record") == [0] * 1001


def test_fields_that_replay_never_uses_are_not_kept() -> None:
    small = HEADER + ', "actions": [], "notes": [1, 2], "meta": {"date": "today"}}'
    record, _ = replay_text(small)
    assert record.meta == {"date": "today"}
    assert Record.loads(small).meta == {"date": "today"}
    big = HEADER + ', "actions": [], "meta": {"note": "' + "x" * MAX_META_BYTES + '"}}'
    record, _ = replay_text(big)
    assert record.meta == {}
    assert Record.loads(big).meta == {}
