"""Dudab's view and event data match their declared TypedDicts (games/dudab/types.py)."""

from __future__ import annotations

import typing

from campfire import get_game
from campfire.games.dudab.actions import DudabKind, parse_action
from campfire.games.dudab.state import PHASES, PROMPTS
from campfire.games.dudab.types import EVENT_DATA, DudabView, Phase, Prompt

from ..typed_shapes import check_game

GAME = get_game("dudab")


def test_views_and_events_match_their_typeddicts(every_option_combination: bool) -> None:
    events, keys = check_game(
        GAME, DudabView, EVENT_DATA, 3, games=2, seed=11, every=every_option_combination
    )
    assert events == set(EVENT_DATA)  # every declared event type was met
    assert keys == set(typing.get_type_hints(DudabView))  # and every declared view key


def test_phase_and_prompt_literals_are_the_states_names() -> None:
    assert typing.get_args(Phase) == PHASES and PHASES[-1] == "game_over"
    assert typing.get_args(Prompt) == PROMPTS


def test_a_finished_game_is_game_over_in_view_and_position() -> None:
    state = GAME.new_game(2, seed=4)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.view(None)["phase"] == "game_over"
    assert state.to_position()["state"]["phase"] == "game_over"


def test_action_kinds_are_str_enum_members_equal_to_the_notation_keyword() -> None:
    assert parse_action("p dudab c1 call=yellow").kind is DudabKind.PLACE
    assert parse_action("rest pile").kind == "rest" and parse_action("draw").kind == "draw"
    assert repr(parse_action("baby c2")) == "DudabAction('baby c2')"
