"""Sparks passes Campfire's conformance suite (tests/conformance), every check of it.

When the plugin is installed, the suite itself runs it (it runs every registered game) and the
checks here are skipped; otherwise they run the suite's own check functions on Sparks.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest
from campfire_sparks import GAME

from tests.conformance import test_conformance, test_validation

from .conftest import installed

CHECKS: list[Callable[..., None]] = [
    f
    for module in (test_conformance, test_validation)
    for name, f in sorted(vars(module).items())
    if name.startswith("test_") and inspect.isfunction(f)
]
PLAYERS = range(GAME.min_players, GAME.max_players + 1)


@pytest.mark.skipif(installed(), reason="installed: tests/conformance runs Sparks itself")
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__)
def test_sparks_passes(check: Callable[..., None], players: int) -> None:
    params = inspect.signature(check).parameters
    if "players" not in params:  # a check of the game alone: once
        if players == GAME.min_players:
            check(GAME)
        return
    if "options" in params:
        for options in GAME.options_type.combinations():
            check(GAME, players, options)
    else:
        check(GAME, players)


def test_every_check_takes_the_game_then_a_player_count_and_options() -> None:
    for check in CHECKS:
        names: list[Any] = list(inspect.signature(check).parameters)
        assert names in (["game"], ["game", "players"], ["game", "players", "options"]), names
