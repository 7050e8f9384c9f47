"""Apache positions and setups: the strict position loader, and setups that hold every draw.

Positions are built through the public format (``to_position`` / ``state_from_position``).
"""

from __future__ import annotations

import copy
import inspect
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.core import GameRng, PositionError, SetupError
from campfire.games.apache import GAME, ApacheState
from campfire.games.apache import position as position_module
from campfire.games.apache.cards import DECK_COUNTS, parse_card

from ..position_fuzz import BASIC_VALUES, check_a_mutated_position, sample_positions
from .tables import poll, position


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


# ----- one test per named check of position.py ------------------------------------------------


def _at_reveal() -> ApacheState:
    """Seat 0 is to reveal a teepee onto a buffalo and a red hunter (three seats, reaction)."""
    return position(3, ["buffalo", "red-hunter"], reveal=["teepee"])


def _at_poll() -> ApacheState:
    """The teepee is revealed; every seat is to answer the poll."""
    state = _at_reveal()
    state.apply(0, "reveal")
    return state


def _at_choose() -> ApacheState:
    """Red's hunter claim is pending: the buffalo or the teepee (apache §6 CHOOSE)."""
    state = _at_poll()
    poll(state, {0: "claim hunter 100"})
    return state


def _at_start() -> ApacheState:
    """A seeded game before its first reveal (window 0)."""
    return GAME.new_game(3, seed=5)


def _at_game_over() -> ApacheState:
    """The last card's window closed without a claim: the game is over."""
    state = position(3, ["buffalo", "red-hunter"], reveal=["teepee"], deck_left=1)
    state.apply(0, "reveal")
    poll(state, {})
    return state


_BUFFALO = DECK_COUNTS[parse_card("buffalo")]

#: (check, legal position, the fields changed, the message): each change breaks the check's
#: invariant and no earlier one, so the check named is the one that refuses it
_CHECKS: list[tuple[str, Callable[[], ApacheState], dict[str, Any], str]] = [
    (
        "check_one_colour_per_seat",
        _at_reveal,
        {"colours": ["red", "red", "blue"]},
        "each seat plays a different colour (got ['red', 'red', 'blue'])",
    ),
    (
        "check_every_card_once",
        _at_reveal,
        {"discard": ["buffalo"]},
        f"there are {_BUFFALO} prairie card(s) buffalo, not {_BUFFALO + 1}; the 114 prairie "
        "cards must each appear exactly once",
    ),
    (
        "_check_window_counts_the_reveals",
        _at_reveal,
        {"window": 6},
        "window must be the number of cards revealed, 2 (got 6)",
    ),
    (
        "check_tiebreaks_are_seat_orders",
        _at_reveal,
        {"tiebreaks": [[0, 1]]},
        "tiebreaks[0] must be an order of the seats [0, 1, 2] (got [0, 1])",
    ),
    (
        "_check_one_answer_per_seat",
        _at_poll,
        {"answers": [None, None]},
        "answers must hold one entry per seat (3): null, 'pass' or a claim",
    ),
    (
        "_check_claim_notation",
        _at_poll,
        {"answers": [None, "claim hunter", None]},
        "answers[1]: 'claim hunter' is not a claim of the form 'claim TYPE MS'",
    ),
    (
        "_check_answers_all_or_none_outside_a_poll",
        _at_reveal,
        {"answers": ["pass", None, None]},
        "answers: outside a claim poll every seat has answered, or none",
    ),
    (
        "_check_a_full_poll_is_closed",
        _at_poll,
        {"answers": ["pass", "pass", "pass"]},
        "answers: a claim poll with every answer in is closed already",
    ),
    (
        # an answer before the first reveal can only be in a poll (outside one, the poll would
        # be all or none, and a full one closed); so this position also has a poll without a
        # card, which the later _check_a_poll_follows_a_reveal refuses too
        "_check_no_answer_before_the_first_reveal",
        _at_start,
        {"phase": "claim", "answers": ["pass", None, None]},
        "answers: no card is revealed yet, so nobody has answered",
    ),
    (
        "_check_arrival_names_each_claim_once",
        _at_poll,
        {"arrival": [0]},
        "arrival must name each seat with a claim in answers once, in the order the claims "
        "arrived (claim_order=arrival; empty otherwise)",
    ),
    (
        "_check_queue_holds_claims",
        _at_choose,
        {"queue": [[0, "claim hunter 100", "yes"]]},
        "queue[0] must be [seat, claim, legal] (got [0, 'claim hunter 100', 'yes'])",
    ),
    (
        "_check_one_claim_per_seat_in_the_queue",
        _at_choose,
        {"queue": [[0, "claim hunter 100", True], [0, "claim hunter 200", True]]},
        "queue names a seat twice (one claim per seat and window)",
    ),
    (
        "_check_resolved_is_within_the_queue",
        _at_choose,
        {"resolved": 2},
        "resolved must be 0–1, the claims of the queue resolved",
    ),
    (
        "_check_tiebreak_orders_the_seats",
        _at_reveal,
        {"tiebreak": [0, 0, 1]},
        "tiebreak must be null or an order of the seats 0–2",
    ),
    (
        "_check_queue_only_at_a_choose_step",
        _at_reveal,
        {"queue": [[1, "claim hunter 300", False]]},
        "queue must be empty and resolved 0 outside a choose step",
    ),
    (
        "_check_a_poll_follows_a_reveal",
        _at_start,
        {"phase": "claim"},
        "a claim poll needs a revealed card",
    ),
    (
        "_check_a_card_is_left_to_reveal",
        _at_game_over,
        {"phase": "reveal"},
        "no face-down card is left to reveal",
    ),
    (
        "_check_a_choose_step_has_a_pending_claim",
        _at_choose,
        {"resolved": 1},
        "a choose step needs a pending claim in the queue",
    ),
    (
        "_check_the_pending_claim_has_a_choice",
        _at_choose,
        {"queue": [[0, "claim hunter 100", False]]},
        "the pending claim has no choice to make",
    ),
    (
        "_check_game_over_only_when_every_card_is_revealed",
        _at_reveal,
        {"phase": "game_over"},
        "the game is over only once every card is revealed",
    ),
]


