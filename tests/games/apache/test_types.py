"""Apache's view and event data match their declared TypedDicts (games/apache/types.py)."""

from __future__ import annotations

import typing

from campfire import get_game
from campfire.games.apache.actions import ApacheKind, parse_action
from campfire.games.apache.state import PHASES
from campfire.games.apache.types import EVENT_DATA, ApacheView, Phase

from ..typed_shapes import check_game

GAME = get_game("apache")


def test_views_and_events_match_their_typeddicts(every_option_combination: bool) -> None:
    events, keys = check_game(
        GAME, ApacheView, EVENT_DATA, 2, games=1, seed=3, every=every_option_combination
    )
    assert events == set(EVENT_DATA)  # every declared event type was met
    assert keys == set(typing.get_type_hints(ApacheView))  # and every declared view key


def test_phase_literal_is_the_states_names_and_ends_in_game_over() -> None:
    assert typing.get_args(Phase) == PHASES and PHASES[-1] == "game_over"
    state = GAME.new_game(2, seed=4)
    while not state.is_terminal():
        seat = state.seats_to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.view(None)["phase"] == "game_over"
    assert state.to_position()["state"]["phase"] == "game_over"


def test_action_kinds_are_str_enum_members_equal_to_the_notation_keyword() -> None:
    action = parse_action("claim hunter 350")
    # cast: once narrowed to the enum member, mypy sees no overlap with the plain str it equals
    assert action.kind is ApacheKind.CLAIM and typing.cast(str, action.kind) == "claim"
    assert repr(action) == "ApacheAction('claim hunter 350')"
    assert str(parse_action("pass")) == "pass"
