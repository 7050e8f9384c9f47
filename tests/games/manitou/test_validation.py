"""Big Manitou's public boundary: hand-built actions and bad seats (regressions of issue 11)."""

from __future__ import annotations

from typing import Any, cast

import pytest

from campfire.core import IllegalActionError
from campfire.games.manitou import GAME, ManitouState
from campfire.games.manitou.actions import K_MOVE, K_PICK, K_PLAY, ManitouAction, ManitouKind
from tests.compiled_build import careless, skip_compiled

from ..boundary import (
    check_a_notation_error,
    check_apply_refuses_the_seat,
    check_reads_refuse_the_seat,
)


def fresh() -> ManitouState:
    state = GAME.new_game(3, seed=2)
    assert isinstance(state, ManitouState)
    return state


@pytest.mark.parametrize(
    "built",
    # built by hand, wrong values included (cast: for the type checker)
    [
        ManitouAction(K_PICK, -1, -1, 0),  # used to pick a healer
        ManitouAction(K_PICK, 99, -1, 0),  # used to raise IndexError
        ManitouAction(K_PICK, 0, 1, 0),  # a pick names no ground
        ManitouAction(K_PLAY, 0, 3, 15),  # there are 3 grounds
        ManitouAction(K_MOVE, 11, 0, 60),  # only hunters move
        careless(
            lambda: ManitouAction(cast(ManitouKind, 9), 0, -1, 0), "campfire.games.manitou.actions"
        ),
        careless(
            lambda: ManitouAction(K_PICK, cast(int, [0]), -1, 0), "campfire.games.manitou.actions"
        ),  # unhashable
    ],
)
def test_hand_built_actions_outside_the_index_space_are_notation_errors(
    built: ManitouAction,
) -> None:
    check_a_notation_error(fresh(), 0, built, "not a Big Manitou action")


def test_a_hand_built_copy_of_a_legal_action_is_that_action() -> None:
    state = fresh()
    # healer; every field must agree, the index too (issue 26 item 7)
    check_a_notation_error(state, 0, ManitouAction(K_PICK, 14, -1, 0), "its index is 0, not 14")
    state.apply(0, ManitouAction(K_PICK, 14, -1, 14))
    assert state.picked[0] == 1
    assert state.selected[0][14] == 1


def test_a_pick_beyond_the_pool_is_refused_with_the_rule() -> None:
    state = fresh()
    state.apply(0, "pick healer")  # one healer per seat
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, ManitouAction(K_PICK, 14, -1, 14))
    assert info.value.rule == "manitou rules §4.4"
    assert "pick one of" in str(info.value)


@skip_compiled("campfire.games.manitou.state")  # a seat of the wrong type: mypyc's TypeError first
@pytest.mark.parametrize("seat", [True, 1.0, "0", None, -1, 3])
def test_apply_refuses_values_that_are_no_seat(seat: Any) -> None:
    check_apply_refuses_the_seat(fresh(), seat, "pick h1")


@skip_compiled("campfire.games.manitou.state")  # a seat of the wrong type: mypyc's TypeError first
@pytest.mark.parametrize("seat", [True, 1.0, "x", -1, 3])
def test_views_determinisations_and_legal_actions_refuse_bad_seats(seat: Any) -> None:
    state = fresh()
    check_reads_refuse_the_seat(state, seat)
    assert state.legal_actions(None) == []  # three seats select at once
