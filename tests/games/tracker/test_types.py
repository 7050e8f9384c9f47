"""Tracker's view and event data match their declared TypedDicts (games/tracker/types.py)."""

from __future__ import annotations

import typing

from campfire import get_game
from campfire.games.tracker.state import PHASES, STEPS
from campfire.games.tracker.types import EVENT_DATA, Phase, Step, TrackerView

from ..typed_shapes import check_game, problems

GAME = get_game("tracker")


def test_views_and_events_match_their_typeddicts(every_option_combination: bool) -> None:
    events, keys = check_game(
        GAME, TrackerView, EVENT_DATA, 3, games=2, seed=5, every=every_option_combination
    )
    assert events == set(EVENT_DATA)  # every declared event type was met
    assert keys == set(typing.get_type_hints(TrackerView))  # and every declared view key


def test_phase_and_step_literals_are_the_states_names() -> None:
    assert typing.get_args(Phase) == PHASES and PHASES[-1] == "game_over"
    assert typing.get_args(Step) == STEPS


def test_checker_finds_an_undeclared_key_and_a_wrong_type() -> None:
    view = dict(GAME.new_game(2, seed=1).view(0))
    view["extra"] = 1
    view["centre"] = "three"
    found = problems(view, TrackerView)
    assert any("'extra' is not declared" in p for p in found)
    assert any("['centre']" in p and "not of type int" in p for p in found)
    del view["phase"]
    assert any("'phase' is missing" in p for p in problems(view, TrackerView))
