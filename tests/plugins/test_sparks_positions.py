"""Sparks positions fuzzed: random changes of real positions are playable, or refused.

The harness is the built-in games' (``tests/games/position_fuzz.py``): a changed position must
be refused with a ``PositionError``, or load into a state that round-trips, shows every seat
and lets the seat to act play on.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from campfire_sparks import GAME, SparksState
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.position_fuzz import BASIC_VALUES, check_a_mutated_position, sample_positions

_VALUES: list[Any] = [
    *BASIC_VALUES,
    3,
    4,
    5,
    "R1",
    "R9",
    "B5",
    "G9",
    "X1",
    ["B5"],
    ["R1", "R2"],
]


def _step(state: SparksState, rng: random.Random) -> None:
    seat = state.current_seat()
    state.apply(seat, rng.choice(state.legal_actions(seat)))


@functools.cache
def _positions() -> tuple[str, ...]:
    runs: list[tuple[int, int, dict[str, Any]]] = [
        (1, 2, {}),
        (2, 3, {"trumps": True}),
        (3, 4, {"hand_size": 6}),
        (4, 3, {"hand_size": 4}),
    ]
    return sample_positions(GAME, runs, lambda s, rng: rng.random() < 0.5, _step)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_positions_are_playable_or_refused(data: st.DataObject) -> None:
    check_a_mutated_position(GAME, _positions(), data.draw, _VALUES)
