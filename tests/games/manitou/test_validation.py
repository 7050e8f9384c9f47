"""Big Manitou's public boundary: hand-built actions and bad seats (regressions of issue 11)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from campfire.core import IllegalActionError, NotationError, SeatError
from campfire.games.manitou import GAME, ManitouState
from campfire.games.manitou.actions import K_MOVE, K_PICK, K_PLAY, ManitouAction


def fresh() -> ManitouState:
    state = GAME.new_game(3, seed=2)
    assert isinstance(state, ManitouState)
    return state


def position(state: ManitouState) -> str:
    return json.dumps(state.to_position(), sort_keys=True)


@pytest.mark.parametrize(
    "built",
    [
        ManitouAction(K_PICK, -1, -1, 0),  # used to pick a healer
        ManitouAction(K_PICK, 99, -1, 0),  # used to raise IndexError
        ManitouAction(K_PICK, 0, 1, 0),  # a pick names no ground
        ManitouAction(K_PLAY, 0, 3, 15),  # there are 3 grounds
        ManitouAction(K_MOVE, 11, 0, 60),  # only hunters move
        ManitouAction(9, 0, -1, 0),
        ManitouAction(K_PICK, [0], -1, 0),  # unhashable
    ],
)
def test_hand_built_actions_outside_the_index_space_are_notation_errors(
    built: ManitouAction,
) -> None:
    state = fresh()
    before = position(state)
    with pytest.raises(NotationError, match="not a Big Manitou action"):
        state.apply(0, built)
    assert position(state) == before
    assert not state.is_legal(0, built)


def test_a_hand_built_copy_of_a_legal_action_is_that_action() -> None:
    state = fresh()
    state.apply(0, ManitouAction(K_PICK, 14, -1, 0))  # healer; the index is not compared
    assert state.picked[0] == 1
    assert state.selected[0][14] == 1


def test_a_pick_beyond_the_pool_is_refused_with_the_rule() -> None:
    state = fresh()
    state.apply(0, "pick healer")  # one healer per seat
    with pytest.raises(IllegalActionError) as info:
        state.apply(0, ManitouAction(K_PICK, 14, -1, 14))
    assert info.value.rule == "manitou rules §4.4"
    assert "pick one of" in str(info.value)


@pytest.mark.parametrize("seat", [True, 1.0, "0", None, -1, 3])
def test_apply_refuses_values_that_are_no_seat(seat: Any) -> None:
    state = fresh()
    before = position(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, "pick h1")
    assert info.value.rule == "seat"
    assert position(state) == before


@pytest.mark.parametrize("seat", [True, 1.0, "x", -1, 3])
def test_views_determinisations_and_legal_actions_refuse_bad_seats(seat: Any) -> None:
    state = fresh()
    for call in (
        lambda: state.view(seat),
        lambda: state.render(seat),
        lambda: state.legal_actions(seat),
        lambda: state.determinize(seat, random.Random(0)),
    ):
        with pytest.raises(SeatError):
            call()
    assert state.view(None)["seat"] is None
    assert state.legal_actions(None) == []  # three seats select at once
