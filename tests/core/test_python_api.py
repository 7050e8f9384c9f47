"""Regression tests for issue 26 item 7: the Python API, from an outside audit.

Each test failed on the main branch of the day: a hand-built action recorded as given rather
than as applied, ``get_game`` of a non-string, integers too long to print in error messages,
and an outcome whose details were changed.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
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
from campfire.core.records import replay_text
from campfire.games.apache.actions import ApacheAction, ApacheKind
from campfire.games.dudab.actions import DRAW, DudabAction, DudabKind
from campfire.games.tracker.actions import TrackerAction, TrackerKind

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
    with pytest.raises(NotationError, match="not a Tracker action"):
        tracker.canonical_action(object())  # type: ignore[arg-type]


# ----- get_game of something that is no name ---------------------------------------------------


@pytest.mark.parametrize("name", [None, 1, ["tracker"], b"tracker", 2.5])
def test_get_game_of_a_non_string_is_an_unknown_game_error(name: Any) -> None:
    with pytest.raises(
        UnknownGameError, match=r"a game is named by a string .*known games: apache"
    ):
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