@pytest.mark.parametrize(
    ("check", "legal", "fields", "message"), _CHECKS, ids=[row[0] for row in _CHECKS]
)
def test_each_named_check_refuses_a_position_that_breaks_its_invariant(
    check: str, legal: Callable[[], ApacheState], fields: dict[str, Any], message: str
) -> None:
    """The position loads before the change; after it, the check named raises its message."""
    state = legal()
    assert GAME.state_from_position(_edit(state)).to_position() == state.to_position()
    with pytest.raises(PositionError) as refused:
        GAME.state_from_position(_edit(state, **fields))
    assert str(refused.value) == message
    assert refused.traceback[-1].name == check  # raised by the check itself


#: checks whose position also breaks a later check that relies on them
_GUARDS = {
    "_check_no_answer_before_the_first_reveal": "a claim poll needs a revealed card",
    "_check_a_choose_step_has_a_pending_claim": "malformed Apache position: IndexError",
}


def _returns_nothing(check: str) -> bool:
    return bool(inspect.signature(getattr(position_module, check)).return_annotation == "None")


@pytest.mark.parametrize(
    ("check", "legal", "fields"),
    [row[:3] for row in _CHECKS if _returns_nothing(row[0])],
    ids=[row[0] for row in _CHECKS if _returns_nothing(row[0])],
)
def test_a_position_of_the_table_breaks_no_other_check(
    check: str,
    legal: Callable[[], ApacheState],
    fields: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With its check switched off, the row's position loads (the checks that only refuse)."""
    data = _edit(legal(), **fields)
    monkeypatch.setattr(position_module, check, lambda *args: None)
    if check in _GUARDS:
        with pytest.raises(PositionError, match=_GUARDS[check]):
            GAME.state_from_position(data)
    else:
        GAME.state_from_position(data)


def test_the_table_names_every_check_of_position_py() -> None:
    """A new check of ``position.py`` without a row in ``_CHECKS`` fails here."""
    checks = {
        name
        for name, function in inspect.getmembers(position_module, inspect.isfunction)
        if name.startswith(("check_", "_check_"))
        and function.__module__ == position_module.__name__
    }
    assert checks == {row[0] for row in _CHECKS}


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
