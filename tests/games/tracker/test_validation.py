"""Tracker's public boundary: hand-built actions and bad seats (regressions of issue 11)."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from campfire.core import IllegalActionError, SeatError
from campfire.games.tracker import GAME
from campfire.games.tracker.actions import TrackerAction, TrackerKind, parse_action
from campfire.games.tracker.state import TrackerState
from tests.compiled_build import careless, skip_compiled

from ..boundary import (
    check_a_notation_error,
    check_apply_refuses_the_seat,
    check_reads_refuse_the_seat,
)


def fresh() -> TrackerState:
    state = GAME.new_game(3, seed=5)
    assert isinstance(state, TrackerState)
    return state


@pytest.mark.parametrize(
    "built",
    # built by hand from plain values, as a careless caller would (cast: for the type checker)
    [
        # used to show the card at position 59
        careless(
            lambda: TrackerAction(cast(TrackerKind, "peek"), -1, 0),
            "campfire.games.tracker.actions",
        ),
        # used to raise IndexError
        careless(
            lambda: TrackerAction(cast(TrackerKind, "peek"), 60, 60),
            "campfire.games.tracker.actions",
        ),
        # used to start a capture, no trackers
        careless(
            lambda: TrackerAction(cast(TrackerKind, "track"), 0, 239),
            "campfire.games.tracker.actions",
        ),
        careless(
            lambda: TrackerAction(cast(TrackerKind, "track"), 4, 243),
            "campfire.games.tracker.actions",
        ),
        careless(
            lambda: TrackerAction(cast(TrackerKind, "jump"), 1, 1), "campfire.games.tracker.actions"
        ),
        # unhashable
        careless(
            lambda: TrackerAction(cast(TrackerKind, "peek"), cast(int, [1]), 1),
            "campfire.games.tracker.actions",
        ),
    ],
)
def test_hand_built_actions_outside_the_index_space_are_notation_errors(
    built: TrackerAction,
) -> None:
    check_a_notation_error(fresh(), 0, built, "not a Tracker action")


@skip_compiled("campfire.games.tracker.actions")
def test_a_hand_built_copy_of_a_legal_action_is_that_action() -> None:
    state = fresh()
    # every field must agree, the index too (issue 26 item 7)
    check_a_notation_error(
        state, 0, TrackerAction(cast(TrackerKind, "peek"), 12, 999), "its index is 999, not 12"
    )
    events = state.apply(0, TrackerAction(cast(TrackerKind, "peek"), 12, 12))
    assert [e.type for e in events] == ["peek", "peek_card"]
    assert state.peeked == [12]


@skip_compiled("campfire.games.tracker.actions")
def test_a_hand_built_action_that_is_not_legal_now_names_the_rule() -> None:
    state = fresh()
    state.apply(0, "peek 12")
    with pytest.raises(IllegalActionError, match=r"tracker rules §4\.2"):
        state.apply(0, TrackerAction(cast(TrackerKind, "peek"), 12, 12))


@skip_compiled("campfire.games.tracker.state")  # a seat of the wrong type: mypyc's TypeError first
@pytest.mark.parametrize("seat", [True, 1.0, "0", None, -1, 3])
def test_apply_refuses_values_that_are_no_seat(seat: Any) -> None:
    check_apply_refuses_the_seat(fresh(), seat, "peek 12")


@skip_compiled("campfire.games.tracker.state")  # a seat of the wrong type: mypyc's TypeError first
def test_seat_true_is_not_seat_1() -> None:
    state = fresh()
    while state.seats_to_act() == (0,):
        state.apply(0, state.legal_actions(0)[0])  # peeks
    assert state.seats_to_act() == (1,)
    with pytest.raises(IllegalActionError, match="got True"):
        state.apply(True, "peek 1")


@skip_compiled("campfire.games.tracker.state")  # determinize(None): None is no int
@pytest.mark.parametrize("seat", [True, 1.0, "x", -1, 3])
def test_views_determinisations_and_legal_actions_refuse_bad_seats(seat: Any) -> None:
    state = fresh()
    check_reads_refuse_the_seat(state, seat)
    with pytest.raises(SeatError, match="spectator"):
        state.determinize(None, random.Random(0))  # type: ignore[arg-type]
    assert parse_action("peek 1") in state.legal_actions(None)
