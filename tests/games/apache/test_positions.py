"""Apache positions and setups: the strict position loader, and setups that hold every draw.

Positions are built through the public format (``to_position`` / ``state_from_position``).
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.core import GameRng, PositionError, SetupError
from campfire.games.apache import GAME, ApacheState

from ..position_fuzz import BASIC_VALUES, check_a_mutated_position, sample_positions
from .tables import position


def _play(state: ApacheState, rng: random.Random) -> tuple[int, str]:
    seats = state.seats_to_act()
    seat = seats[rng.randrange(len(seats))]
    action = rng.choice(state.legal_actions(seat))
    state.apply(seat, action)
    return seat, str(action)


@pytest.mark.parametrize("players", [2, 5])
def test_a_seeded_game_and_its_setup_without_the_seed_play_identically(players: int) -> None:
    """The setup holds the tie-breaks of equal reaction times too (claim_order=reaction)."""
    setup = GAME.random_setup(players, GAME.options(), GameRng(8))
    assert len(setup["tiebreaks"]) == 114
    seeded = GAME.new_game(players, seed=8)
    typed = GAME.new_game(players, setup=json.loads(json.dumps(setup)))  # no seed
    rng_a, rng_b = random.Random(3), random.Random(3)
    while not seeded.is_terminal():
        assert _play(seeded, rng_a) == _play(typed, rng_b)
        assert seeded.view(None) == typed.view(None)
    assert typed.outcome() == seeded.outcome()


def test_equal_reaction_times_follow_the_setup_tiebreaks_in_turn() -> None:
    setup = GAME.random_setup(3, GAME.options(), GameRng(1))
    setup["tiebreaks"] = [[2, 0, 1], [1, 2, 0]]
    state = GAME.new_game(3, setup=setup)
    closed: list[list[int]] = []
    while len(closed) < 3:
        seat = state.seats_to_act()[0]
        if state.view(None)["phase"] == "claim":
            events = [e for s in range(3) for e in state.apply(s, "claim hunter 500")]
        else:
            events = state.apply(seat, state.legal_actions(seat)[0])
        closed += [e.data["tiebreak"] for e in events if e.type == "window_closed"]
    assert closed[:2] == [[2, 0, 1], [1, 2, 0]]
    assert sorted(closed[2]) == [0, 1, 2]  # then drawn from the game's generator


@pytest.mark.parametrize(
    "tiebreaks", [[[0, 0, 1]], [[0, 1]], "012", [[0, 1, True]], [[0, 1, 2]] * 115]
)
def test_bad_tiebreaks_are_refused(tiebreaks: Any) -> None:
    setup = GAME.random_setup(3, GAME.options(), GameRng(1))
    setup["tiebreaks"] = tiebreaks
    with pytest.raises(SetupError, match="tiebreaks"):
        GAME.new_game(3, setup=setup)


def _edit(state: ApacheState, **fields: Any) -> dict[str, Any]:
    data = copy.deepcopy(state.to_position())
    data["state"].update(fields)
    return data


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"window": 6}, "window"),
        ({"window": True}, "window"),
        ({"revealer": 3}, "seat"),
        ({"start_player": False}, "seat"),
        ({"table": ["buffalo", "buffalo"]}, "exactly once"),
        ({"piles": [["red-hunter"], [], []]}, "exactly once"),
        ({"deck": "buffalo"}, "deck must be a list"),
        ({"answers": ["pass", None, None]}, "answers"),
        ({"arrival": [0]}, "arrival"),
        ({"queue": [[0, "claim buffalo 300", "yes"]]}, "queue"),
        ({"resolved": 1}, "resolved"),
        ({"tiebreak": [0, 0, 1]}, "tiebreak"),
        ({"tiebreaks": [[0, 1]]}, "tiebreaks"),
        ({"phase": "game_over"}, "every card"),
        ({"phase": 2}, "phase"),
        ({"colours": ["red", "red", "blue"]}, "different colour"),
        ({"extra": 1}, "unknown state field"),
    ],
)
def test_impossible_positions_are_refused_with_the_field_named(
    fields: dict[str, Any], message: str
) -> None:
    state = position(3, ["buffalo", "red-hunter"], reveal=["teepee"])
    with pytest.raises(PositionError, match=message):
        GAME.state_from_position(_edit(state, **fields))


def test_a_claim_without_reaction_time_is_refused_in_reaction_order() -> None:
    state = position(3, ["buffalo"], reveal=["teepee"])
    state.apply(0, "reveal")
    with pytest.raises(PositionError, match=r"answers\[1\]"):
        GAME.state_from_position(_edit(state, answers=[None, "claim hunter", None]))


# ----- property: random mutations are accepted and playable, or refused --------------------


@cache
def _positions() -> tuple[str, ...]:
    runs: list[tuple[int, int, dict[str, Any]]] = [
        (1, 2, {}),
        (2, 3, {"claim_order": "arrival", "marriage": True}),
        (3, 5, {"sharing": True, "war_tribute": True}),
    ]
    return sample_positions(
        GAME,
        runs,
        lambda state, rng: rng.random() < 0.03 or state.view(None)["phase"] == "choose",
        _play,
    )


#: the samples a mutation writes: the common ones and this game's words and numbers
_VALUES: list[Any] = [
    *BASIC_VALUES,
    114,
    "pass",
    "buffalo",
    "red-hunter",
    "claim hunter 300",
    "claim hunter",
    "reveal",
    "claim",
    "choose",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_positions_are_playable_or_refused(data: st.DataObject) -> None:
    """The poll's seats answer at once: every seat to act must have a legal move."""
    check_a_mutated_position(GAME, _positions(), data.draw, _VALUES, simultaneous=True)
