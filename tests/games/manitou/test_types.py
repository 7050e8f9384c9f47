"""Big Manitou's view and event data match their declared TypedDicts (games/manitou/types.py)."""

from __future__ import annotations

import typing

from campfire import get_game
from campfire.games.manitou.actions import ManitouKind, parse_action
from campfire.games.manitou.state import PHASES
from campfire.games.manitou.types import EVENT_DATA, ManitouView, Phase

from ..typed_shapes import check_game

GAME = get_game("manitou")


def test_views_and_events_match_their_typeddicts(every_option_combination: bool) -> None:
    events, keys = check_game(
        GAME, ManitouView, EVENT_DATA, 2, games=1, seed=2, every=every_option_combination
    )
    # every declared event type was met, but ``no_play`` (a hand with no playable card), rare
    assert set(EVENT_DATA) - events <= {"no_play"}
    assert keys == set(typing.get_type_hints(ManitouView))  # and every declared view key


def test_phase_literal_is_the_states_names_and_ends_in_game_over() -> None:
    assert typing.get_args(Phase) == PHASES and PHASES[-1] == "game_over"


def test_action_kinds_are_str_enum_members_equal_to_the_notation_keyword() -> None:
    assert parse_action("play chief g2").kind is ManitouKind.PLAY
    assert parse_action("take tipi2").kind == "take" and parse_action("pass").kind == "pass"
    assert repr(parse_action("move h6 g3")) == "ManitouAction('move h6 g3')"
