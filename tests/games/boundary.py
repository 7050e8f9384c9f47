"""The games' public boundary: hand-built actions and values that are no seat (issue 11).

Used by the games' ``test_validation.py``, which keep what is their own: the state, the
hand-built actions, the actions to try with bad seats and the expected messages. Every refusal
must leave the state as it was.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from campfire.core import Action, IllegalActionError, NotationError, SeatError, State


def position_text(state: State) -> str:
    """The state's position as canonical JSON text, to see that a refusal changed nothing."""
    return json.dumps(state.to_position(), sort_keys=True)


def check_a_notation_error(state: State, seat: int, built: Action, message: str) -> None:
    """A hand-built action outside the game's index space is refused as notation, not legal."""
    before = position_text(state)
    with pytest.raises(NotationError, match=message):
        state.apply(seat, built)
    assert position_text(state) == before
    assert not state.is_legal(seat, built)


def check_apply_refuses_the_seat(state: State, seat: Any, action: str) -> None:
    """``apply`` refuses a value that is no seat of the game under the rule ``seat``."""
    before = position_text(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    assert info.value.rule == "seat"
    assert position_text(state) == before


def check_reads_refuse_the_seat(state: State, seat: Any) -> None:
    """Views, renders, legal actions and determinisations refuse a value that is no seat."""
    for call in (
        lambda: state.view(seat),
        lambda: state.render(seat),
        lambda: state.legal_actions(seat),
        lambda: state.determinize(seat, random.Random(0)),
    ):
        with pytest.raises(SeatError):
            call()
    assert state.view(None)["seat"] is None
